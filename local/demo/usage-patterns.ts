import type { LocalClock } from '../../shared/domain/usage/local-time';
import { isWeekendDay } from '../../shared/domain/usage/local-time';
import type { SeededRandom } from './seeded-random';

/**
 * How a group of instances runs over the window. Each member of a group is one instance and its
 * usage u[t] is the fraction of hour t it ran.
 * - `steady`: always on (databases, core services), with the odd maintenance stop.
 * - `diurnal`: an autoscaling group following daily traffic, lower at weekends, trending up or down;
 *   member k runs while the group's demand exceeds k instances.
 * - `bursty`: batch workers that scale out for bursts of a few hours and back in.
 * - `growing`: a service being rolled out: instances launch one after another and stay.
 * - `declining`: a service being retired: instances are terminated one after another.
 * - `dev`: developer boxes on during local office hours on weekdays, off at night and at weekends.
 */
export type UsagePattern = 'steady' | 'diurnal' | 'bursty' | 'growing' | 'declining' | 'dev';

/** Fills the usage of a group's members (all of the same length, zero on entry). */
export function fillGroupUsage(
  pattern: UsagePattern,
  members: readonly Float64Array[],
  clock: LocalClock,
  random: SeededRandom,
): void {
  switch (pattern) {
    case 'steady':
      fillSteady(members, random);
      break;
    case 'diurnal':
      fillFromDemand(members, diurnalDemand(members.length, clock, random));
      break;
    case 'bursty':
      fillFromDemand(members, burstDemand(members.length, clock.hourOfDay.length, random));
      break;
    case 'growing':
      fillGrowing(members, random);
      break;
    case 'declining':
      fillDeclining(members, random);
      break;
    case 'dev':
      for (const usage of members) fillDevBox(usage, clock, random);
      break;
  }
}

/** Adds `sign` times the part of each hour inside [from, to) (window hours), kept within [0, 1]. */
function addInterval(usage: Float64Array, from: number, to: number, sign: 1 | -1 = 1): void {
  const start = Math.max(0, from);
  const end = Math.min(usage.length, to);
  for (let t = Math.floor(start); t < end; t++) {
    const overlap = Math.min(t + 1, end) - Math.max(t, start);
    usage[t] = Math.min(1, Math.max(0, (usage[t] ?? 0) + sign * overlap));
  }
}

function fillSteady(members: readonly Float64Array[], random: SeededRandom): void {
  for (const usage of members) {
    usage.fill(1);
    if (random.chance(0.25)) {
      const stop = random.between(0, usage.length);
      addInterval(usage, stop, stop + random.between(0.5, 4), -1);
    }
  }
}

/** Member k runs for the part of each hour the group's demand exceeds k instances. */
function fillFromDemand(members: readonly Float64Array[], demand: Float64Array): void {
  members.forEach((usage, k) => {
    for (let t = 0; t < usage.length; t++) usage[t] = Math.min(1, Math.max(0, (demand[t] ?? 0) - k));
  });
}

/** Instances needed each hour by a web tier of `capacity` instances at its busiest. */
function diurnalDemand(capacity: number, clock: LocalClock, random: SeededRandom): Float64Array {
  const hours = clock.hourOfDay.length;
  const base = random.between(0.2, 0.6);
  const peakHour = random.between(12, 17);
  const weekendFactor = random.between(0.45, 0.8);
  // Relative change over the window; rising groups reach full capacity at the end.
  const trend = random.between(-0.3, 0.35);
  const noise = random.between(0.02, 0.08);
  const demand = new Float64Array(hours);
  for (let t = 0; t < hours; t++) {
    const progress = t / hours;
    const level = trend >= 0 ? 1 - trend * (1 - progress) : 1 + trend * progress;
    const shape = (1 + Math.cos((2 * Math.PI * ((clock.hourOfDay[t] ?? 0) - peakHour)) / 24)) / 2;
    const weekly = clock.weekend[t] ? weekendFactor : 1;
    const wanted = capacity * level * (base + (1 - base) * shape) * weekly * (1 + random.normal(0, noise));
    demand[t] = Math.min(capacity, Math.max(0, wanted));
  }
  return demand;
}

/** Instances needed each hour by a worker pool that scales out for bursts of work. */
function burstDemand(capacity: number, hours: number, random: SeededRandom): Float64Array {
  const demand = new Float64Array(hours);
  const always = Math.floor(capacity * random.between(0, 0.25));
  demand.fill(always);
  const bursts = Math.max(1, Math.round((hours / 24) * random.between(0.3, 1.2)));
  for (let b = 0; b < bursts; b++) {
    // The first burst uses the whole pool, so every member runs at some point.
    const height = (capacity - always) * (b === 0 ? 1 : random.between(0.2, 1));
    const start = random.between(0, hours - 1);
    const length = random.between(1, 9);
    for (let t = Math.floor(start); t < Math.min(hours, start + length); t++) {
      demand[t] = Math.min(capacity, (demand[t] ?? 0) + height);
    }
  }
  return demand;
}

/** The first instance exists from the start; the others launch at random hours and stay. */
function fillGrowing(members: readonly Float64Array[], random: SeededRandom): void {
  members.forEach((usage, k) => {
    const launch = k === 0 ? 0 : random.between(0.05, 0.9) * usage.length;
    addInterval(usage, launch, usage.length);
  });
}

/** The last instance stays to the end; the others are terminated at random hours. */
function fillDeclining(members: readonly Float64Array[], random: SeededRandom): void {
  members.forEach((usage, k) => {
    const termination = k === members.length - 1 ? usage.length : random.between(0.1, 0.95) * usage.length;
    addInterval(usage, 0, termination);
  });
}

/**
 * A developer box: started in the morning and stopped in the evening of local working days,
 * sometimes left running overnight, rarely used at weekends, and idle for a week of holiday.
 */
function fillDevBox(usage: Float64Array, clock: LocalClock, random: SeededRandom): void {
  const hours = usage.length;
  const firstDay = Math.floor(clock.firstLocalHour / 24);
  const lastDay = Math.floor((clock.firstLocalHour + hours - 1) / 24);
  const holidayStart = random.chance(0.15) ? random.int(firstDay, lastDay) : Number.NaN;
  const usualStart = random.between(8, 10);
  const usualStop = random.between(17, 19.5);
  for (let day = firstDay - 1; day <= lastDay; day++) {
    // Window hour of the local midnight that starts this day.
    const midnight = day * 24 - clock.firstLocalHour;
    if (day >= holidayStart && day < holidayStart + 7) continue;
    if (isWeekendDay(day)) {
      if (random.chance(0.06)) {
        const start = random.between(10, 14);
        addInterval(usage, midnight + start, midnight + start + random.between(1, 4));
      }
      continue;
    }
    const start = Math.max(6, random.normal(usualStart, 0.5));
    const leftOnOvernight = random.chance(0.05);
    const stop = leftOnOvernight ? 24 + usualStart : Math.min(23, random.normal(usualStop, 0.7));
    addInterval(usage, midnight + start, midnight + stop);
  }
}
