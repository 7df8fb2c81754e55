import { describe, expect, it } from 'vitest';
import { TenantSignInError } from '../../../shared/domain/onboarding/tenant-sign-in-error';
import { consentCallbackUrl, onboardingFromEnvironment } from '../../../shared/runtime/onboarding';
import { azureConsentFromEnvironment } from '../../../shared/runtime/onboarding-azure-consent';

const environment = {
  SERVICE_AWS_ACCOUNT_ID: '111122223333',
  CONSENT_STATE_SECRET_ARN: 'arn:aws:secretsmanager:us-east-1:111122223333:secret:consent-AbCdEf',
  PUBLIC_API_URL: 'https://api.example/prod',
  AZURE_CLIENT_ID: '0f8fad5b-d9cb-469f-a165-70867728950e',
};
const signInRequest = {
  tenantId: 'contoso.onmicrosoft.com',
  redirectUri: 'https://api.example/cb',
  state: 's',
};

describe('the consent callback function on AWS', () => {
  it("refuses to start without the onboarding function's settings", () => {
    expect(() => azureConsentFromEnvironment({ ...environment, PUBLIC_API_URL: undefined })).toThrow(
      /PUBLIC_API_URL is not set/,
    );
    expect(() =>
      azureConsentFromEnvironment({ ...environment, CONSENT_STATE_SECRET_ARN: undefined }),
    ).toThrow(/CONSENT_STATE_SECRET_ARN is not set/);
  });

  it('answers at the callback URL the onboarding function puts in its links (their redirect_uri)', () => {
    expect(consentCallbackUrl(azureConsentFromEnvironment(environment))).toBe(
      consentCallbackUrl(onboardingFromEnvironment(environment)),
    );
  });

  it("refuses every sign-in, saying why, without the application's client secret", async () => {
    // Act
    const { tenantSignIn } = azureConsentFromEnvironment(environment);
    const begun = tenantSignIn.begin(signInRequest);

    // Assess
    await expect(begun).rejects.toBeInstanceOf(TenantSignInError);
    await expect(begun).rejects.toMatchObject({
      code: 'identity_platform_unavailable',
      message: expect.stringContaining('AZURE_CLIENT_SECRET_ARN'),
    });
  });
});
