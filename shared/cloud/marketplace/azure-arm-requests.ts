/**
 * ARM requests of the `azure` marketplace (docs/purchases.md, Azure): one call with the service's
 * app token in the customer's tenant, ARM's throttling answered as ARM asks (429 with
 * `Retry-After`, retried a bounded number of times), and ARM's errors
 * (`{"error":{"code","message"}}`) thrown as ArmError with the status and code.
 */

export interface ArmRequester {
  readonly endpoint: string;
  readonly token: string;
  readonly fetch: typeof fetch;
  /** Waits between throttled retries and polls (tests pass one that does not wait on the clock). */
  readonly sleep: (ms: number) => Promise<void>;
}

export interface ArmCall {
  readonly method: 'GET' | 'PUT' | 'POST';
  /** From `/providers/...`, without the query. */
  readonly path: string;
  readonly apiVersion: string;
  readonly query?: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

export interface ArmAnswer {
  readonly status: number;
  readonly body: Record<string, unknown>;
  /** Seconds ARM asks to wait before polling again (`Retry-After`); null: none given. */
  readonly retryAfterSeconds: number | null;
}

/** An ARM error answer: the HTTP status and ARM's code and message. */
export class ArmError extends Error {
  static code = 'ERR_ARM';
  readonly code = ArmError.code;
  constructor(
    readonly status: number,
    readonly armCode: string,
    message: string,
  ) {
    super(message);
    this.name = 'ArmError';
  }
}

/** Throttled retries of one call before it counts as refused (429 is answered before ARM acts). */
export const ARM_THROTTLE_RETRIES = 3;
/** The longest `Retry-After` waited for; a longer one is waited this long (the Lambda has 60 s). */
export const ARM_MAX_WAIT_SECONDS = 10;
const ARM_TIMEOUT_MS = 20_000;

export async function armRequest(arm: ArmRequester, call: ArmCall): Promise<ArmAnswer> {
  const query = new URLSearchParams({ 'api-version': call.apiVersion, ...call.query });
  const url = `${arm.endpoint}${call.path}?${query.toString()}`;
  for (let attempt = 0; ; attempt++) {
    const response = await arm.fetch(url, {
      method: call.method,
      headers: {
        authorization: `Bearer ${arm.token}`,
        accept: 'application/json',
        ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
      signal: AbortSignal.timeout(ARM_TIMEOUT_MS),
    });
    const text = await response.text();
    const body = (text ? safeJson(text) : {}) as Record<string, unknown>;
    const retryAfterSeconds = retryAfterOf(response.headers.get('retry-after'));
    if (response.status === 429 && attempt < ARM_THROTTLE_RETRIES) {
      await arm.sleep(Math.min(retryAfterSeconds ?? 1, ARM_MAX_WAIT_SECONDS) * 1000);
      continue;
    }
    if (response.status >= 400) {
      const error = (body.error ?? {}) as { code?: string; message?: string };
      throw new ArmError(
        response.status,
        error.code ?? (response.status === 429 ? 'TooManyRequests' : String(response.status)),
        error.message ?? `ARM answered ${response.status} to ${call.method} ${call.path}`,
      );
    }
    return { status: response.status, body, retryAfterSeconds };
  }
}

/** A GET that answers null for 404 (the resource does not exist). */
export async function armGetOrNull(
  arm: ArmRequester,
  path: string,
  apiVersion: string,
  query?: Readonly<Record<string, string>>,
): Promise<ArmAnswer | null> {
  try {
    return await armRequest(arm, { method: 'GET', path, apiVersion, ...(query ? { query } : {}) });
  } catch (error) {
    if (error instanceof ArmError && error.status === 404) return null;
    throw error;
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

function retryAfterOf(header: string | null): number | null {
  if (header === null) return null;
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : null;
}
