// The worker library's surface: the worker itself, submission within a time limit (also used by the server
// within a request), the callback URL policy (also used by the server when an endpoint is registered), and
// the test callback (sent by the server through the very attempt the worker makes).

export { startWorker } from './start-worker.js';
export type { RunningWorker, StartWorkerOptions } from './start-worker.js';
export type { WorkerSettings } from './worker-settings.js';
export { SUBMISSION_MARGIN_MS } from './worker-settings.js';
export { checkCallbackUrl } from './callback-url-policy.js';
export type {
  CallbackUrlCheck,
  CallbackUrlPolicy,
  HostResolver,
  ResolvedAddress,
} from './callback-url-policy.js';
export { STANDARD_WEBHOOKS_RETRY_SCHEDULE_SECONDS } from './delivery/retry-schedule.js';
export { sendTestCallback } from './delivery/test-callback.js';
export type { TestCallbackInput, TestCallbackResult } from './delivery/test-callback.js';
export { holdUnknownSubmission, submitWithin } from './submit-within.js';
