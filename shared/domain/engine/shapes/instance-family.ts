/**
 * The family of an instance type, as savings-plan rates and resource records name it:
 * AWS `m5.xlarge` -> `m5`, `db.r5.large` -> `db.r5`; Azure `Standard_D4s_v5` -> `Dsv5`;
 * GCP `n2-standard-8` -> `n2`.
 */
import { azureFlexibilityGroup } from '../../instance-sizes';
import type { Provider } from './model';

export function instanceFamily(provider: Provider, instanceType: string): string {
  switch (provider) {
    case 'aws': {
      const lastDot = instanceType.lastIndexOf('.');
      return lastDot > 0 ? instanceType.slice(0, lastDot) : instanceType;
    }
    case 'azure':
      return azureFlexibilityGroup(instanceType)?.family ?? instanceType.replace(/^Standard_/, '');
    case 'gcp':
      return instanceType.split('-')[0] ?? instanceType;
  }
}

const AWS_CATEGORIES: readonly (readonly [RegExp, string])[] = [
  [/^(db\.|cache\.)?(m|t|a|mac)\d/, 'General purpose'],
  [/^(db\.|cache\.)?c\d/, 'Compute optimized'],
  [/^(db\.|cache\.)?(r|x|z|u-|u\d)/, 'Memory optimized'],
  [/^(db\.|cache\.)?(i|d|h|im|is)\d/, 'Storage optimized'],
  [/^(db\.|cache\.)?(p|g|f|inf|trn|dl|vt)\d/, 'Accelerated computing'],
];

const AZURE_CATEGORIES: readonly (readonly [RegExp, string])[] = [
  // Before the letters: `Dv2 High Memory` is a D-series group sized for memory.
  [/High Memory/, 'Memory optimized'],
  [/^(A|B|D)/, 'General purpose'],
  [/^F/, 'Compute optimized'],
  [/^(E|M|G)/, 'Memory optimized'],
  [/^L/, 'Storage optimized'],
  [/^N/, 'GPU'],
  [/^H/, 'High performance compute'],
];

const GCP_CATEGORIES: readonly (readonly [RegExp, string])[] = [
  [/^(e2|n1|n2|n2d|n4|t2d|t2a|c4a)$/, 'General purpose'],
  [/^(c2|c2d|c3|c3d|h3)$/, 'Compute optimized'],
  [/^(m1|m2|m3)$/, 'Memory optimized'],
  [/^(a2|a3|g2)$/, 'Accelerator optimized'],
];

/** The provider's broad category of a family (`General purpose`, `Memory optimized`, ...); '' if unknown. */
export function familyCategory(provider: Provider, family: string): string {
  const table =
    provider === 'aws' ? AWS_CATEGORIES : provider === 'azure' ? AZURE_CATEGORIES : GCP_CATEGORIES;
  return table.find(([pattern]) => pattern.test(family))?.[1] ?? '';
}
