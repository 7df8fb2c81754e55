import { describe, expect, it } from 'vitest';
import {
  isoTimestamp,
  parseIsoDateOrTimestamp,
  parseIsoHour,
  parseIsoTimestamp,
} from '../../../shared/domain/iso-timestamps';

const HOUR_MS = 3_600_000;

describe('ISO 8601 timestamps of imported files', () => {
  it('reads whole UTC hours in every documented spelling', () => {
    const hour = Date.parse('2026-06-01T13:00:00Z') / HOUR_MS;
    expect(parseIsoHour('2026-06-01T13:00:00Z')).toBe(hour);
    expect(parseIsoHour('2026-06-01T13:00Z')).toBe(hour);
    expect(parseIsoHour('2026-06-01T13:00:00.000Z')).toBe(hour);
    expect(parseIsoHour('2026-06-01T13:00:00+00:00')).toBe(hour);
    expect(parseIsoHour('2026-06-01T15:00:00+02:00')).toBe(hour);
    expect(parseIsoHour('2026-06-01T08:30:00-04:30')).toBe(hour);
  });

  it('refuses instants that are not whole hours', () => {
    expect(parseIsoHour('2026-06-01T13:30:00Z')).toBeUndefined();
    expect(parseIsoHour('2026-06-01T13:00:01Z')).toBeUndefined();
    expect(parseIsoHour('2026-06-01T13:00:00.0001Z')).toBeUndefined();
    expect(parseIsoHour('2026-06-01T13:00:00+05:30')).toBeUndefined();
  });

  it('refuses timestamps without an offset, impossible dates and other formats', () => {
    for (const text of [
      '2026-06-01T13:00:00',
      '2026-06-01 13:00:00Z',
      '2026-02-30T00:00:00Z',
      '2026-13-01T00:00:00Z',
      '2026-06-01T24:00:00Z',
      '1969-12-31T23:00:00Z',
      '2026-06-01',
      '1780318800',
      'June 1, 2026 13:00 UTC',
      '',
    ]) {
      expect(parseIsoTimestamp(text), text).toBeUndefined();
    }
  });

  it('reads dates as midnight UTC and timestamps as their instant', () => {
    expect(parseIsoDateOrTimestamp('2026-06-01')).toBe(Date.parse('2026-06-01T00:00:00Z'));
    expect(parseIsoDateOrTimestamp('2024-02-29')).toBe(Date.parse('2024-02-29T00:00:00Z'));
    expect(parseIsoDateOrTimestamp('2026-06-01T10:11:12.5+01:00')).toBe(
      Date.parse('2026-06-01T09:11:12.500Z'),
    );
    expect(parseIsoDateOrTimestamp('2025-02-29')).toBeUndefined();
    expect(parseIsoDateOrTimestamp('2026-6-1')).toBeUndefined();
  });

  it('writes instants in UTC without zero milliseconds', () => {
    expect(isoTimestamp(Date.parse('2026-06-01T13:00:00Z'))).toBe('2026-06-01T13:00:00Z');
    expect(isoTimestamp(Date.parse('2026-06-01T13:00:00.250Z'))).toBe('2026-06-01T13:00:00.250Z');
  });
});
