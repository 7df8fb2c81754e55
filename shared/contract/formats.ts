import * as z from 'zod/mini';
import { checkDisplayName } from '../domain/display-names';
import { described } from './schema-registry';

/** Field formats shared by many shapes. */

/**
 * A DNS host name: RFC 1123 labels, a top-level domain of letters, at most 253 characters. The
 * same pattern as zod's `regexes.domain`, written here because reaching one member of zod's
 * `regexes` namespace bundles all of its patterns in every function.
 */
export const domainNamePattern =
  /^(?=.{1,253}$)([a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]{2,63}$/;

/** Longest e-mail address accepted anywhere (purchase, invites, register_child, memberships). */
export const maxEmailLength = 255;

/** An e-mail address; surrounding spaces are dropped. Stored lower-cased by the domain. */
export const emailAddress = /* @__PURE__ */ z.lazy(() =>
  z.string().check(z.trim(), z.maxLength(maxEmailLength), z.email()),
);

export const uuid = /* @__PURE__ */ z.lazy(() => z.uuid());

/** ISO 8601 UTC timestamp, as `Date.prototype.toISOString` writes it. */
export const dateTime = /* @__PURE__ */ z.lazy(() => z.iso.datetime());

/** ISO 8601 calendar date, `YYYY-MM-DD`. */
export const calendarDate = /* @__PURE__ */ z.lazy(() => z.iso.date());

/**
 * A name a person typed (org, company, user): trimmed, no control, bidi-override or zero-width
 * characters, valid UTF-8, stored NFC-normalized (shared/domain/display-names.ts).
 */
export const displayNameText = () => readableText(255);

/**
 * Any stored text a person reads (docs/http.md, Names): trimmed, at most `maxLength`, under the one
 * text rule of shared/domain/display-names.ts, NFC-normalized. The same rule the operator CLI
 * applies (shared/app/operator.ts).
 */
export const readableText = (maxLength: number) =>
  z.string().check(
    z.trim(),
    z.maxLength(maxLength),
    z.superRefine((value, ctx) => {
      const checked = checkDisplayName(value);
      if (!checked.ok) ctx.addIssue({ code: 'custom', message: checked.reason, input: value });
    }),
    z.overwrite((value) => value.normalize('NFC')),
  );

/** A display name that is not blank. */
export const displayName = /* @__PURE__ */ z.lazy(() => displayNameText().check(z.minLength(1)));

/**
 * Marketplace offer link: an https URL to a public host. Stored as given and never fetched by
 * the service; https-only so a link handed to customers cannot downgrade to plain HTTP or carry
 * a script scheme. No userinfo: in `https://aws.amazon.com@evil.example/` the trusted-looking
 * name is a user name and the browser goes to evil.example.
 */
export const marketplaceOfferLink = /* @__PURE__ */ z.lazy(() =>
  described(
    z.url({ hostname: domainNamePattern }).check(
      z.regex(/^https:\/\//, 'must be an https URL'),
      z.maxLength(2048),
      z.refine(
        (link) => !hasUserinfo(link),
        'must not carry a user name or password (userinfo) before the host',
      ),
      z.superRefine((link, ctx) => {
        const checked = checkDisplayName(link);
        if (!checked.ok) ctx.addIssue({ code: 'custom', message: checked.reason, input: link });
      }),
    ),
    'https URL of the offer on the cloud marketplace',
  ),
);

function hasUserinfo(link: string): boolean {
  try {
    const url = new URL(link);
    return url.username !== '' || url.password !== '';
  } catch {
    // Not a URL: the url check reports it.
    return false;
  }
}

/** Free-form object whose inner structure the spec does not define. */
export const openObject = /* @__PURE__ */ z.lazy(() => z.record(z.string(), z.unknown()));
