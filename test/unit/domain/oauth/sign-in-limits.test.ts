import { describe, expect, it } from 'vitest';
import {
  checkDelaySeconds,
  codeCheckLimits,
  fixedWindow,
} from '../../../../shared/domain/oauth/sign-in-limits';

describe('checkDelaySeconds', () => {
  it('lets the first five checks of a day through at once, then doubles the wait up to an hour', () => {
    // After check n (n - 1 before it): checks 1-4 set no wait; check 5 opens the 6th 1 s later,
    // check 6 the 7th 2 s later, ... check 17 (16 before) 2^12 = 4096 s, capped at 3600.
    expect([0, 1, 2, 3].map(checkDelaySeconds)).toEqual([0, 0, 0, 0]);
    expect([4, 5, 6, 7, 8].map(checkDelaySeconds)).toEqual([1, 2, 4, 8, 16]);
    expect(checkDelaySeconds(15)).toBe(2048);
    expect(checkDelaySeconds(16)).toBe(codeCheckLimits.maxDelaySeconds);
    expect(checkDelaySeconds(19)).toBe(3600);
  });

  it('bounds a day’s guesses at one address to 20, whatever the delays allow', () => {
    // The 20 checks' delays sum to 0 * 4 + (1 + 2 + ... + 2048) + 3600 * 3 = 4095 + 10800 s, under a day.
    const waited = Array.from({ length: codeCheckLimits.perAddressPerDay - 1 }, (_, before) =>
      checkDelaySeconds(before),
    ).reduce((sum, delay) => sum + delay, 0);
    expect(waited).toBe(4095 + 10_800);
    expect(codeCheckLimits.perAddressPerDay).toBe(20);
  });
});

describe('fixedWindow', () => {
  it('numbers windows from the epoch and ends each at its boundary', () => {
    // 2026-11-27T21:30:00Z is 1_795_815_000 s after the epoch: hour 498_837, ending at 22:00.
    expect(fixedWindow(new Date('2026-11-27T21:30:00Z'), 3600)).toEqual({
      index: 498_837,
      endsAt: '2026-11-27T22:00:00.000Z',
    });
    expect(fixedWindow(new Date('2026-11-27T21:30:00Z'), 86_400).endsAt).toBe('2026-11-28T00:00:00.000Z');
  });
});
