/**
 * Whether `url` is plain HTTP to this machine: the only HTTP the identity-platform clients
 * accept (tests' loopback servers and the local server's simulated tenants); anything else is https.
 */
export function isLoopbackHttp(url: URL): boolean {
  return url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}
