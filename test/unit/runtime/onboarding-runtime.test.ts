import { describe, expect, it } from 'vitest';
import { consentCallbackUrl, onboardingFromEnvironment } from '../../../shared/runtime/onboarding';

const environment = {
  SERVICE_AWS_ACCOUNT_ID: '111122223333',
  CONSENT_STATE_SECRET_ARN: 'arn:aws:secretsmanager:us-east-1:111122223333:secret:consent-AbCdEf',
};

describe('the onboarding function on AWS', () => {
  it('refuses to start without PUBLIC_API_URL, saying what it is for', () => {
    expect(() => onboardingFromEnvironment(environment)).toThrow(
      /PUBLIC_API_URL is not set: .*consent callback/,
    );
  });

  it('refuses a PUBLIC_API_URL that is not https', () => {
    expect(() => onboardingFromEnvironment({ ...environment, PUBLIC_API_URL: 'http://api.example' })).toThrow(
      /must be an https URL/,
    );
  });

  it('puts the consent callback under PUBLIC_API_URL', () => {
    const runtime = onboardingFromEnvironment({
      ...environment,
      PUBLIC_API_URL: 'https://api.example/prod/',
    });
    expect(consentCallbackUrl(runtime)).toBe('https://api.example/prod/v2/onboarding/azure/callback');
  });
});
