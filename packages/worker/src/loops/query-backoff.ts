// How long to wait before asking a provider again about a leg it has not settled: never sooner than
// PROVIDER_QUERY_AFTER_SECONDS, then after half the transaction's age, and never more than 15 minutes
// apart, so a long wait costs few questions and a late answer is still found soon.

/** The longest wait between two questions about one unsettled leg. */
const MAX_QUERY_INTERVAL_MS = 15 * 60_000;

export function nextQueryDelayMs(queryAfterMs: number, ageMs: number): number {
  return Math.min(Math.max(queryAfterMs, ageMs / 2), MAX_QUERY_INTERVAL_MS);
}
