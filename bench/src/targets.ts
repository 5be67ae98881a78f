// The targets of issues 7 and 18, checked against a run's results: each says what was required, what was
// measured, and whether it was met.

import type { CaseResult } from './case-result.js';

export interface TargetCheck {
  readonly target: string;
  readonly measured: string;
  readonly met: boolean;
}

const megabyte = 1024 * 1024;
const rssLimitBytes = 200 * megabyte;

function percent(ratio: number): string {
  return `${(ratio * 100).toFixed(1)} %`;
}

/** Checks every target whose cases are in `results` (a narrowed run checks fewer). */
export function checkTargets(results: readonly CaseResult[]): TargetCheck[] {
  const byId = new Map(results.map((result) => [result.id, result]));
  const baseline = byId.get('baseline');
  const checks: TargetCheck[] = [];
  const ratioOf = (result: CaseResult) =>
    baseline === undefined ? Number.NaN : result.perSecond / baseline.perSecond;
  const atLeast = (id: string, share: number, label: string) => {
    const result = byId.get(id);
    if (result === undefined || baseline === undefined) return;
    checks.push({
      target: `${label} ≥ ${percent(share)} of baseline, 0 errors`,
      measured: `${percent(ratioOf(result))}, ${result.errors} errors`,
      met: ratioOf(result) >= share && result.errors === 0,
    });
  };

  atLeast('float-pg', 0.25, 'hot-account send_agent_float on PostgreSQL');
  const float = byId.get('float-pg');
  if (float !== undefined) {
    checks.push({
      target: 'hot-account send_agent_float on PostgreSQL: p99 ≤ 50 ms',
      measured: `p99 ${float.p99Ms.toFixed(1)} ms`,
      met: float.p99Ms <= 50,
    });
  }
  atLeast('airtime-json-pg', 0.25, 'buy_airtime JSON on PostgreSQL');
  const json = byId.get('airtime-json-pg');
  const xml = byId.get('airtime-xml-pg');
  if (json !== undefined && xml !== undefined) {
    const shortfall = 1 - xml.perSecond / json.perSecond;
    checks.push({
      target: 'buy_airtime XML within 15 % of JSON',
      measured: `XML ${shortfall > 0 ? `${percent(shortfall)} below` : `${percent(-shortfall)} above`} JSON`,
      met: shortfall <= 0.15 && xml.errors === 0,
    });
  }
  atLeast('float-pglite', 0.1, 'send_agent_float on PGlite');
  atLeast('airtime-json-pglite', 0.1, 'buy_airtime JSON on PGlite');
  const callbacks = byId.get('callbacks');
  if (callbacks !== undefined) {
    checks.push({
      target: 'callbacks ≥ 2,000 delivered/s; p99 completion-to-delivery ≤ 250 ms at 500/s; 0 errors',
      measured: `${Math.round(callbacks.perSecond)}/s, p99 ${callbacks.p99Ms.toFixed(0)} ms, ${callbacks.errors} errors`,
      met: callbacks.perSecond >= 2_000 && callbacks.p99Ms <= 250 && callbacks.errors === 0,
    });
  }
  const largeSend = byId.get('send-airtime-1000');
  if (largeSend !== undefined) {
    checks.push({
      target: 'send_airtime of 1,000 recipients on PostgreSQL answers within 1 s at the median, 0 errors',
      measured: `median ${largeSend.p50Ms.toFixed(0)} ms, ${largeSend.errors} errors`,
      met: largeSend.p50Ms <= 1_000 && largeSend.errors === 0,
    });
  }
  const concurrentSends = byId.get('send-airtime-bulk');
  if (concurrentSends !== undefined) {
    checks.push({
      target: 'send_airtime, 20 callers × 100 recipients: ≥ 5,000 recipients/s, every callback delivered',
      measured: `${Math.round(concurrentSends.perSecond)} recipients/s, ${concurrentSends.errors} errors`,
      met: concurrentSends.perSecond >= 5_000 && concurrentSends.errors === 0,
    });
  }
  const heaviest = results
    // The live airtime case has no target yet, memory included: it is reported, not judged.
    .filter((result) => result.serverRssBytes !== undefined && result.id !== 'airtime-live')
    .reduce<CaseResult | undefined>(
      (top, result) =>
        top === undefined || (result.serverRssBytes ?? 0) > (top.serverRssBytes ?? 0) ? result : top,
      undefined,
    );
  if (heaviest !== undefined) {
    const rss = heaviest.serverRssBytes ?? 0;
    checks.push({
      target: 'server RSS ≤ 200 MB at the end of every case',
      measured: `at most ${(rss / megabyte).toFixed(0)} MB (${heaviest.id})`,
      met: rss <= rssLimitBytes,
    });
  }
  return checks;
}
