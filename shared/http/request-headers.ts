import type { APIGatewayProxyEventHeaders } from 'aws-lambda';

/**
 * API Gateway REST passes header names as the client wrote them, so every lookup here is
 * case-insensitive; handlers get the headers with lower-cased names.
 */
export function lowerCaseHeaders(
  headers: APIGatewayProxyEventHeaders | null | undefined,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers ?? {}).flatMap(([name, value]) =>
      value === undefined ? [] : [[name.toLowerCase(), value] as const],
    ),
  );
}

export function headerValue(
  headers: APIGatewayProxyEventHeaders | null | undefined,
  name: string,
): string | undefined {
  const wanted = name.toLowerCase();
  for (const [candidate, value] of Object.entries(headers ?? {})) {
    if (candidate.toLowerCase() === wanted && value !== undefined) {
      return value;
    }
  }
  return undefined;
}
