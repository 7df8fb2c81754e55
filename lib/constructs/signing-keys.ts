import { RemovalPolicy } from 'aws-cdk-lib';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import { Alias, Key, KeySpec, KeyUsage } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';

export interface SigningKeysProps {
  /** Alias names are `alias/<aliasPrefix>/oauth-signing` and `.../oauth-signing-previous`. */
  readonly aliasPrefix: string;
  /**
   * The key generations, oldest first: one KMS key each. The last signs (the current alias); the
   * one before it is still published (the previous alias) so tokens it signed verify until they
   * expire. Rotating is appending a generation and deploying; dropping the oldest, once no token
   * it signed is unexpired, schedules nothing: keys are retained, to be deleted by an operator.
   * @default ['1']
   */
  readonly generations?: readonly string[];
}

/**
 * The access tokens' signing keys (docs/oauth.md): asymmetric KMS keys (ECC_NIST_P256, SIGN_VERIFY)
 * whose private halves never leave KMS, named by two aliases. Grants are per key, so a function
 * may sign (`grantSign`) or only read public keys (`grantPublicKeys`).
 */
export class SigningKeys extends Construct {
  readonly currentAliasName: string;
  readonly previousAliasName: string;
  private readonly keys: readonly Key[];

  constructor(scope: Construct, id: string, props: SigningKeysProps) {
    super(scope, id);
    const generations = props.generations ?? ['1'];
    if (generations.length === 0 || new Set(generations).size !== generations.length) {
      throw new Error('SigningKeys: generations must be distinct, and at least one');
    }
    this.currentAliasName = `alias/${props.aliasPrefix}/oauth-signing`;
    this.previousAliasName = `alias/${props.aliasPrefix}/oauth-signing-previous`;
    // The two newest only: older generations are no longer published, nor granted to anyone.
    this.keys = generations.slice(-2).map(
      (generation) =>
        new Key(this, `Key${generation}`, {
          description: `Signs OAuth access tokens (ES256), generation ${generation}`,
          keySpec: KeySpec.ECC_NIST_P256,
          keyUsage: KeyUsage.SIGN_VERIFY,
          // A deleted key would make its unexpired tokens unverifiable; deletion is an operator's act.
          removalPolicy: RemovalPolicy.RETAIN,
        }),
    );
    const current = this.keys[this.keys.length - 1] as Key;
    new Alias(this, 'CurrentAlias', { aliasName: this.currentAliasName, targetKey: current });
    // Before the first rotation the previous alias names the current key: published once.
    const previous = this.keys.length > 1 ? (this.keys[0] as Key) : current;
    new Alias(this, 'PreviousAlias', { aliasName: this.previousAliasName, targetKey: previous });
  }

  /** kms:Sign on the current key, and its public key (its `kid`): the token-issuing function only. */
  grantSign(grantee: IGrantable): void {
    const current = this.keys[this.keys.length - 1] as Key;
    current.grant(grantee, 'kms:Sign');
    this.grantPublicKeys(grantee);
  }

  /** kms:GetPublicKey on the published keys: the JWKS function and the authorizer. */
  grantPublicKeys(grantee: IGrantable): void {
    for (const key of this.keys) key.grant(grantee, 'kms:GetPublicKey');
  }

  /** The environment the functions read (shared/runtime/oauth-keys.ts). */
  environment(): Record<string, string> {
    return {
      SIGNING_KEY_ALIAS: this.currentAliasName,
      SIGNING_KEY_PREVIOUS_ALIAS: this.previousAliasName,
    };
  }
}
