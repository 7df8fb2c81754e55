import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** The headers of every request a client sends from now on, as they leave it: signed. */
export function recordSentHeaders(client: DynamoDBDocumentClient): Record<string, string>[] {
  const sent: Record<string, string>[] = [];
  // The deserialize step comes last, after signing: it sees the request as it is sent.
  client.middlewareStack.add(
    (next) => async (args) => {
      sent.push({ ...(args.request as { headers: Record<string, string> }).headers });
      return next(args);
    },
    { step: 'deserialize', name: 'recordSentHeaders' },
  );
  return sent;
}
