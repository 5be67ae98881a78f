// What one case reports: the median of its measured runs, every run, and the server's memory at the end.

import type { LoadSample } from './load-run.js';

export interface CaseResult {
  /** Short id, as `--only` takes it. */
  readonly id: string;
  readonly title: string;
  /** `requests/s`, or `deliveries/s` for the callback case. */
  readonly unit: string;
  /** Median over the runs. */
  readonly perSecond: number;
  /** Median over the runs of each run's p50 and p99, in milliseconds. */
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Errors over every run (non-2xx answers, connection errors, timeouts, missing callbacks). */
  readonly errors: number;
  /** Resident memory of the server at the end of the case, from its /metrics. */
  readonly serverRssBytes: number | undefined;
  /** Every measured run. */
  readonly runs: readonly LoadSample[];
  /** Case-specific figures (the callback case's latency runs, the worker's memory). */
  readonly details?: Readonly<Record<string, unknown>>;
  /**
   * What the case measured beyond the table's columns, as a sentence printed under the table (the live
   * airtime case's end-to-end purchases per second, and what its fakes' delays mean for the figures).
   */
  readonly note?: string;
}
