// Public API of @topup/providers: the interface every money network and airtime carrier sits behind, the
// routes from networks to providers, the sandbox simulator that plays all of them, and the inbox of results
// providers push.

export type {
  Provider,
  ProviderResult,
  ProviderStatus,
  SubmitResult,
  WebhookCall,
  WebhookEvent,
  WebhookReceiver,
  WebhookReply,
} from './provider.js';
export { createSandboxSimulator } from './sandbox-simulator.js';
export type { SandboxSimulatorOptions } from './sandbox-simulator.js';
export { sandboxOutcome } from './sandbox-outcomes.js';
export type { SandboxOutcome } from './sandbox-outcomes.js';
export { migrateProviders } from './provider-migrations.js';
export { markWebhookCallsApplied, storeWebhookCall, unappliedWebhookCalls } from './webhook-inbox.js';
export type { InboxEntry } from './webhook-inbox.js';
export { routeEveryNetworkTo, routeNetworks, unservedNetwork } from './provider-routes.js';
export type { ProviderRoutes } from './provider-routes.js';
