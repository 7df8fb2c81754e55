import { onFirstUse } from './function-context';

/**
 * The API's base URL as clients call it on AWS, without a trailing slash (the OAuth issuer):
 * `ISSUER_URL`, which the API stack gives every function, read on the first use. For what names
 * the deployment without signing anything (the OpenAPI document's `servers`); the local server
 * hands its own base URL to the same factories.
 */
export const awsPublicBaseUrl = onFirstUse(() => {
  const configured = process.env.ISSUER_URL;
  if (!configured)
    throw new Error("ISSUER_URL is not set: the API's base URL, the OpenAPI document's server");
  return configured.replace(/\/+$/, '');
});
