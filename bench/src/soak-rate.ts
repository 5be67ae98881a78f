// The soak's default rate: half the hot-account `send_agent_float` throughput on PostgreSQL, taken from the
// last full `pnpm bench` (bench/results/latest.json) when there is one, else measured here by a short
// calibration of the same case (2 s warm-up, one 5-second run) in a schema of its own.

import { readFile } from 'node:fs/promises';
import type { BenchOptions } from './bench-options.js';
import { floatRequest } from './bench-requests.js';
import type { CaseResult } from './case-result.js';
import { runRequestCase } from './request-case.js';

export interface SoakRate {
  readonly perSecond: number;
  /** Where the rate came from, for the report. */
  readonly source: string;
}

const latestReport = new URL('../results/latest.json', import.meta.url);

async function floatRateFromLastBench(): Promise<number | undefined> {
  let text: string;
  try {
    text = await readFile(latestReport, 'utf8');
  } catch {
    return undefined;
  }
  const report = JSON.parse(text) as { results?: readonly Partial<CaseResult>[] };
  const float = report.results?.find((result) => result.id === 'float-pg');
  return typeof float?.perSecond === 'number' && float.perSecond > 0 ? float.perSecond : undefined;
}

async function calibratedFloatRate(databaseUrl: string): Promise<number> {
  const options: BenchOptions = {
    smoke: false,
    only: ['float-pg'],
    cpuProfileDir: undefined,
    databaseUrl,
    durationSeconds: 5,
    warmupSeconds: 2,
    runs: 1,
    connections: 64,
    callbackTransactions: 0,
    callbackOfferedRate: 0,
    livePurchases: 0,
  };
  const result = await runRequestCase(
    {
      id: 'float-pg',
      title: 'calibration: send_agent_float, one hot account, JSON, PostgreSQL',
      store: 'postgres',
      request: (caller) => floatRequest(caller.token),
    },
    options,
  );
  if (result.errors > 0 || !(result.perSecond > 0)) {
    throw new Error(
      `Expected the calibration run to answer every request 2xx, received ${result.errors} errors at ` +
        `${result.perSecond.toFixed(0)} requests/s.`,
    );
  }
  return result.perSecond;
}

/** Half the float throughput, from the last full bench or a calibration run. */
export async function defaultSoakRate(databaseUrl: string): Promise<SoakRate> {
  const recorded = await floatRateFromLastBench();
  if (recorded !== undefined) {
    return {
      perSecond: Math.round(recorded / 2),
      source: `half of float-pg ${recorded.toFixed(0)}/s in bench/results/latest.json`,
    };
  }
  const measured = await calibratedFloatRate(databaseUrl);
  return {
    perSecond: Math.round(measured / 2),
    source: `half of a 5-second float-pg calibration at ${measured.toFixed(0)}/s`,
  };
}
