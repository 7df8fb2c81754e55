import { describe, expect, it } from 'vitest';
import { azureVerifierFromEnvironment } from '../../../shared/runtime/onboarding-azure-verify';
import { provenConsent } from '../../support/proven-consent';

describe("the Azure verification function's verifier", () => {
  it('answers every check unknown, saying what is not configured, without the Entra application', async () => {
    // Prepare: a deployment without context azureClientId / azureClientSecretArn.
    const verifier = azureVerifierFromEnvironment({ AWS_REGION: 'eu-west-1', AZURE_CLIENT_ID: 'app' });

    // Act
    const items = await verifier.verifyAzure({
      tenantId: 'contoso.onmicrosoft.com',
      subscriptionId: '0d6a1c2e-3b4f-4a5d-8e9f-112233445566',
      consent: provenConsent('contoso.onmicrosoft.com'),
    });

    // Assess
    expect(items[0]).toMatchObject({ feature: 'admin_consent', status: 'unknown' });
    expect(items[0]?.detail).toContain('AZURE_CLIENT_SECRET_ARN');
    expect(items.slice(1).every((item) => item.status === 'unknown')).toBe(true);
  });
});
