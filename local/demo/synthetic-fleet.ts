import type { Catalog, PricedInstance } from '../../shared/domain/catalog/catalog';
import type { Provider, UsageStream, UsageWindow } from '../../shared/domain/engine/shapes/model';
import { ValidationError } from '../../shared/domain/errors';
import { type LocalClock, localClock, windowStartHour } from '../../shared/domain/usage/local-time';
import { type SeededRandom, seededRandom } from './seeded-random';
import { fillGroupUsage, type UsagePattern } from './usage-patterns';

/** A synthetic usage stream, labelled with the pattern it was generated from. */
export interface SyntheticStream extends UsageStream {
  readonly pattern: UsagePattern;
}

export interface FleetOptions {
  /** Same seed and options -> identical fleet. */
  readonly seed: string | number;
  readonly provider: Provider;
  /** Number of streams (instances) to generate. */
  readonly streams: number;
  readonly window: UsageWindow;
  /** Instance types, regions and on-demand prices come from the catalog. */
  readonly catalog: Catalog;
}

/** The group sizes each pattern comes in (a database pair, a web tier, a team's dev boxes). */
const GROUP_SIZES: Readonly<Record<UsagePattern, readonly [number, number]>> = {
  steady: [1, 6],
  diurnal: [4, 24],
  bursty: [3, 16],
  growing: [2, 10],
  declining: [2, 10],
  dev: [1, 5],
};

/** Share of the fleet's instances following each pattern. */
const INSTANCE_SHARES: readonly (readonly [UsagePattern, number])[] = [
  ['steady', 0.32],
  ['diurnal', 0.24],
  ['bursty', 0.1],
  ['growing', 0.1],
  ['declining', 0.08],
  ['dev', 0.16],
];

/** Groups are drawn by pattern; weighting by share / mean group size gives the instance shares. */
const GROUP_MIX = INSTANCE_SHARES.map(([pattern, share]) => {
  const [smallest, largest] = GROUP_SIZES[pattern];
  return [pattern, share / ((smallest + largest) / 2)] as const;
});

/** Which families each pattern runs on (weights), the largest size it uses, and its Windows share. */
interface Workload {
  readonly role: string;
  readonly families: readonly (readonly [string, number])[];
  readonly minUnits: number;
  readonly maxUnits: number;
  readonly windowsShare: number;
}

const WORKLOADS: Readonly<Record<Provider, Readonly<Record<UsagePattern, Workload>>>> = {
  aws: {
    steady: {
      role: 'app',
      families: [
        ['m5', 3],
        ['m6i', 3],
        ['r5', 2],
        ['c5', 1],
        ['db.m5', 1],
        ['db.r5', 1],
        ['x2iedn', 0.2],
      ],
      minUnits: 4,
      maxUnits: 64,
      windowsShare: 0.15,
    },
    diurnal: {
      role: 'web',
      families: [
        ['c5', 3],
        ['m5', 2],
        ['m6i', 3],
      ],
      minUnits: 4,
      maxUnits: 32,
      windowsShare: 0.05,
    },
    bursty: {
      role: 'worker',
      families: [
        ['c5', 3],
        ['m6i', 1],
      ],
      minUnits: 8,
      maxUnits: 72,
      windowsShare: 0,
    },
    growing: {
      role: 'api',
      families: [
        ['m6i', 3],
        ['r5', 1],
        ['c5', 1],
      ],
      minUnits: 4,
      maxUnits: 32,
      windowsShare: 0.05,
    },
    declining: {
      role: 'legacy',
      families: [
        ['m5', 3],
        ['r5', 1],
        ['c5', 1],
      ],
      minUnits: 4,
      maxUnits: 32,
      windowsShare: 0.1,
    },
    dev: {
      role: 'dev',
      families: [
        ['t3', 4],
        ['m5', 1],
      ],
      minUnits: 2,
      maxUnits: 8,
      windowsShare: 0.1,
    },
  },
  azure: {
    steady: {
      role: 'app',
      families: [
        ['Dsv5', 3],
        ['Esv5', 2],
      ],
      minUnits: 2,
      maxUnits: 32,
      windowsShare: 0,
    },
    diurnal: {
      role: 'web',
      families: [
        ['Dsv5', 2],
        ['FSv2', 2],
      ],
      minUnits: 2,
      maxUnits: 16,
      windowsShare: 0,
    },
    bursty: { role: 'worker', families: [['FSv2', 1]], minUnits: 4, maxUnits: 32, windowsShare: 0 },
    growing: {
      role: 'api',
      families: [
        ['Dsv5', 1],
        ['Esv5', 1],
      ],
      minUnits: 2,
      maxUnits: 16,
      windowsShare: 0,
    },
    declining: {
      role: 'legacy',
      families: [
        ['FSv2', 1],
        ['Dsv5', 1],
      ],
      minUnits: 2,
      maxUnits: 16,
      windowsShare: 0,
    },
    dev: { role: 'dev', families: [['Dsv5', 1]], minUnits: 2, maxUnits: 4, windowsShare: 0 },
  },
  gcp: {
    steady: {
      role: 'app',
      families: [
        ['n2-standard', 3],
        ['e2-standard', 2],
      ],
      minUnits: 2,
      maxUnits: 16,
      windowsShare: 0,
    },
    diurnal: {
      role: 'web',
      families: [
        ['n2-standard', 2],
        ['c3-standard', 1],
      ],
      minUnits: 2,
      maxUnits: 8,
      windowsShare: 0,
    },
    bursty: { role: 'worker', families: [['c3-standard', 1]], minUnits: 4, maxUnits: 22, windowsShare: 0 },
    growing: {
      role: 'api',
      families: [
        ['n2-standard', 1],
        ['c3-standard', 1],
      ],
      minUnits: 2,
      maxUnits: 8,
      windowsShare: 0,
    },
    declining: {
      role: 'legacy',
      families: [
        ['e2-standard', 1],
        ['n2-standard', 1],
      ],
      minUnits: 2,
      maxUnits: 8,
      windowsShare: 0,
    },
    dev: { role: 'dev', families: [['e2-standard', 1]], minUnits: 2, maxUnits: 4, windowsShare: 0 },
  },
};

/**
 * A seeded, realistic fleet: groups of instances (a web tier, a worker pool, a database, a team's
 * dev boxes) that share an account, region, instance type and usage pattern. Every instance type
 * is one the catalog prices, at the catalog's on-demand price.
 */
export function generateFleet(options: FleetOptions): SyntheticStream[] {
  const { provider, window, catalog } = options;
  windowStartHour(window); // rejects a malformed window before anything is allocated
  if (!Number.isInteger(options.streams) || options.streams < 0) {
    throw new ValidationError('invalid fleet size', { streams: ['must be a whole number of at least 0'] });
  }
  const priced = catalog.pricedInstances(provider);
  if (priced.length === 0)
    throw new ValidationError('no priced instances', {
      provider: ['has no priced instances in the catalog'],
    });

  const random = seededRandom(`fleet\u001f${options.seed}\u001f${provider}`);
  const accounts = accountIds(provider, options.streams, random.fork('accounts'));
  const regions = weightedRegions(priced, random.fork('regions'));
  const clocks = new Map<string, LocalClock>();
  // One buffer for the whole fleet: 50,000 streams of 720 hours need no per-stream allocation.
  const buffer = new Float64Array(options.streams * window.hours);
  const streams: SyntheticStream[] = [];

  for (let group = 0; streams.length < options.streams; group++) {
    const groupRandom = random.fork(`group ${group}`);
    const pattern = groupRandom.weighted(GROUP_MIX);
    const [smallest, largest] = GROUP_SIZES[pattern];
    const size = Math.min(groupRandom.int(smallest, largest), options.streams - streams.length);
    const region = groupRandom.weighted(regions);
    const instance = chooseInstance(priced, WORKLOADS[provider][pattern], region, groupRandom);
    const accountId = groupRandom.weighted(accounts);
    const clock = clocks.get(region) ?? localClock(window, region);
    clocks.set(region, clock);

    const members = Array.from({ length: size }, (_, k) =>
      buffer.subarray((streams.length + k) * window.hours, (streams.length + k + 1) * window.hours),
    );
    fillGroupUsage(pattern, members, clock, groupRandom);
    const role = WORKLOADS[provider][pattern].role;
    members.forEach((usage, k) => {
      streams.push({
        resourceId: resourceId(instance, accountId, `${role}-${group}-${k}`, groupRandom),
        provider,
        accountId,
        region: instance.region,
        service: instance.service,
        instanceType: instance.instanceType,
        operatingSystem: instance.operatingSystem,
        tenancy: instance.tenancy,
        usageType: 'running',
        usageUnit: 'Hrs',
        ondemandPrice: instance.ondemandPrice,
        usage,
        pattern,
      });
    });
  }
  return streams;
}

/** A priced instance of the workload's families in the region; any of the region's otherwise. */
function chooseInstance(
  priced: readonly PricedInstance[],
  workload: Workload,
  region: string,
  random: SeededRandom,
): PricedInstance {
  const inRegion = priced.filter((instance) => instance.region === region);
  const families = workload.families.filter(([family]) =>
    inRegion.some((instance) => instance.family === family),
  );
  const family = families.length > 0 ? random.weighted(families) : random.pick(inRegion).family;
  const ofFamily = inRegion.filter((instance) => instance.family === family);
  const sized = ofFamily.filter(
    (instance) => instance.units >= workload.minUnits && instance.units <= workload.maxUnits,
  );
  const candidates = sized.length > 0 ? sized : ofFamily;
  const windows = candidates.filter((instance) => instance.operatingSystem === 'Windows');
  const others = candidates.filter((instance) => instance.operatingSystem !== 'Windows');
  const pool =
    windows.length > 0 && (others.length === 0 || random.chance(workload.windowsShare)) ? windows : others;
  // Smaller sizes are more common: weight each size by the inverse of its units.
  return random.weighted(pool.map((instance) => [instance, 1 / instance.units] as const));
}

/** The fleet's regions, the first (its home region) carrying most of the instances. */
function weightedRegions(priced: readonly PricedInstance[], random: SeededRandom): [string, number][] {
  const regions = [...new Set(priced.map((instance) => instance.region))];
  const home = random.int(0, regions.length - 1);
  return regions.map((region, i) => [region, i === home ? 3 : 1]);
}

/** A few accounts (AWS accounts, Azure subscriptions, GCP projects), the first the busiest. */
function accountIds(provider: Provider, streams: number, random: SeededRandom): [string, number][] {
  const count = Math.min(6, 1 + Math.floor(streams / 4000));
  return Array.from({ length: count }, (_, i) => [accountId(provider, random), i === 0 ? 3 : 1]);
}

function accountId(provider: Provider, random: SeededRandom): string {
  switch (provider) {
    case 'aws':
      return `${random.int(1, 9)}${digits(11, random)}`;
    case 'azure':
      return [
        hex(8, random),
        hex(4, random),
        `4${hex(3, random)}`,
        `a${hex(3, random)}`,
        hex(12, random),
      ].join('-');
    case 'gcp':
      return `${random.pick(['shop', 'data', 'platform', 'search', 'billing'])}-${random.pick(['prod', 'staging'])}-${digits(6, random)}`;
  }
}

/** The provider's own form of a resource id; the name makes it unique within the fleet. */
function resourceId(instance: PricedInstance, account: string, name: string, random: SeededRandom): string {
  switch (instance.provider) {
    case 'aws':
      return instance.service === 'AmazonRDS'
        ? `arn:aws:rds:${instance.region}:${account}:db:${name}`
        : `arn:aws:ec2:${instance.region}:${account}:instance/i-0${hex(16, random)}`;
    case 'azure':
      return `/subscriptions/${account}/resourceGroups/rg-${instance.region}/providers/Microsoft.Compute/virtualMachines/${name}`;
    case 'gcp':
      return `projects/${account}/zones/${instance.region}-${random.pick(['a', 'b', 'c'])}/instances/${name}`;
  }
}

function hex(length: number, random: SeededRandom): string {
  let text = '';
  for (let i = 0; i < length; i++) text += Math.floor(random.next() * 16).toString(16);
  return text;
}

function digits(length: number, random: SeededRandom): string {
  let text = '';
  for (let i = 0; i < length; i++) text += Math.floor(random.next() * 10).toString();
  return text;
}
