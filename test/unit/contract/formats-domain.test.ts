import { describe, expect, it } from 'vitest';
import { regexes } from 'zod/mini';
import { domainNamePattern } from '../../../shared/contract/formats';

describe('the domain name pattern', () => {
  it("is zod's own domain pattern, written out so that zod's whole regex namespace is not bundled", () => {
    // Assess: same source and flags, so both accept and refuse exactly the same names
    expect(domainNamePattern.source).toBe(regexes.domain.source);
    expect(domainNamePattern.flags).toBe(regexes.domain.flags);
  });

  it('accepts host names and refuses what is not one', () => {
    // Assess
    for (const name of ['example.com', 'a.b-c.example.co.uk', 'xn--bcher-kva.example']) {
      expect(domainNamePattern.test(name), name).toBe(true);
    }
    for (const name of [
      'localhost',
      'example..com',
      '-a.example.com',
      'a_b.example.com',
      '192.168.0.1',
      `${'a'.repeat(64)}.com`,
    ]) {
      expect(domainNamePattern.test(name), name).toBe(false);
    }
  });
});
