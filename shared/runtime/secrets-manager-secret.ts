import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

/**
 * A Secrets Manager secret's string, read on first use and kept for the container; a failed read
 * is tried again next time. It asks the region the ARN names, where the secret is. The client is
 * created with the first read, and imported statically by name: loaded through a dynamic
 * `import()` it was bundled whole, and its lazily initialized modules made the function's init
 * slower, not faster (figures: docs/benchmarks.md, Cold start).
 */
export function secretsManagerSecret(secretArn: string): () => Promise<string> {
  const region = regionInArn(secretArn);
  let value: Promise<string> | undefined;
  return () => {
    value ??= (async () => {
      const client = new SecretsManagerClient({ region });
      const answer = await client.send(new GetSecretValueCommand({ SecretId: secretArn }));
      if (!answer.SecretString) throw new Error(`The secret ${secretArn} has no string value`);
      return answer.SecretString;
    })();
    value.catch(() => {
      value = undefined;
    });
    return value;
  };
}

/** The region field of an ARN (`arn:aws:secretsmanager:eu-west-1:123456789012:secret:name`). */
export function regionInArn(arn: string): string {
  const region = arn.split(':')[3];
  if (!arn.startsWith('arn:') || !region) throw new Error(`Not an ARN with a region: ${arn}`);
  return region;
}
