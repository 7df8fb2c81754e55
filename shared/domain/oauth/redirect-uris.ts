/**
 * Redirect URIs (RFC 9700 §2.1, RFC 8252 §7): registered URIs are matched exactly, except the
 * port of an http loopback URI, which native apps choose when they start listening.
 */

const loopbackHosts: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Why a redirect URI may not be registered; null when it may. */
export function redirectUriProblem(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'must be an absolute URI';
  }
  if (url.hash !== '' || uri.includes('#')) return 'must not have a fragment';
  if (url.username !== '' || url.password !== '') return 'must not carry credentials';
  if ((url.protocol === 'https:' || url.protocol === 'http:') && !writtenPortIsValid(uri)) {
    return 'must have no port, or a port from 1 to 65535 written without leading zeros';
  }
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:') {
    return isLoopback(url)
      ? null
      : 'must use https, except on a loopback address (127.0.0.1, [::1], localhost)';
  }
  // A private-use scheme of a native app (RFC 8252 §7.1): a domain name of the app's in reverse
  // order, such as `com.example.app:/callback`. Schemes without a dot are the browsers' and the
  // systems' own (`intent:`, `mailto:`, `view-source:`, `chrome-extension:`, `javascript:`...).
  if (!privateUseScheme.test(url.protocol)) {
    return 'must use https, http on a loopback address, or a private-use scheme named after a reverse domain (com.example.app:/callback)';
  }
  return null;
}

/**
 * The port as written in an http(s) URI: none, or 1 to 65535 without leading zeros. Checked on
 * the text, since the URL parser reads `:08765` as 8765 and `:0` as a port, and a loopback
 * request's port is compared as written (matchesRegisteredRedirect).
 */
function writtenPortIsValid(uri: string): boolean {
  const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(uri)?.[1] ?? '';
  const port = /:([^:\]]*)$/.exec(authority)?.[1];
  return port === undefined || isPortNumber(port);
}

function isPortNumber(port: string): boolean {
  return /^[1-9][0-9]{0,4}$/.test(port) && Number(port) <= 65535;
}

/** A reverse domain name as a URI scheme (`com.example.app:`): two labels at least. */
const privateUseScheme = /^[a-z][a-z0-9-]*(\.[a-z0-9-]+)+:$/i;

function isLoopback(url: URL): boolean {
  return url.protocol === 'http:' && loopbackHosts.has(url.hostname);
}

/**
 * An http loopback URI as written: its host and what follows its port. Matching the written text
 * rather than a parsed URL keeps the comparison exact (parsing would fold case and dot segments).
 */
const loopbackText = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(?::(\d+))?([/?][^#]*)?$/;

/**
 * Whether `requested` is one of the `registered` URIs: byte for byte, or, for an http loopback
 * URI, equal in everything but the port (RFC 8252 §7.3). No other normalization: a trailing
 * slash, a case change or an extra query parameter is another URI.
 */
export function matchesRegisteredRedirect(registered: readonly string[], requested: string): boolean {
  if (registered.includes(requested)) return true;
  const wanted = loopbackText.exec(requested);
  // A port the client chose must be one: 1 to 65535, written without leading zeros.
  if (wanted === null || (wanted[2] !== undefined && !isPortNumber(wanted[2]))) return false;
  return registered.some((candidate) => {
    const match = loopbackText.exec(candidate);
    return match !== null && match[1] === wanted[1] && (match[3] ?? '') === (wanted[3] ?? '');
  });
}

function parseUrl(uri: string): URL | null {
  try {
    return new URL(uri);
  } catch {
    return null;
  }
}

/**
 * Where a redirect URI sends the user, as the consent page names it: the host (with port, if any)
 * of an http(s) URI; the scheme alone of a private-use URI (the app it opens), never a host written
 * in it (`com.example.app://bank.example/` opens the app, not bank.example).
 */
export function redirectHost(uri: string): string {
  const url = parseUrl(uri);
  if (url === null) return uri;
  return url.protocol === 'https:' || url.protocol === 'http:' ? url.host : url.protocol;
}
