import type { Logger } from '@aws-lambda-powertools/logger';

/**
 * How long every answer to a code request takes at least (docs/oauth.md, "Sign-in"). The code's
 * mail is sent while the answer waits out this floor, never after: for members and non-members
 * alike the answer comes after the floor, whatever the mail service takes. The floor is well above
 * what the storage writes and a mail send take, so on Lambda (which freezes a function once it
 * answers) the mail has gone out before the answer leaves.
 */
export const codeRequestAnswerFloorMs = 1000;

/**
 * Waits until `floorMs` after `startedAtMs` (a `performance.now()` reading), and no longer: a
 * mail still being sent then goes on after the answer, its failure logged.
 */
export async function answerAfterFloor(
  startedAtMs: number,
  mailing: Promise<void> | null,
  logger: Pick<Logger, 'error'>,
  floorMs: number = codeRequestAnswerFloorMs,
): Promise<void> {
  mailing?.catch((error: unknown) => logger.error('the sign-in code mail was not sent', { error }));
  const remaining = startedAtMs + floorMs - performance.now();
  if (remaining > 0) await new Promise((resolve) => setTimeout(resolve, remaining));
}
