import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { secretsManagerSecret } from '../../../shared/runtime/secrets-manager-secret';

const secrets = mockClient(SecretsManagerClient);
const arn = 'arn:aws:secretsmanager:eu-central-1:123456789012:secret:azure-client-AbCdEf';

afterEach(() => {
  secrets.reset();
});

afterAll(() => {
  secrets.restore();
});

describe('a Secrets Manager secret', () => {
  it('is read once, in the region its ARN names, and kept', async () => {
    // Prepare: a store that answers the secret it holds for the ARN, nothing else.
    const stored = new Map([[arn, 'client-secret-1']]);
    secrets.on(GetSecretValueCommand).callsFake(async (input: { SecretId: string }) => ({
      SecretString: stored.get(input.SecretId),
    }));
    const secret = secretsManagerSecret(arn);

    // Act
    const first = await secret();
    const second = await secret();

    // Assess
    expect([first, second]).toEqual(['client-secret-1', 'client-secret-1']);
    const calls = secrets.commandCalls(GetSecretValueCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.args[0].input).toEqual({ SecretId: arn });
    const client = calls[0]?.thisValue as SecretsManagerClient;
    expect(await client.config.region()).toBe('eu-central-1');
  });

  it('is read again after a failed read, which it does not keep', async () => {
    // Prepare
    secrets.on(GetSecretValueCommand).rejectsOnce(new Error('throttled')).resolves({ SecretString: 'later' });
    const secret = secretsManagerSecret(arn);

    // Act
    const failed = secret();

    // Assess
    await expect(failed).rejects.toThrow('throttled');
    expect(await secret()).toBe('later');
    expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(2);
  });

  it('refuses a secret without a string value, naming it', async () => {
    // Prepare
    secrets.on(GetSecretValueCommand).resolves({ SecretBinary: new Uint8Array([1]) });

    // Act
    const read = secretsManagerSecret(arn)();

    // Assess
    await expect(read).rejects.toThrow(`The secret ${arn} has no string value`);
  });
});
