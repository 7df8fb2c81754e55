import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** The headers of every request a client sends from now on, as they leave it: signed. */
export function recordSentHeaders(client: DynamoDBDocumentClient | DynamoDBClient): Record<string, string>[] {
  const sent: Record<string, string>[] = [];
  const record =
    <Args extends { request: unknown }, Result>(next: (args: Args) => Promise<Result>) =>
    async (args: Args) => {
      sent.push({ ...(args.request as { headers: Record<string, string> }).headers });
      return next(args);
    };
  // The deserialize step comes last, after signing: it sees the request as it is sent.
  client.middlewareStack.add(record, { step: 'deserialize', name: 'recordSentHeaders' });
  return sent;
}
