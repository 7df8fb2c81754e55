/** autocannon ships no types; this declares the part of its programmatic API the API benchmark uses. */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  export interface Options {
    url: string;
    connections?: number;
    /** Seconds. */
    duration?: number;
    headers?: Record<string, string>;
    /** Worker threads that send the requests, the calling thread only collects their results. */
    workers?: number;
  }

  /** A histogram's summary: mean and percentiles (`p50`, `p99`, ...). */
  export interface Histogram {
    readonly average: number;
    readonly mean: number;
    readonly stddev: number;
    readonly min: number;
    readonly max: number;
    readonly total: number;
    readonly p50: number;
    readonly p99: number;
  }

  export interface Result {
    readonly duration: number;
    readonly errors: number;
    readonly timeouts: number;
    readonly resets: number;
    readonly non2xx: number;
    readonly '2xx': number;
    readonly '4xx': number;
    readonly statusCodeStats: Readonly<Record<string, { readonly count: number }>>;
    /** Milliseconds per request. */
    readonly latency: Histogram;
    /** Completed requests per second; `total` completed, `sent` sent. */
    readonly requests: Histogram & { readonly sent: number };
  }

  export type Instance = EventEmitter & PromiseLike<Result>;

  export default function autocannon(options: Options): Instance;
}
