import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Mailer } from '../shared/app/ports';

/** A mail as the local outbox keeps it: one JSON file per mail. */
export interface OutboxMail {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly sent_at: string;
}

/**
 * The local Mailer: writes each mail to `<dir>/outbox/<time>-<id>.json` (owner-only: sign-in
 * codes are secrets) and prints one line naming the file, so a developer signs in without SES.
 */
export function outboxMailer(
  dir: string,
  options: { readonly delayMs?: number; readonly log?: (line: string) => void } = {},
): Mailer {
  const { delayMs = 0, log = console.log } = options;
  const outbox = join(dir, 'outbox');
  return {
    async send(message) {
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      const sentAt = new Date().toISOString();
      await mkdir(outbox, { recursive: true, mode: 0o700 });
      const path = join(outbox, `${sentAt.replace(/[:.]/g, '-')}-${randomUUID()}.json`);
      const mail: OutboxMail = {
        to: message.to,
        subject: message.subject,
        text: message.text,
        sent_at: sentAt,
      };
      await writeFile(path, `${JSON.stringify(mail, null, 2)}\n`, { mode: 0o600 });
      log(`Mail to ${message.to}: "${message.subject}" (${path})`);
    },
  };
}
