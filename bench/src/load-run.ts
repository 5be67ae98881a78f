// One load run with autocannon (programmatic, in the harness process): a fixed request (or a fixed cycle of
// requests) sent by every connection back to back for a while, or at a fixed overall rate. Any answer that
// is not 2xx, any connection error and any timeout counts as an error.

import autocannon from 'autocannon';
import { percentile } from './statistics.js';

/** The request every connection sends. */
export interface LoadRequest {
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** A fresh body for every request sent, where requests must differ; `body` is then only the first. */
  readonly bodyPerRequest?: () => string;
}

export interface LoadRunOptions {
  readonly url: string;
  /** The request, or requests each connection sends in turn (a mix). */
  readonly request: LoadRequest | readonly LoadRequest[];
  readonly connections: number;
  /** Seconds to run; ignored when `amount` is given. */
  readonly durationSeconds: number;
  /** Stop after this many requests instead. */
  readonly amount?: number;
  /** Requests per second over all connections; unset means as fast as the server answers. */
  readonly overallRate?: number;
  /**
   * Also measure p95: autocannon's histogram has p90 and p97.5 but no p95, so every 2xx answer's time is
   * kept for the run. Off by default, since it costs the harness (which shares the cores) a little per answer.
   */
  readonly p95?: boolean;
}

/** What one run measured. */
export interface LoadSample {
  /**
   * 2xx answers per second of the run; with `amount`, up to the last answer, since autocannon notices a
   * finished amount only at its next one-second tick and its own duration would count the idle rest.
   */
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Only when the run was asked for it (`p95`). */
  readonly p95Ms?: number;
  /** Non-2xx answers, connection errors and timeouts. */
  readonly errors: number;
  /** 2xx answers. */
  readonly succeeded: number;
  /** Answers by HTTP status, to explain errors. */
  readonly statusCodes: Readonly<Record<string, number>>;
}

/** Gives each request autocannon sends the next body. */
function withFreshBody(bodyPerRequest: () => string) {
  return (request: autocannon.Request): autocannon.Request => ({ ...request, body: bodyPerRequest() });
}

/** Runs autocannon once and reduces its result to a sample. */
export async function runLoad(options: LoadRunOptions): Promise<LoadSample> {
  const cycle: readonly LoadRequest[] = Array.isArray(options.request)
    ? options.request
    : [options.request as LoadRequest];
  const first = cycle[0];
  if (first === undefined) throw new Error('Expected at least one request to send, received none.');
  const answeredMs: number[] = [];
  let lastAnswerAt = 0;
  const perAnswer = options.p95 === true || options.amount !== undefined;
  const result = await autocannon({
    url: `${options.url}${first.path}`,
    method: 'POST',
    headers: { ...first.headers },
    body: first.body,
    ...(first.bodyPerRequest !== undefined
      ? {
          requests: [
            {
              method: 'POST' as const,
              path: first.path,
              headers: { ...first.headers },
              setupRequest: withFreshBody(first.bodyPerRequest),
            },
          ],
        }
      : cycle.length > 1
        ? {
            requests: cycle.map((request) => ({
              method: 'POST' as const,
              path: request.path,
              headers: { ...request.headers },
              body: request.body,
            })),
          }
        : {}),
    connections: options.connections,
    ...(options.amount === undefined ? { duration: options.durationSeconds } : { amount: options.amount }),
    ...(options.overallRate === undefined ? {} : { overallRate: options.overallRate }),
    ...(perAnswer
      ? {
          setupClient: (client: autocannon.Client) => {
            client.on('response', (statusCode, _bytes, responseTime) => {
              if (statusCode < 200 || statusCode >= 300) return;
              lastAnswerAt = Date.now();
              if (options.p95 === true) answeredMs.push(responseTime);
            });
          },
        }
      : {}),
    timeout: 10,
  });
  const succeeded = result['2xx'];
  const seconds =
    options.amount !== undefined && lastAnswerAt > 0
      ? (lastAnswerAt - result.start.getTime()) / 1000
      : result.duration;
  return {
    requestsPerSecond: succeeded / seconds,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    ...(options.p95 === true ? { p95Ms: percentile(answeredMs, 95) } : {}),
    // autocannon counts timeouts among its errors.
    errors: result.non2xx + result.errors,
    succeeded,
    statusCodes: Object.fromEntries(
      Object.entries(result.statusCodeStats ?? {}).map(([status, stats]) => [status, stats.count ?? 0]),
    ),
  };
}
