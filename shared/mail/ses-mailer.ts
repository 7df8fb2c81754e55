import { type SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import type { Mailer } from '../app/ports';

/** The Mailer on AWS: SES v2, plain-text mail from a verified sender address. */
export function sesMailer(options: { readonly client: SESv2Client; readonly from: string }): Mailer {
  return {
    async send(message) {
      await options.client.send(
        new SendEmailCommand({
          FromEmailAddress: options.from,
          Destination: { ToAddresses: [message.to] },
          Content: {
            Simple: {
              Subject: { Data: message.subject, Charset: 'UTF-8' },
              Body: { Text: { Data: message.text, Charset: 'UTF-8' } },
            },
          },
        }),
      );
    },
  };
}
