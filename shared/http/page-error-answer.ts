import type { ErrorAnswer } from './error-handler';
import { errorPage, pageHeaders } from './html';

/**
 * The errors of the operations that answer browsers with pages (sign-in and consent, the Azure
 * consent callback): a page with the status's words and the message, under the pages' headers.
 */
export const pageErrorAnswer: ErrorAnswer = {
  respond: (_error, body) => ({
    statusCode: body.code,
    headers: { ...pageHeaders },
    body: errorPage(body.status, body.message),
  }),
};
