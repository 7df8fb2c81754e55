/** A response of the API as the tests look at it: the JSON body parsed, other bodies as text. */
export interface ApiResponse {
  readonly status: number;
  readonly headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests assert the shape of what the API answered
  readonly body: any;
}

export interface ApiRequest {
  readonly method?: string;
  /** Sent as `x-api-key`. */
  readonly apiKey?: string;
  /** Sent as JSON with `Content-Type: application/json`. */
  readonly json?: unknown;
  /** Sent as it is, with the headers given (for bodies that are not JSON, or not valid). */
  readonly body?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** Calls the API over HTTP with fetch, as any client would. */
export async function callApi(baseUrl: string, path: string, request: ApiRequest = {}): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...request.headers };
  if (request.apiKey !== undefined) headers['x-api-key'] = request.apiKey;
  let body = request.body;
  if (request.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(request.json);
  }
  const response = await fetch(new URL(path, baseUrl), { method: request.method ?? 'GET', headers, body });
  const text = await response.text();
  const isJson = response.headers.get('content-type')?.startsWith('application/json') ?? false;
  return { status: response.status, headers: response.headers, body: isJson ? JSON.parse(text) : text };
}
