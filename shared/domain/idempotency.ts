import { createHash } from 'node:crypto';
import type { Principal } from './principal';

/**
 * The rules of the `Idempotency-Key` header of the money-moving POSTs (docs/purchases.md, Stripe's rules;
 * docs/purchases.md, Idempotency-Key): what a key may be, whose keys collide, what counts as the
 * same request, and how long a record counts. Pure: the store and the HTTP middleware apply them.
 */

export const idempotencyKeyHeader = 'Idempotency-Key';

/** A replayed response says so in this header (value `true`). */
export const idempotentReplayedHeader = 'idempotent-replayed';

/** How long a key is remembered: a repeat within this time replays, later it runs anew. */
export const idempotencyRetentionSeconds = 24 * 60 * 60;

/**
 * How long a request may hold its key in flight. Longer than any API Lambda's timeout (at most
 * 28 s, under API Gateway's 29 s), so a record still in flight after it belongs to a request
 * whose process died before it could complete or release the record: another may take it over.
 */
export const inFlightExpiryMs = 5 * 60 * 1000;

/** 1 to 255 printable ASCII characters (space to tilde). */
const validKey = /^[\x20-\x7e]{1,255}$/;

export const invalidIdempotencyKeyMessage = 'must be 1 to 255 printable ASCII characters';
export const reusedIdempotencyKeyMessage = 'was used with another request';

export function isValidIdempotencyKey(value: string): boolean {
  return validKey.test(value);
}

/**
 * Whose keys a key is compared with: each caller has its own keys, so two callers choosing the
 * same key never see each other's responses. A user's keys are its own within its org; a
 * partner's keys are the partner org's, whichever of its keys or tokens sends them.
 */
export function idempotencyScope(principal: Principal): string {
  return principal.kind === 'user'
    ? `user:${scopePart(principal.orgId)}:${scopePart(principal.userId)}`
    : `partner:${scopePart(principal.orgId)}`;
}

/**
 * Percent-escapes `%`, `:` and `#`: `:` separates the parts, and the scope is a key segment,
 * which may not hold `#` (an e-mail may: `a#b@example.com`). Escaping keeps distinct callers distinct.
 */
function scopePart(value: string): string {
  return value.replace(/[%:#]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** What makes two requests the same request. */
export interface RequestIdentity {
  readonly method: string;
  /** The resource template, e.g. `/v1/org/{org_id}/commitment-plans/{plan_id}/apply`. */
  readonly resource: string;
  readonly pathParams: Readonly<Record<string, string>>;
  /** The parsed JSON body; undefined when there is none. */
  readonly body: unknown;
}

/**
 * The hex SHA-256 of the request's method, resource, path parameters and body in canonical JSON
 * (object keys sorted at every depth), so a body whose fields come in another order, or with
 * other whitespace, is the same request. Path parameters are taken as the routes match them:
 * UUIDs without case (`/plans/<ID>` finds the plan `<id>`), so either spelling is one request.
 */
export function requestFingerprint(request: RequestIdentity): string {
  const identity = canonicalJson([
    request.method.toUpperCase(),
    request.resource,
    canonicalPathParams(request.pathParams),
    request.body ?? null,
  ]);
  return createHash('sha256').update(identity).digest('hex');
}

const uuidShape = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Each UUID-shaped parameter lower-cased (RFC 9562 §4: UUIDs compare without case); others as given. */
function canonicalPathParams(params: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(params).map(([name, value]) => [
      name,
      uuidShape.test(value) ? value.toLowerCase() : value,
    ]),
  );
}

/** JSON with object keys sorted at every depth; undefined object members are left out, as JSON.stringify does. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortedKeys(value));
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== 'object') return value;
  // Entries, not an object literal: a member named `__proto__` must stay an ordinary member.
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, member]) => member !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, member]) => [name, sortedKeys(member)] as const);
  return Object.fromEntries(entries);
}

/** The first response to a key, kept to replay: the status, the operation's headers, the body as sent. */
export interface StoredResponse {
  readonly statusCode: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** What is known of a key's record when a request with the key arrives. */
export interface IdempotencyRecordState {
  readonly fingerprint: string;
  readonly status: 'in_flight' | 'completed';
  /** Epoch milliseconds after which an in-flight record counts as abandoned. */
  readonly inFlightUntil: number;
  /** Epoch seconds after which the record is gone (the table's TTL; DynamoDB deletes it later). */
  readonly expiresAt: number;
}

/**
 * What a request with a key meets: `free` (no live record: run, taking the record over if there
 * is a stale one), `replay` (the same request completed), `in_flight` (the same request is
 * running), `reused` (the key belongs to another request).
 */
export type RecordStanding = 'free' | 'replay' | 'in_flight' | 'reused';

export function recordStanding(
  record: IdempotencyRecordState,
  fingerprint: string,
  nowMs: number,
): RecordStanding {
  // The TTL deletes late (and dynalite never): an expired record is as good as none.
  if (record.expiresAt * 1000 <= nowMs) return 'free';
  // An abandoned request is a failed one: its key is free again, as a failure's release makes it.
  if (record.status === 'in_flight' && record.inFlightUntil <= nowMs) return 'free';
  if (record.fingerprint !== fingerprint) return 'reused';
  return record.status === 'completed' ? 'replay' : 'in_flight';
}

/** The TTL (epoch seconds) of a record written at `nowMs`. */
export function idempotencyExpiresAt(nowMs: number): number {
  return Math.floor(nowMs / 1000) + idempotencyRetentionSeconds;
}
