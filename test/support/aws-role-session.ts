import { AssumeRoleCommand, STSClient } from '@aws-sdk/nested-clients/sts';
import { mockClient } from 'aws-sdk-client-mock';
import { type AwsClientFactory, awsSdkProbe, sdkClients } from '../../shared/cloud/verifiers/aws-sdk-probe';
import type { AwsAccountSession } from '../../shared/cloud/verifiers/aws-verification';

/**
 * The customer's role as the wire tests assume it: STS (the client `fromTemporaryCredentials`
 * calls) mocked to hand out these credentials, then the AWS adapter's session with the clients a
 * test points at its local server.
 */
export const roleCredentials = {
  accessKeyId: 'ASIAROLE',
  secretAccessKey: 'role-secret',
  sessionToken: 'role-session-token',
} as const;

/** Mocks STS; call `reset` before each test, `restore` after all. */
export function mockedRoleSts(): { readonly reset: () => void; readonly restore: () => void } {
  const stub = mockClient(STSClient);
  return {
    reset() {
      stub.reset();
      stub.on(AssumeRoleCommand).resolves({
        Credentials: {
          AccessKeyId: roleCredentials.accessKeyId,
          SecretAccessKey: roleCredentials.secretAccessKey,
          SessionToken: roleCredentials.sessionToken,
          Expiration: new Date(Date.now() + 3_600_000),
        },
      });
    },
    restore: () => stub.restore(),
  };
}

/** The adapter's session in the role, with the given clients in place of the SDK's defaults. */
export function roleSessionWith(clients: Partial<AwsClientFactory>): Promise<AwsAccountSession> {
  return awsSdkProbe({ region: 'eu-west-1', clients: { ...sdkClients, ...clients } }).assumeRole({
    accountId: '444455556666',
    roleArn: 'arn:aws:iam::444455556666:role/commitment-planning-purchaser',
    externalId: 'cpo-0123456789abcdef0123456789abcdef',
    existingCur: null,
  });
}
