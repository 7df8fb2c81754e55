/**
 * Domain errors: typed, with a stable `code`, raised by use cases and domain rules and mapped to
 * HTTP statuses in one place (shared/http). Domain code never speaks HTTP itself.
 */
export type DomainErrorCode =
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'validation_failed'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'malformed_request'
  | 'too_many_requests';

export abstract class DomainError extends Error {
  abstract readonly code: DomainErrorCode;
  /** Field path -> messages, for errors that concern request fields. */
  readonly fields: Record<string, string[]>;

  constructor(message: string, fields: Record<string, string[]> = {}) {
    super(message);
    this.name = new.target.name;
    this.fields = fields;
  }
}

/** Credentials missing, unknown or revoked. */
export class UnauthenticatedError extends DomainError {
  readonly code = 'unauthenticated';
}

/** Authenticated, but the principal may not perform this operation. */
export class ForbiddenError extends DomainError {
  readonly code = 'forbidden';
}

/**
 * A Bearer token lacks the OAuth scope the operation needs, whatever the user's role allows
 * (403 with the RFC 6750 `insufficient_scope` challenge naming `scope`).
 */
export class InsufficientScopeError extends ForbiddenError {
  constructor(readonly scope: string) {
    super(`This operation needs the scope ${scope}.`);
  }
}

/** Unknown object, or one that belongs to another tenant (never confirm it exists). */
export class NotFoundError extends DomainError {
  readonly code = 'not_found';
}

/** The request conflicts with the stored state (duplicate name, wrong status). */
export class ConflictError extends DomainError {
  readonly code = 'conflict';
}

/**
 * Why a plan cannot be applied, as a stable code clients branch on (docs/http.md, Reasons): a
 * sibling of the same computation was applied, the plan was computed before the org's inputs
 * last changed, or the purchases would pass the org's upfront cap.
 */
export type ConflictReason = 'plan_sibling_applied' | 'plan_outdated' | 'max_upfront_cost_exceeded';

/** A conflict with a stable `reason`; `successorPlanId` names the plan to apply instead, when known. */
export class ReasonedConflictError extends ConflictError {
  constructor(
    readonly reason: ConflictReason,
    message: string,
    readonly successorPlanId: string | null = null,
  ) {
    super(message);
  }
}

/** The request is well-formed but its values are not acceptable; `fields` names each one. */
export class ValidationError extends DomainError {
  readonly code = 'validation_failed';
}

/** The body could not be read as the declared content: malformed JSON, missing body. */
export class MalformedRequestError extends DomainError {
  readonly code = 'malformed_request';
}

/**
 * The caller asked more often than a limit allows (a rate the service keeps itself);
 * `retryAfterSeconds` is when the limit lets it in again (answered as `Retry-After`).
 */
export class TooManyRequestsError extends DomainError {
  readonly code = 'too_many_requests';
  readonly retryAfterSeconds: number;

  constructor(message: string, retryAfterSeconds = 1) {
    super(message);
    this.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterSeconds));
  }
}

export class PayloadTooLargeError extends DomainError {
  readonly code = 'payload_too_large';
}

export class UnsupportedMediaTypeError extends DomainError {
  readonly code = 'unsupported_media_type';
}
