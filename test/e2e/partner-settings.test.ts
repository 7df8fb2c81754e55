import { describe, expect, it } from 'vitest';
import { demoOrgName } from '../../local/demo-seed';
import { partnerSettings } from '../../shared/contract/partners';
import { orgKey } from '../../shared/store/keys';
import { itDocumentsEveryStatusAnswered } from '../support/documented-statuses';
import { itemAt } from '../support/local-store';
import { links, unprocessable, usePartnerTenants } from '../support/partner-tenants';

/**
 * The partner endpoints over HTTP, against the real local server (`npm start`) on a fresh directory:
 * a customer org's partner settings (#11), one update at a time and concurrent ones. One server for the file (test/support/partner-tenants.ts), each test on orgs of its own.
 */

const tenants = usePartnerTenants();
const { registerCustomer, patchSettings } = tenants;

describe('partner settings (#11)', () => {
  it("lets the customer org's admin set its links and answers the partner settings", async () => {
    // Act
    const response = await patchSettings(tenants.customer.orgId, tenants.customer.apiKey, links);

    // Assess
    expect(response.status).toBe(200);
    expect(() => partnerSettings.parse(response.body)).not.toThrow();
    expect(response.body).toEqual({ id: tenants.customer.orgId, name: demoOrgName, ...links });
  });

  it('lets the partner set a link of its customer org, keeping the links left out', async () => {
    // Prepare
    const child = await registerCustomer(links);
    const azure = 'https://azuremarketplace.microsoft.com/marketplace/apps/other-offer';

    // Act
    const response = await patchSettings(child.id, tenants.partner.apiKey, {
      azure_marketplace_offer_link: azure,
    });

    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: child.id,
      name: child.name,
      ...links,
      azure_marketplace_offer_link: azure,
    });
  });

  it('clears a link given as null and stores the result', async () => {
    // Prepare
    const child = await registerCustomer(links);

    // Act
    const response = await patchSettings(child.id, tenants.partner.apiKey, {
      aws_marketplace_offer_link: null,
    });
    const stored = itemAt(await tenants.store.snapshot(), orgKey(child.id));

    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: child.id,
      name: child.name,
      ...links,
      aws_marketplace_offer_link: null,
    });
    expect(stored?.offerLinks).toEqual({
      aws: null,
      azure: links.azure_marketplace_offer_link,
      gcp: links.gcp_marketplace_offer_link,
    });
  });

  it('refuses an http:// link with 422 naming the field, and changes nothing', async () => {
    // Prepare
    const child = await registerCustomer(links);
    const before = await tenants.store.snapshot();

    // Act
    const response = await patchSettings(child.id, tenants.partner.apiKey, {
      gcp_marketplace_offer_link: 'https://console.cloud.google.com/marketplace/product/other',
      aws_marketplace_offer_link: 'http://aws.amazon.com/marketplace/pp/prodview-example',
    });
    const after = await tenants.store.snapshot();

    // Assess
    expect(response.status).toBe(422);
    expect(response.body).toEqual(unprocessable({ aws_marketplace_offer_link: ['must be an https URL'] }));
    expect(after).toEqual(before);
  });

  it('refuses a link whose trusted-looking host is only userinfo with 422 naming the field', async () => {
    // Prepare
    const child = await registerCustomer(links);
    const before = await tenants.store.snapshot();

    // Act
    const response = await patchSettings(child.id, tenants.partner.apiKey, {
      aws_marketplace_offer_link: 'https://aws.amazon.com@evil.example/',
    });
    const after = await tenants.store.snapshot();

    // Assess
    expect(response.status).toBe(422);
    expect(response.body).toEqual(
      unprocessable({
        aws_marketplace_offer_link: ['must not carry a user name or password (userinfo) before the host'],
      }),
    );
    expect(after).toEqual(before);
  });
});

describe('partner settings updated concurrently (#11)', () => {
  it('applies every update: concurrent updates of different links all answer 200 and all stick', async () => {
    // Prepare
    const child = await registerCustomer(links);
    const fields = Object.keys(links) as (keyof typeof links)[];
    const updates = fields.map((field, index) => ({ field, link: `${links[field]}-update-${index}` }));

    // Act
    const responses = await Promise.all(
      updates.map(({ field, link }) => patchSettings(child.id, tenants.partner.apiKey, { [field]: link })),
    );
    const stored = itemAt(await tenants.store.snapshot(), orgKey(child.id));

    // Assess
    expect(responses.map((response) => response.status)).toEqual(updates.map(() => 200));
    const storedLinks = stored?.offerLinks as Record<string, string>;
    for (const { field, link } of updates) {
      expect(storedLinks[field.replace('_marketplace_offer_link', '')], field).toBe(link);
    }
  });
});

describe('the OpenAPI document', () => {
  // Declared last, it runs last: it reads what every test before it was answered.
  itDocumentsEveryStatusAnswered(tenants.answered, 1);
});
