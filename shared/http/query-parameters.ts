import type {
  APIGatewayProxyEventMultiValueQueryStringParameters,
  APIGatewayProxyEventQueryStringParameters,
} from 'aws-lambda';

/** Query parameters as schemas see them: a key given once is a string, a repeated key a string array. */
export type QueryValues = Record<string, string | string[]>;

/**
 * Merges API Gateway's two views of the query string. The multi-value view is complete (it keeps
 * every repetition); the single-value view only fills in keys the other lacks. Built with
 * Object.fromEntries so that a key such as `__proto__` stays a plain key.
 */
export function mergeQueryParameters(
  single: APIGatewayProxyEventQueryStringParameters | null | undefined,
  multi: APIGatewayProxyEventMultiValueQueryStringParameters | null | undefined,
): QueryValues {
  const merged = new Map<string, string | string[]>();
  for (const [key, value] of Object.entries(single ?? {})) {
    if (value !== undefined) {
      merged.set(key, value);
    }
  }
  for (const [key, values] of Object.entries(multi ?? {})) {
    const [first, ...rest] = values ?? [];
    if (first !== undefined) {
      merged.set(key, rest.length === 0 ? first : [first, ...rest]);
    }
  }
  return Object.fromEntries(merged);
}
