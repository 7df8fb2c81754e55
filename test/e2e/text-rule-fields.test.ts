import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalApi, startLocalApi } from '../../local/local-api';
import { readLocalConfig } from '../../local/local-runtime';
import { createOrg, createPartner, createUserKey } from '../../shared/app/operator';
import { ValidationError } from '../../shared/domain/errors';
import { callApi } from '../support/api-client';
import { PageBrowser } from '../support/oauth-person';

/**
 * The one text rule (docs/http.md, Names) on the fields the review found open, over HTTP against
 * the local server (in this process): address lines, the partner's reference and offer links are
 * 422s naming the field; the operator's commands refuse what the API refuses; and the consent page
 * warns of a client name that mixes look-alike scripts.
 */

let api: LocalApi;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'e2e-text-rule-'));
  api = await startLocalApi(readLocalConfig({ LOCAL_DIR: dir, PORT: '0', HOST: '127.0.0.1' }), {
    seedUsage: false,
  });
});

afterAll(async () => {
  await api?.close();
  await rm(dir, { recursive: true, force: true });
});

const address = { line1: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701', country: 'US' };

async function register(body: Record<string, unknown>) {
  return callApi(api.baseUrl, `/v2/partners/${api.credentials.partner.org_id}/orgs`, {
    method: 'POST',
    apiKey: api.credentials.partner.api_key,
    json: { name: `Text Rule ${Math.random()}`, ...body },
  });
}

describe('#14 fields under the text rule', () => {
  it.each([
    ['primary_address.line1', { primary_address: { ...address, line1: '1 Main St\u202e' } }],
    ['primary_address.city', { primary_address: { ...address, city: 'Spring\u0007field' } }],
    ['partner_subscription_id', { partner_subscription_id: 'ref\u0000' }],
    ['partner_subscription_id', { partner_subscription_id: 'ref\u202e1' }],
    [
      'aws_marketplace_offer_link',
      { aws_marketplace_offer_link: 'https://aws.amazon.com/offer/\u202eexe.pdf' },
    ],
  ])('refuses %s with a 422 naming it', async (field, body) => {
    // Act
    const response = await register(body);

    // Assess
    expect(response.status).toBe(422);
    expect(Object.keys(response.body.errors)).toEqual([field]);
  });

  it('stores readable text as its NFC form', async () => {
    const response = await register({ primary_address: { ...address, city: 'Zu\u0308rich' } });
    expect(response.status).toBe(200);
    expect(response.body.primary_address.city).toBe('Z\u00fcrich');
  });
});

describe("the operator's commands under the same rule", () => {
  it('refuse names and e-mail addresses the API refuses, naming the field', async () => {
    const ctx = api.runtime.ctx;
    await expect(createPartner(ctx, 'Partner\u202e')).rejects.toThrow(ValidationError);
    await expect(createOrg(ctx, 'Org\u200b', null)).rejects.toThrow(ValidationError);
    await expect(createOrg(ctx, '\u3164', null)).rejects.toThrow(ValidationError);
    const refusedKey = createUserKey(ctx, api.credentials.org.org_id, 'ops\u202e@example.com', 'user');
    await expect(refusedKey).rejects.toMatchObject({ fields: { email: [expect.any(String)] } });
  });
});

describe('the consent page', () => {
  it('warns of a client name mixing Latin and Cyrillic letters in one word', async () => {
    // Prepare: a client registered as "Сlaude", its first letter Cyrillic
    const registered = await fetch(`${api.baseUrl}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: ['http://127.0.0.1/callback'], client_name: '\u0421laude' }),
    });
    const clientId = ((await registered.json()) as { client_id: string }).client_id;
    const url = new URL(`${api.baseUrl}/oauth/authorize`);
    url.search = String(
      new URLSearchParams({
        client_id: clientId,
        redirect_uri: 'http://127.0.0.1:8765/callback',
        response_type: 'code',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      }),
    );
    const browser = new PageBrowser();

    // Act
    const started = await browser.get(String(url));
    const html = await (await browser.get(started.headers.get('location') as string)).text();

    // Assess
    expect(html).toContain('Warning: this name mixes Latin and Cyrillic letters in one word');
  });
});
