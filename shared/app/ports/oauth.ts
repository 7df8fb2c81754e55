import type {
  AuthorizationCode,
  AuthorizationRequest,
  OAuthClient,
  RefreshToken,
  SignInCode,
  SignInSession,
  TokenFamily,
} from '../../domain/oauth/records';

/**
 * Ports of the authorization server (docs/oauth.md, docs/data-model.md), split by the function that
 * uses them: the registration function owns the clients, the sign-in function the requests,
 * sessions and one-time codes, the token function the grants (codes, token families, refresh
 * tokens); each function builds only its own repository. Single-use items (codes, refresh tokens)
 * are spent with one conditional write, so two concurrent uses cannot both succeed.
 */

/** What exchanging a code or rotating a refresh token found: the first use, a second one, or nothing. */
export type SingleUse<T> =
  | { readonly kind: 'first'; readonly item: T }
  | { readonly kind: 'again'; readonly item: T }
  | { readonly kind: 'unknown' };

/** Reads a registered client: signing in and authenticating at the token endpoint both check it. */
export interface OAuthClientLookup {
  getClient(clientId: string): Promise<OAuthClient | null>;
}

/** Fixed-window counters, one item per window (`bucket` names its window). */
export interface RateEventCounter {
  /**
   * Counts one event in the fixed window `bucket`, expiring at `expiresAt`: false, counting
   * nothing, once `limit` events were counted.
   */
  countRateEvent(bucket: string, limit: number, expiresAt: string): Promise<boolean>;
}

/** The clients: registered by anyone (throttled per address) or by operators, listed and revoked by operators. */
export interface OAuthClientRepository extends OAuthClientLookup, RateEventCounter {
  /** A ConflictError when the client id exists already. */
  createClient(client: OAuthClient): Promise<void>;
  listClients(): Promise<OAuthClient[]>;
  /** Marks the client revoked (the first time is kept); a NotFoundError for an unknown client. */
  revokeClient(clientId: string, at: string): Promise<OAuthClient>;
}

/** Signing in: the pending requests, the browser sessions, the one-time codes and the codes issued. */
export interface SignInRepository extends OAuthClientLookup, RateEventCounter {
  putRequest(request: AuthorizationRequest): Promise<void>;
  getRequest(requestId: string): Promise<AuthorizationRequest | null>;
  /** Deletes the request; false when it was gone already (another tab finished it). */
  takeRequest(requestId: string): Promise<boolean>;

  putSession(session: SignInSession): Promise<void>;
  getSession(sessionHash: string): Promise<SignInSession | null>;
  deleteSession(sessionHash: string): Promise<void>;

  /** Stores the request's one-time code, replacing an earlier one (and its attempt count). */
  putSignInCode(code: SignInCode): Promise<void>;
  getSignInCode(requestId: string): Promise<SignInCode | null>;
  /** Counts one attempt at the code; false, counting nothing, once `maxAttempts` were made. */
  countSignInAttempt(requestId: string, maxAttempts: number): Promise<boolean>;
  deleteSignInCode(requestId: string): Promise<void>;

  /**
   * Counts one event in the window `bucket` when it is open: `wait` while the delay the last event
   * set has not passed (or another event is being counted at the same moment), `capped` once
   * `pacing.limit` events were counted; each counted event sets the next delay from the number
   * counted before it. `refundPacedEvent` takes one back (a check that found the right code).
   */
  countPacedEvent(bucket: string, pacing: EventPacing): Promise<'counted' | 'wait' | 'capped'>;
  refundPacedEvent(bucket: string): Promise<void>;

  /** Stores the authorization code the consent issued (the token function spends it). */
  putCode(code: AuthorizationCode): Promise<void>;
}

/**
 * The grants: authorization codes spent, token families and their refresh tokens. Operators
 * revoke families too (a client's, a user's).
 */
export interface OAuthGrantRepository extends OAuthClientLookup {
  /** Spends the code: `first` exactly once, `again` on every later exchange (a replay). */
  spendCode(codeHash: string, at: string): Promise<SingleUse<AuthorizationCode>>;

  /** Creates the family; false when it exists already (revoked before it was created: a replay). */
  createFamily(family: TokenFamily): Promise<boolean>;
  getFamily(familyId: string): Promise<TokenFamily | null>;
  /** Marks the family revoked, creating a revoked marker if it does not exist yet. */
  revokeFamily(familyId: string, at: string): Promise<void>;
  familiesOfUser(email: string): Promise<TokenFamily[]>;
  familyIdsOfClient(clientId: string): Promise<string[]>;

  putRefreshToken(token: RefreshToken): Promise<void>;
  getRefreshToken(tokenHash: string): Promise<RefreshToken | null>;
  /** Spends the refresh token: `first` exactly once, `again` on every later use (a reuse). */
  spendRefreshToken(tokenHash: string, at: string): Promise<SingleUse<RefreshToken>>;
}

/** How `countPacedEvent` paces a bucket's events. */
export interface EventPacing {
  readonly limit: number;
  readonly now: Date;
  /** Seconds until the next event may be counted, given the events counted before this one. */
  readonly delaySeconds: (eventsBefore: number) => number;
  /** When the window, and so the bucket, ends. */
  readonly expiresAt: string;
}

/** One e-mail to send. */
export interface MailMessage {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
}

/** Sends e-mail: SES v2 on AWS; locally a JSON file per mail under `.local/outbox/`. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}
