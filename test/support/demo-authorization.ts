import { demoOAuthClient } from '../../local/demo-seed';

/**
 * A new authorization request of the demo OAuth client (its loopback redirect, `plans:read`, a
 * fixed PKCE challenge): the URL a browser opens to reach the sign-in page.
 */
export function demoAuthorizationUrl(baseUrl: string): URL {
  const url = new URL(`${baseUrl}/oauth/authorize`);
  url.search = String(
    new URLSearchParams({
      client_id: demoOAuthClient.clientId,
      redirect_uri: demoOAuthClient.redirectUri,
      response_type: 'code',
      scope: 'plans:read',
      state: 'st',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    }),
  );
  return url;
}
