/**
 * Stream kinds: streams alike in everything coverage groups and savings-plan rates look at
 * (provider, service, region, instance type, operating system, tenancy, deployment). What depends only on those
 * is worked out once per kind instead of once per stream: ten thousand streams fall into a few
 * hundred kinds. Streams are sorted into kinds by looking their fields up one map level each, which
 * builds no key string per stream.
 */
import type { UsageStream } from '../shapes/model';

export interface StreamKinds {
  /** Per stream: the index of its kind. */
  readonly kindOf: Int32Array;
  /** One stream of each kind. */
  readonly samples: readonly UsageStream[];
}

/** The fields after instance type and region, compared one by one: a type and region has few kinds. */
const sameKind = (a: UsageStream, b: UsageStream) =>
  a.provider === b.provider &&
  a.service === b.service &&
  a.operatingSystem === b.operatingSystem &&
  a.tenancy === b.tenancy &&
  a.deploymentOption === b.deploymentOption;

export function streamKinds(streams: readonly UsageStream[]): StreamKinds {
  const byType = new Map<string, Map<string, number[]>>();
  const samples: UsageStream[] = [];
  const kindOf = new Int32Array(streams.length);
  for (let s = 0; s < streams.length; s++) {
    const stream = streams[s] as UsageStream;
    let byRegion = byType.get(stream.instanceType);
    if (!byRegion) {
      byRegion = new Map();
      byType.set(stream.instanceType, byRegion);
    }
    let kinds = byRegion.get(stream.region);
    if (!kinds) {
      kinds = [];
      byRegion.set(stream.region, kinds);
    }
    let kind = -1;
    for (let k = 0; k < kinds.length && kind < 0; k++) {
      if (sameKind(samples[kinds[k] as number] as UsageStream, stream)) kind = kinds[k] as number;
    }
    if (kind < 0) {
      kind = samples.length;
      samples.push(stream);
      kinds.push(kind);
    }
    kindOf[s] = kind;
  }
  return { kindOf, samples };
}
