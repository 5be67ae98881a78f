// The two `send_airtime` cases, on PostgreSQL with the server and worker as separate children:
// - `send-airtime-1000`: one caller sends 1,000 recipients per request, one request at a time; the figure
//   is the median time to the answer (the issue asks for under a second).
// - `send-airtime-bulk`: 20 callers, each its own account, token and keep-alive connection, each send 100
//   recipients per request back to back; the figure is recipients accepted per second over the run (the
//   issue asks for at least 5,000), and every recipient's callback must then arrive at the receiver.

import type { BenchOptions } from './bench-options.js';
import { createBenchCaller } from './bench-caller.js';
import type { BenchCaller } from './bench-caller.js';
import { sendAirtimeRequest } from './bench-requests.js';
import { postgresBenchStore } from './bench-store.js';
import { startBenchCallbackReceiver } from './callback-receiver.js';
import type { CaseResult } from './case-result.js';
import { runLoad } from './load-run.js';
import type { LoadSample } from './load-run.js';
import { serverResidentBytes } from './server-memory.js';
import { serviceEnvironment } from './service-environment.js';
import { startServiceProcess } from './service-process.js';
import type { ServiceProcess } from './service-process.js';
import { median } from './statistics.js';

export const largeSendCaseId = 'send-airtime-1000';
export const concurrentSendsCaseId = 'send-airtime-bulk';

const largeSendRecipients = 1_000;
const concurrentCallers = 20;
const recipientsPerSend = 100;

interface Service {
  readonly server: ServiceProcess;
  readonly worker: ServiceProcess;
  readonly callers: readonly BenchCaller[];
}

/** A fresh schema with `callers` funded callers, a server and a worker; removed after `use`. */
async function withService<T>(
  options: BenchOptions,
  callers: number,
  callbackUrl: string | undefined,
  use: (service: Service) => Promise<T>,
): Promise<T> {
  const store = postgresBenchStore(options.databaseUrl);
  try {
    const opened = await store.open();
    const seeded: BenchCaller[] = [];
    try {
      for (let index = 0; index < callers; index += 1) {
        seeded.push(
          await createBenchCaller(opened, {
            name: `Bench Rewards ${index + 1}`,
            ...(callbackUrl === undefined ? {} : { callbackUrl }),
          }),
        );
      }
    } finally {
      await opened.close();
    }
    const env = { ...serviceEnvironment, ...store.env, SIMULATOR_DELAY_MS: '0' };
    const profiling = { cpuProfileDir: options.cpuProfileDir };
    const server = await startServiceProcess('server', env, profiling);
    const worker = await startServiceProcess('worker', env, profiling).catch(async (error: unknown) => {
      await server.stop();
      throw error;
    });
    try {
      return await use({ server, worker, callers: seeded });
    } finally {
      await Promise.all([server.stop(), worker.stop()]);
    }
  } finally {
    await store.remove();
  }
}

/** One caller's 1,000-recipient sends, one after another; the median time to the answer. */
export async function runLargeSendCase(options: BenchOptions): Promise<CaseResult> {
  const requests = options.smoke ? 2 : 15;
  return withService(options, 1, undefined, async ({ server, callers }) => {
    const [caller] = callers;
    if (caller === undefined) throw new Error('Expected a seeded caller, found none.');
    const send = (amount: number) =>
      runLoad({
        url: server.url,
        request: sendAirtimeRequest(caller.token, largeSendRecipients),
        connections: 1,
        durationSeconds: 0,
        amount,
      });
    if (options.warmupSeconds > 0) await send(3);
    const runs: LoadSample[] = [];
    for (let run = 0; run < options.runs; run += 1) {
      const sample = await send(requests);
      runs.push({ ...sample, requestsPerSecond: sample.requestsPerSecond * largeSendRecipients });
    }
    return {
      id: largeSendCaseId,
      title: `send_airtime, ${largeSendRecipients} recipients per request, one at a time, PostgreSQL`,
      unit: 'recipients/s',
      perSecond: median(runs.map((run) => run.requestsPerSecond)),
      p50Ms: median(runs.map((run) => run.p50Ms)),
      p99Ms: median(runs.map((run) => run.p99Ms)),
      errors: runs.reduce((sum, run) => sum + run.errors, 0),
      serverRssBytes: await serverResidentBytes(server.url),
      runs,
    };
  });
}

/** Time for `count` callbacks to arrive, generously: a broken pipeline is reported, not waited on forever. */
function patienceMs(count: number): number {
  return 30_000 + count * 5;
}

/** 20 callers sending 100-recipient requests at once; recipients accepted per second, then every callback. */
export async function runConcurrentSendsCase(options: BenchOptions): Promise<CaseResult> {
  const sendsPerCaller = options.smoke ? 2 : 25;
  const receiver = await startBenchCallbackReceiver();
  try {
    return await withService(options, concurrentCallers, receiver.url, async ({ server, callers }) => {
      const round = async (sends: number) => {
        receiver.reset();
        const startedAt = Date.now();
        const samples = await Promise.all(
          callers.map((caller) =>
            runLoad({
              url: server.url,
              request: sendAirtimeRequest(caller.token, recipientsPerSend),
              connections: 1,
              durationSeconds: 0,
              amount: sends,
            }),
          ),
        );
        const answeredAt = Date.now();
        const accepted = samples.reduce((sum, sample) => sum + sample.succeeded, 0) * recipientsPerSend;
        const delivered = await receiver.waitFor(accepted, patienceMs(accepted));
        const lastArrival = Math.max(...receiver.arrivals.values());
        const errors = samples.reduce((sum, sample) => sum + sample.errors, 0);
        const sample: LoadSample = {
          requestsPerSecond: accepted / ((answeredAt - startedAt) / 1000),
          p50Ms: median(samples.map((entry) => entry.p50Ms)),
          p99Ms: median(samples.map((entry) => entry.p99Ms)),
          errors: errors + (delivered ? 0 : accepted - receiver.arrivals.size),
          succeeded: accepted,
          statusCodes: {},
        };
        return { sample, endToEnd: receiver.arrivals.size / ((lastArrival - startedAt) / 1000) };
      };
      if (options.warmupSeconds > 0) await round(2);
      const rounds: { sample: LoadSample; endToEnd: number }[] = [];
      for (let run = 0; run < options.runs; run += 1) rounds.push(await round(sendsPerCaller));
      const runs = rounds.map((entry) => entry.sample);
      const endToEnd = median(rounds.map((entry) => entry.endToEnd));
      return {
        id: concurrentSendsCaseId,
        title: `send_airtime, ${concurrentCallers} callers × ${recipientsPerSend} recipients per request, PostgreSQL`,
        unit: 'recipients/s',
        perSecond: median(runs.map((run) => run.requestsPerSecond)),
        p50Ms: median(runs.map((run) => run.p50Ms)),
        p99Ms: median(runs.map((run) => run.p99Ms)),
        errors: runs.reduce((sum, run) => sum + run.errors, 0),
        serverRssBytes: await serverResidentBytes(server.url),
        runs,
        details: { endToEndRecipientsPerSecond: endToEnd, repeatedCallbacks: receiver.repeats },
        note:
          `${concurrentSendsCaseId}: recipients accepted per second while ${concurrentCallers} callers send; ` +
          `every recipient's callback then arrived, ${Math.round(endToEnd)} recipients/s from the first ` +
          `request to the last callback (median of the runs).`,
      };
    });
  } finally {
    await receiver.close();
  }
}
