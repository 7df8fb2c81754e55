import type { UsageSyncState } from '../usage-sources/sync-state';
import { type CheckResult, check } from './checklist';

/** The integration checklist's item of the usage sync, after each provider's verification items. */
export const usageSyncFeature = 'usage_sync';

/**
 * How the usage sync of one provider stands (docs/usage-sync.md): `available` when the last sync
 * succeeded (when, and the rows it read), `warning` when the last one failed (which file, why;
 * what an earlier sync stored is still used), `missing` before any sync.
 */
export function usageSyncCheck(state: UsageSyncState | null): CheckResult {
  if (!state) return check(usageSyncFeature, 'missing', 'never synced');
  const { outcome } = state;
  if (outcome.status === 'succeeded') {
    return check(usageSyncFeature, 'available', `last synced ${state.lastSyncAt}: ${state.rows} rows read`);
  }
  const what = outcome.file ? `reading ${outcome.file}` : 'before reading any file';
  const kept = state.lastSuccessAt ? `; the sync of ${state.lastSuccessAt} is still used` : '';
  return check(
    usageSyncFeature,
    'warning',
    `the sync of ${state.lastSyncAt} failed ${what}: ${outcome.reason}${kept}`,
  );
}
