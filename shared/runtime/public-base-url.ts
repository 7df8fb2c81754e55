import { installable } from './installable';

/**
 * The API's base URL as clients call it, without a trailing slash (the OAuth issuer): on Lambda
 * `ISSUER_URL`, which the API stack gives every function; the local server installs its own.
 * For what names the deployment without signing anything (the OpenAPI document's `servers`).
 */
const baseUrl = installable(() => {
  const configured = process.env.ISSUER_URL;
  if (!configured)
    throw new Error("ISSUER_URL is not set: the API's base URL, the OpenAPI document's server");
  return configured.replace(/\/+$/, '');
});

export const installPublicBaseUrl = baseUrl.install;
export const publicBaseUrl = baseUrl.get;
