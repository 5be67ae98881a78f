// The worker's public surface: the worker itself, the provider interface and the sandbox simulator (also
// used by the server to submit within a request), and the callback URL policy (also used by the server
// when an endpoint is registered).

export { startWorker } from './start-worker.js';
export type { RunningWorker, StartWorkerOptions } from './start-worker.js';
export type { WorkerSettings } from './worker-settings.js';
export { checkCallbackUrl } from './callback-url-policy.js';
export type {
  CallbackUrlCheck,
  CallbackUrlPolicy,
  HostResolver,
  ResolvedAddress,
} from './callback-url-policy.js';
export { STANDARD_WEBHOOKS_RETRY_SCHEDULE_SECONDS } from './delivery/retry-schedule.js';
export type { Provider, ProviderResult, ProviderStatus, SubmitResult } from './providers/provider.js';
export { createSandboxSimulator } from './providers/sandbox-simulator.js';
export { submitWithin } from './providers/submit-within.js';
export type { SandboxSimulatorOptions } from './providers/sandbox-simulator.js';
export { sandboxOutcome } from './providers/sandbox-outcomes.js';
export type { SandboxOutcome } from './providers/sandbox-outcomes.js';
