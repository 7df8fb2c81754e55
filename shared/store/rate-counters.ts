import type { EventPacing } from '../app/ports';
import { updateIf } from './conditional-writes';
import type { ItemKey } from './keys';
import { oauthRateKey } from './oauth/oauth-keys';
import { getItem, type TableClient } from './table-client';

/**
 * The authorization server's counters (docs/oauth.md, "Limits"; docs/data-model.md): each a
 * conditional update of one item, so that they hold across Lambda instances.
 */

/**
 * Raises the counter `attribute` by one unless it reached `limit`: false, writing nothing, when
 * it had. `mustExist`: the item must be there already (otherwise false too).
 */
export async function countIf(
  table: TableClient,
  key: ItemKey,
  attribute: string,
  limit: number,
  options: { readonly mustExist: boolean; readonly set?: Readonly<Record<string, unknown>> },
): Promise<boolean> {
  const set = Object.entries(options.set ?? {});
  return updateIf(table, {
    key,
    expression:
      set.length > 0
        ? `SET ${set.map((_, index) => `#s${index} = if_not_exists(#s${index}, :s${index})`).join(', ')}`
        : '',
    adds: ['#count :one'],
    condition: `(attribute_not_exists(#count) OR #count < :limit)${options.mustExist ? ' AND attribute_exists(PK)' : ''}`,
    names: { '#count': attribute, ...Object.fromEntries(set.map(([name], index) => [`#s${index}`, name])) },
    values: { ':limit': limit, ...Object.fromEntries(set.map(([, value], index) => [`:s${index}`, value])) },
  });
}

/** `RateEventCounter.countRateEvent`: one item per window `bucket`, expiring with its window. */
export function countRateEvent(
  table: TableClient,
  bucket: string,
  limit: number,
  expiresAt: string,
): Promise<boolean> {
  return countIf(table, oauthRateKey(bucket), 'events', limit, {
    mustExist: false,
    set: { type: 'oauth_rate', expiresAt: epochSeconds(expiresAt) },
  });
}

/**
 * Counts one event of the paced counter at `key` (`SignInRepository.countPacedEvent`): counted from
 * the value read, so that of two events at once the second is judged by the first's delay (both
 * counted among the free ones; the second waits its turn once delays apply).
 */
export async function countPacedEvent(
  table: TableClient,
  key: ItemKey,
  pacing: EventPacing,
): Promise<'counted' | 'wait' | 'capped'> {
  // A write lost to a concurrent one (two checks from one office's network address at once) is
  // no reason to wait: the counter is read again and the event counted against what it holds now.
  for (let attempt = 0; attempt < pacedCountAttempts; attempt++) {
    const stored = await getItem(table, key);
    const before = Number(stored?.events ?? 0);
    if (before >= pacing.limit) return 'capped';
    const nowMs = pacing.now.getTime();
    if (Number(stored?.opensAt ?? 0) > nowMs) return 'wait';
    const counted = await updateIf(table, {
      key,
      expression: 'SET #type = :type, events = :events, opensAt = :opens, expiresAt = :expires',
      condition: before === 0 ? 'attribute_not_exists(events) OR events = :before' : 'events = :before',
      names: { '#type': 'type' },
      values: {
        ':type': 'oauth_rate',
        ':events': before + 1,
        ':opens': nowMs + pacing.delaySeconds(before) * 1000,
        ':expires': epochSeconds(pacing.expiresAt),
        ':before': before,
      },
    });
    if (counted) return 'counted';
  }
  return 'wait';
}

/** Reads and conditional writes of a paced counter before a steady race answers `wait`. */
const pacedCountAttempts = 5;

/** Takes one event back from the paced counter at `key`, if it counted any. */
export async function refundPacedEvent(table: TableClient, key: ItemKey): Promise<void> {
  await updateIf(table, {
    key,
    expression: '',
    adds: ['events :minusOne'],
    condition: 'events > :zero',
    values: { ':minusOne': -1, ':zero': 0 },
  });
}

/** The TTL attribute: epoch seconds, rounded up so that an item never expires early. */
export function epochSeconds(iso: string): number {
  return Math.ceil(Date.parse(iso) / 1000);
}

/** A TTL attribute read back as an ISO time. */
export function isoTime(epochSecondsValue: unknown): string {
  return new Date(Number(epochSecondsValue) * 1000).toISOString();
}
