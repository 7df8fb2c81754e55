import type { APIGatewayProxyEvent } from 'aws-lambda';
import { PayloadTooLargeError } from '../domain/errors';

/** The largest request body the service reads, measured on the decoded bytes (256 KiB). */
export const maxRequestBodyBytes = 262_144;

export function bodyTooLargeError(maxBytes: number = maxRequestBodyBytes): PayloadTooLargeError {
  return new PayloadTooLargeError(`The request body is larger than ${maxBytes} bytes.`);
}

/** Methods whose request body the service reads; other methods' bodies are ignored. */
const methodsWithBody: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH']);

type BodyEvent = Pick<APIGatewayProxyEvent, 'httpMethod' | 'body' | 'isBase64Encoded'>;

/** Whether requests of `method` carry a body the service reads (POST, PUT, PATCH). */
export function methodReadsBody(method: string): boolean {
  return methodsWithBody.has(method.toUpperCase());
}

/** Whether the request carries a body the service reads: a non-empty body on POST, PUT or PATCH. */
export function hasReadableBody(event: BodyEvent): boolean {
  return methodReadsBody(event.httpMethod) && typeof event.body === 'string' && event.body !== '';
}

export function decodedBodyByteLength(event: BodyEvent): number {
  if (!event.body) {
    return 0;
  }
  return Buffer.byteLength(event.body, event.isBase64Encoded ? 'base64' : 'utf8');
}

export function decodedBodyText(event: BodyEvent): string {
  if (!event.body) {
    return '';
  }
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
}
