import type { UsageSyncState } from '../usage-sources/sync-state';
import { type CheckResult, check } from './checklist';

/** The integration checklist's item of the usage sync, after each provider's verification items. */
export const usageSyncFeature = 'usage_sync';

/**
 * How the usage sync of one provider stands (docs/usage-sync.md): `available` when the last sync
 * succeeded (when, the rows it read and used, and why the others were skipped), `warning` when the
 * last one failed (which file, why; what an earlier sync stored is still used), refused files over
 * a bound (each file, its period and the bound; the period keeps what was stored before) or read
 * rows of which none could be used (why), `missing` before any sync.
 */
export function usageSyncCheck(state: UsageSyncState | null): CheckResult {
  if (!state) return check(usageSyncFeature, 'missing', 'never synced');
  const { outcome } = state;
  if (outcome.status === 'succeeded') {
    const skipped = state.skipped ? `; skipped: ${state.skipped}` : '';
    const refused = (outcome.refused ?? []).map(
      (file) =>
        `refused ${file.file} (billing period ${file.billingPeriod}, bound ${file.code}): ${file.reason}; the period keeps what was stored before`,
    );
    if (refused.length > 0) {
      const synced = `last synced ${state.lastSyncAt}: ${state.rows} rows read, ${state.usedRows} used${skipped}`;
      return check(usageSyncFeature, 'warning', `${synced}; ${refused.join('; ')}`);
    }
    if (state.rows > 0 && state.usedRows === 0) {
      // Rows were read and none became usage: the export is likely not what it seems.
      return check(
        usageSyncFeature,
        'warning',
        `last synced ${state.lastSyncAt}: none of the ${state.rows} rows read could be used${skipped}`,
      );
    }
    return check(
      usageSyncFeature,
      'available',
      `last synced ${state.lastSyncAt}: ${state.rows} rows read, ${state.usedRows} used${skipped}`,
    );
  }
  const what = outcome.file ? `reading ${outcome.file}` : 'before reading any file';
  const kept = state.lastSuccessAt ? `; the sync of ${state.lastSuccessAt} is still used` : '';
  return check(
    usageSyncFeature,
    'warning',
    `the sync of ${state.lastSyncAt} failed ${what}: ${outcome.reason}${kept}`,
  );
}
