import type { UsageSyncState } from '../usage-sources/sync-state';
import { type CheckResult, check } from './checklist';

/** The integration checklist's item of the usage sync, after each provider's verification items. */
export const usageSyncFeature = 'usage_sync';

/**
 * How the usage sync of one provider stands (docs/usage-sync.md): `available` when the last sync
 * succeeded (when, and the rows it read), `warning` when the last one failed (which file, why;
 * what an earlier sync stored is still used) or refused files over a bound (each file, its
 * period and the bound; the period keeps what was stored before), `missing` before any sync.
 */
export function usageSyncCheck(state: UsageSyncState | null): CheckResult {
  if (!state) return check(usageSyncFeature, 'missing', 'never synced');
  const { outcome } = state;
  if (outcome.status === 'succeeded') {
    const synced = `last synced ${state.lastSyncAt}: ${state.rows} rows read`;
    const refused = outcome.refused ?? [];
    if (refused.length === 0) return check(usageSyncFeature, 'available', synced);
    const files = refused.map(
      (file) =>
        `refused ${file.file} (billing period ${file.billingPeriod}, bound ${file.code}): ${file.reason}; the period keeps what was stored before`,
    );
    return check(usageSyncFeature, 'warning', `${synced}; ${files.join('; ')}`);
  }
  const what = outcome.file ? `reading ${outcome.file}` : 'before reading any file';
  const kept = state.lastSuccessAt ? `; the sync of ${state.lastSuccessAt} is still used` : '';
  return check(
    usageSyncFeature,
    'warning',
    `the sync of ${state.lastSyncAt} failed ${what}: ${outcome.reason}${kept}`,
  );
}
