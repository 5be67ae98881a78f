// Public API of @topup/providers: the interface every money network and airtime carrier sits behind, and
// the sandbox simulator that plays all of them.

export type { Provider, ProviderResult, ProviderStatus, SubmitResult } from './provider.js';
export { createSandboxSimulator } from './sandbox-simulator.js';
export type { SandboxSimulatorOptions } from './sandbox-simulator.js';
export { sandboxOutcome } from './sandbox-outcomes.js';
export type { SandboxOutcome } from './sandbox-outcomes.js';
export { migrateSandboxSimulator } from './simulator-migrations.js';
