/**
 * A Secrets Manager secret's string, read on first use and kept for the container; a failed read
 * is tried again next time. The client loads with the first read: the routes of a function that
 * never read the secret do not evaluate it. It asks the region the ARN names, where the secret is.
 */
export function secretsManagerSecret(secretArn: string): () => Promise<string> {
  const region = regionInArn(secretArn);
  let value: Promise<string> | undefined;
  return () => {
    value ??= import('@aws-sdk/client-secrets-manager').then(async (sm) => {
      const client = new sm.SecretsManagerClient({ region });
      const answer = await client.send(new sm.GetSecretValueCommand({ SecretId: secretArn }));
      if (!answer.SecretString) throw new Error(`The secret ${secretArn} has no string value`);
      return answer.SecretString;
    });
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
