import {
  GetPublicKeyCommand,
  type GetPublicKeyCommandOutput,
  type KMSClient,
  NotFoundException,
  SignCommand,
} from '@aws-sdk/client-kms';
import { derToJoseSignature } from './der-signature';
import { publicJwkFromSpki } from './public-jwk';
import type { PublicJwk, Signer, SigningKey } from './signer';

export interface KmsSignerOptions {
  readonly client: KMSClient;
  /** The alias of the key that signs now, e.g. `alias/commitment-planning/oauth-signing`. */
  readonly currentAlias: string;
  /**
   * The alias of the key that signed before the last rotation: still published, so tokens it
   * signed verify until they expire. Absent, or an alias that does not exist: none.
   */
  readonly previousAlias?: string;
  /**
   * How long an alias's key is remembered. A rotation (alias swap) reaches a warm process after
   * at most this long; until then it keeps signing with the key it resolved, which stays valid
   * (the previous key is published). @default 300 000 (5 minutes)
   */
  readonly aliasCacheMs?: number;
  readonly nowMs?: () => number;
}

/** A KMS key an alias points to: its ARN and its public key. */
interface ResolvedKey {
  readonly keyArn: string;
  readonly jwk: PublicJwk;
}

const defaultAliasCacheMs = 300_000;

/**
 * The Signer on AWS KMS: an asymmetric `ECC_NIST_P256` key signs `ECDSA_SHA_256` over the raw
 * signing input (MessageType RAW: KMS hashes it), and its DER signature is converted to JOSE's
 * `r || s`. Keys are named by alias; each alias is resolved with GetPublicKey, which answers the
 * key's ARN with its public key, and the process signs with that ARN, so the `kid` it puts in a
 * header is always the thumbprint of the key that signed, even while an alias swaps. Public keys
 * are cached per process: a verifier never calls KMS per request.
 */
export function createKmsSigner(options: KmsSignerOptions): Signer {
  const { client, currentAlias, previousAlias } = options;
  const aliasCacheMs = options.aliasCacheMs ?? defaultAliasCacheMs;
  const nowMs = options.nowMs ?? Date.now;
  const resolved = new Map<string, { readonly key: Promise<ResolvedKey | null>; readonly atMs: number }>();
  // A key's public key never changes: kept for the life of the process, by ARN.
  const jwkByArn = new Map<string, Promise<PublicJwk>>();

  const fetchKey = async (alias: string, optional: boolean): Promise<ResolvedKey | null> => {
    let answer: GetPublicKeyCommandOutput;
    try {
      answer = await client.send(new GetPublicKeyCommand({ KeyId: alias }));
    } catch (error) {
      if (optional && error instanceof NotFoundException) return null;
      throw error;
    }
    const { KeyId: keyArn, KeySpec, KeyUsage, SigningAlgorithms, PublicKey } = answer;
    if (
      !keyArn ||
      !PublicKey ||
      KeySpec !== 'ECC_NIST_P256' ||
      KeyUsage !== 'SIGN_VERIFY' ||
      !SigningAlgorithms?.includes('ECDSA_SHA_256')
    ) {
      throw new Error(`KMS key ${alias} is not an ECC_NIST_P256 SIGN_VERIFY key for ECDSA_SHA_256`);
    }
    let jwk = jwkByArn.get(keyArn);
    if (!jwk) {
      jwk = publicJwkFromSpki(PublicKey);
      jwkByArn.set(keyArn, jwk);
    }
    return { keyArn, jwk: await jwk };
  };

  const resolve = (alias: string, optional: boolean): Promise<ResolvedKey | null> => {
    const cached = resolved.get(alias);
    if (cached && nowMs() - cached.atMs < aliasCacheMs) return cached.key;
    const key = fetchKey(alias, optional);
    resolved.set(alias, { key, atMs: nowMs() });
    // A failure is not remembered: the next call asks KMS again.
    key.catch(() => {
      if (resolved.get(alias)?.key === key) resolved.delete(alias);
    });
    return key;
  };

  const current = async (): Promise<ResolvedKey> => {
    const key = await resolve(currentAlias, false);
    if (!key) throw new Error(`KMS alias ${currentAlias} names no key`);
    return key;
  };

  return {
    async signingKey(): Promise<SigningKey> {
      const { keyArn, jwk } = await current();
      return {
        kid: jwk.kid,
        async sign(signingInput) {
          const { Signature } = await client.send(
            new SignCommand({
              KeyId: keyArn,
              Message: signingInput,
              MessageType: 'RAW',
              SigningAlgorithm: 'ECDSA_SHA_256',
            }),
          );
          if (!Signature) throw new Error(`KMS answered no signature for key ${keyArn}`);
          return derToJoseSignature(Signature);
        },
      };
    },

    async publicKeys() {
      const [now, before] = await Promise.all([
        current(),
        previousAlias ? resolve(previousAlias, true) : Promise.resolve(null),
      ]);
      // Right after a swap, or before the first rotation, both aliases may name one key.
      return before && before.jwk.kid !== now.jwk.kid ? [now.jwk, before.jwk] : [now.jwk];
    },
  };
}
