import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoPartnerName } from '../../local/demo-seed';
import { type LocalApi, startLocalApi } from '../../local/local-api';
import { readLocalConfig } from '../../local/local-runtime';
import { createUserKey } from '../../shared/app/operator';
import { type ApiRequest, type ApiResponse, callApi } from '../support/api-client';
import { demoAuthorizationUrl } from '../support/demo-authorization';
import { consentPage } from '../support/oauth-person';

/**
 * What a partner may do to its customers' memberships through #15 (docs/api-contract.md, #15
 * invites), over HTTP against the local server: a partner-org admin cannot make itself (or a
 * colleague) a member of a child, cannot change a child member's role (only the partner's key
 * may), and a person a partner added to an org sees so on the consent page before allowing it.
 */

let api: LocalApi;
let dir: string;
let partnerOrgId: string;
let partnerKey: string;
/** An `admin` member of the demo partner org, with a user key of its own. */
const partnerAdminEmail = 'admin@demo-partner.example';
let partnerAdminKey: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'e2e-invite-lanes-'));
  api = await startLocalApi(readLocalConfig({ LOCAL_DIR: dir, PORT: '0', HOST: '127.0.0.1' }), {
    seedUsage: false,
  });
  partnerOrgId = api.credentials.partner.org_id;
  partnerKey = api.credentials.partner.api_key;
  const { key } = await createUserKey(api.runtime.ctx, partnerOrgId, partnerAdminEmail, 'admin');
  partnerAdminKey = key.apiKey;
});

afterAll(async () => {
  await api?.close();
  await rm(dir, { recursive: true, force: true });
});

const call = (path: string, request: ApiRequest): Promise<ApiResponse> => callApi(api.baseUrl, path, request);

let children = 0;
/** A new child org of the demo partner, registered with the partner's key, with `users`. */
async function child(users: readonly { email: string; role: string }[]): Promise<string> {
  children += 1;
  const registered = await call(`/v2/partners/${partnerOrgId}/orgs`, {
    method: 'POST',
    apiKey: partnerKey,
    json: { name: `Lanes Customer ${children} ${Date.now()}`, users },
  });
  expect(registered.status).toBe(200);
  return registered.body.id as string;
}

const invite = (childOrgId: string, apiKey: string, users: readonly { email: string; role: string }[]) =>
  call(`/v2/partners/${partnerOrgId}/orgs/${childOrgId}/invites`, {
    method: 'POST',
    apiKey,
    json: { users },
  });

const roleIn = async (orgId: string, email: string) =>
  (await api.runtime.ctx.repos.memberships.get(orgId, email))?.role ?? null;

describe('#15 invites of a partner org member', () => {
  it("refuses a partner-org admin's invite of its own address as a child's admin, and writes nothing", async () => {
    // Prepare
    const childOrgId = await child([{ email: 'ops@lanes-one.example', role: 'admin' }]);

    // Act
    const response = await invite(childOrgId, partnerAdminKey, [
      { email: 'new@lanes-one.example', role: 'user' },
      { email: partnerAdminEmail.toUpperCase(), role: 'admin' },
    ]);

    // Assess
    expect(response.status).toBe(422);
    expect(Object.keys(response.body.errors)).toEqual(['users.1.email']);
    expect(await roleIn(childOrgId, partnerAdminEmail)).toBeNull();
    expect(await roleIn(childOrgId, 'new@lanes-one.example')).toBeNull();
  });

  it("refuses the partner's own key inviting a member of the partner org too", async () => {
    // Prepare
    const childOrgId = await child([]);

    // Act
    const response = await invite(childOrgId, partnerKey, [{ email: partnerAdminEmail, role: 'user' }]);

    // Assess
    expect(response.status).toBe(422);
    expect(response.body.errors['users.0.email'][0]).toContain('member of the partner organization');
  });
});

describe('#15 role changes', () => {
  it("refuses a partner-org admin's change of a child member's role, leaving the role as it was", async () => {
    // Prepare
    const childOrgId = await child([{ email: 'dev@lanes-two.example', role: 'user' }]);

    // Act
    const response = await invite(childOrgId, partnerAdminKey, [
      { email: 'dev@lanes-two.example', role: 'restricted_user' },
    ]);

    // Assess
    expect(response.status).toBe(403);
    expect(Object.keys(response.body.errors)).toEqual(['users.0.role']);
    expect(await roleIn(childOrgId, 'dev@lanes-two.example')).toBe('user');
  });

  it("lets a partner-org admin add new people and invite a member again with the member's own role", async () => {
    // Prepare
    const childOrgId = await child([{ email: 'dev@lanes-three.example', role: 'user' }]);

    // Act
    const response = await invite(childOrgId, partnerAdminKey, [
      { email: 'dev@lanes-three.example', role: 'user' },
      { email: 'fin@lanes-three.example', role: 'support' },
    ]);

    // Assess
    expect(response.status).toBe(200);
    expect(await roleIn(childOrgId, 'fin@lanes-three.example')).toBe('support');
  });

  it("lets the partner's API key, acting for the child's admin, change a member's role", async () => {
    // Prepare
    const childOrgId = await child([{ email: 'dev@lanes-four.example', role: 'user' }]);

    // Act
    const response = await invite(childOrgId, partnerKey, [
      { email: 'dev@lanes-four.example', role: 'restricted_user' },
    ]);

    // Assess
    expect(response.status).toBe(200);
    expect(await roleIn(childOrgId, 'dev@lanes-four.example')).toBe('restricted_user');
  });
});

describe('the consent page of a person a partner added to an org', () => {
  it("marks the org as added by the partner, with the partner's name and when", async () => {
    // Prepare: a person of one org; the partner adds the address to a child they never heard of.
    const email = 'someone@lanes-five.example';
    const ownOrg = await child([{ email: 'boss@lanes-five.example', role: 'admin' }]);
    await createUserKey(api.runtime.ctx, ownOrg, email, 'user');
    const unknownOrg = await child([]);
    const added = await invite(unknownOrg, partnerKey, [{ email, role: 'admin' }]);
    expect(added.status).toBe(200);
    const addedAt = (await api.runtime.ctx.repos.memberships.get(unknownOrg, email))?.addedBy?.at ?? '';
    const unknownName = (await api.runtime.ctx.repos.orgs.get(unknownOrg))?.name ?? '';
    const ownName = (await api.runtime.ctx.repos.orgs.get(ownOrg))?.name ?? '';

    // Act
    const url = demoAuthorizationUrl(api.baseUrl);
    const { html } = await consentPage(url, { baseUrl: api.baseUrl, dir, email });

    // Assess
    const when = `on ${addedAt.slice(0, 10)} at ${addedAt.slice(11, 16)} UTC`;
    expect(addedAt).not.toBe('');
    expect(html).toContain(`${unknownName} (admin) (added by ${demoPartnerName} ${when})`);
    expect(html).toContain(`<li>${unknownName}: added by ${demoPartnerName} ${when}</li>`);
    expect(html).toContain(`${ownName} (user)</option>`);
  });
});
