/**
 * What a commitment covers of a stream's on-demand price (docs/plan-engine.md, What a commitment covers).
 *
 * Azure reservations and the Azure savings plan cover the compute meter only: a Windows (or other
 * licensed) VM keeps paying its license on demand, so covering one of its hours avoids only the
 * compute (Linux) rate of its size. Valuing it at its whole price would credit the reservation with
 * the license: a Windows Standard_D4s_v5 would seem to save several times what the same Linux VM
 * saves. AWS and GCP commitments are bought for the OS they cover, so they cover the whole price.
 */
import type { UsageStream } from '../shapes/model';

/** Operating systems whose Azure VMs pay no license: their whole price is the compute meter. */
const UNLICENSED_OS = new Set(['', 'Linux']);

/** An Azure VM whose price carries a license (Windows, RHEL, SQL Server...) on top of its compute. */
export function paysAzureLicense(stream: UsageStream): boolean {
  return stream.provider === 'azure' && !UNLICENSED_OS.has(stream.operatingSystem);
}

/**
 * The on-demand price per unit-hour that a commitment covering the stream avoids. Azure: the compute
 * price (never above the stream's own price); without one, the whole price of a Linux VM and nothing
 * of a licensed one, whose compute part is then unknown: it is left on demand rather than guessed.
 */
export function commitmentPrice(stream: UsageStream): number {
  if (stream.provider !== 'azure') return stream.ondemandPrice;
  if (stream.computePrice !== undefined) return Math.min(stream.computePrice, stream.ondemandPrice);
  return paysAzureLicense(stream) ? 0 : stream.ondemandPrice;
}
