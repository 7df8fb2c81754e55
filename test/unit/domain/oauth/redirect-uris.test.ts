import { describe, expect, it } from 'vitest';
import {
  matchesRegisteredRedirect,
  redirectHost,
  redirectUriProblem,
} from '../../../../shared/domain/oauth/redirect-uris';

describe('redirectUriProblem', () => {
  it('accepts https, http on a loopback address and private-use schemes', () => {
    for (const uri of [
      'https://app.example/callback',
      'http://127.0.0.1/callback',
      'http://127.0.0.1:8080/callback',
      'http://localhost:3000/cb?x=1',
      'http://[::1]:49152/',
      'com.example.app:/oauth/callback',
      'io.github.tool-maker.cli:/cb',
    ]) {
      expect(redirectUriProblem(uri), uri).toBeNull();
    }
  });

  it('refuses http elsewhere, fragments, credentials, scripts and relative references', () => {
    for (const uri of [
      'http://app.example/callback',
      'http://127.0.0.2.example/cb',
      'https://app.example/cb#frag',
      'https://user:pw@app.example/cb',
      'javascript:alert(1)',
      'data:text/html,hi',
      '/callback',
    ]) {
      expect(redirectUriProblem(uri), uri).not.toBeNull();
    }
  });

  it('refuses a private-use scheme that is no reverse domain name (RFC 8252 §7.1)', () => {
    for (const uri of [
      'intent://scan/cb',
      'intent:/cb',
      'mailto:victim@example.com',
      'view-source:https://app.example/',
      'chrome-extension://abcdefghijklmnop/cb',
      'x-callback:/cb',
      'myapp:/cb',
      'cursor://anysphere.cursor-retrieval/oauth/callback',
      'com.:/cb',
    ]) {
      expect(redirectUriProblem(uri), uri).toMatch(/private-use scheme named after a reverse domain/);
    }
  });
});

describe('matchesRegisteredRedirect', () => {
  const registered = ['https://app.example/callback', 'http://127.0.0.1/callback', 'http://localhost:9/cb'];

  it('matches a registered URI byte for byte', () => {
    expect(matchesRegisteredRedirect(registered, 'https://app.example/callback')).toBe(true);
  });

  it('lets a loopback redirect take any port, and only the port', () => {
    expect(matchesRegisteredRedirect(registered, 'http://127.0.0.1:53682/callback')).toBe(true);
    expect(matchesRegisteredRedirect(registered, 'http://localhost/cb')).toBe(true);
    expect(matchesRegisteredRedirect(registered, 'http://127.0.0.1:53682/callback2')).toBe(false);
    expect(matchesRegisteredRedirect(registered, 'http://localhost:5/cb?x=1')).toBe(false);
    expect(matchesRegisteredRedirect(registered, 'http://[::1]:5/callback')).toBe(false);
  });

  it('does not normalize: a trailing slash, a case change, a query or another port of https differ', () => {
    for (const uri of [
      'https://app.example/callback/',
      'https://APP.example/callback',
      'https://app.example/Callback',
      'https://app.example/callback?x=1',
      'https://app.example:443/callback',
      'https://app.example/a/../callback',
    ]) {
      expect(matchesRegisteredRedirect(registered, uri), uri).toBe(false);
    }
  });
});

describe('redirectHost', () => {
  it('names the host a redirect sends the user to, or the scheme of an app', () => {
    expect(redirectHost('https://app.example:8443/cb')).toBe('app.example:8443');
    expect(redirectHost('com.example.app:/cb')).toBe('com.example.app:');
  });

  it('never names a host written in a private-use URI: the app opens, not that host', () => {
    expect(redirectHost('com.example.app://bank.example/cb')).toBe('com.example.app:');
    expect(redirectHost('com.example.app://user@bank.example:443/cb')).toBe('com.example.app:');
  });
});
