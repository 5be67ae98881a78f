// Fakes of real providers over real HTTP on loopback, written from their documentation: what tests and
// `pnpm start:fakes` run the service against, since the real providers cannot be reached from a test.

export { startFakeDaraja } from './fake-daraja.js';
export type {
  FakeB2bPayment,
  FakeDaraja,
  FakeDarajaOptions,
  FakeDarajaRequest,
  FakeReversal,
  FakeStkPrompt,
} from './fake-daraja.js';
export { passwordInCredential } from './security-credential-check.js';
export { stkScriptFor } from './fake-stk-scripts.js';
export type { StkDelivery, StkScript } from './fake-stk-scripts.js';
export { b2bScriptFor } from './fake-b2b-scripts.js';
export type { B2bScript } from './fake-b2b-scripts.js';
export { startFakeAfricasTalking } from './fake-africastalking.js';
export type {
  FakeAfricasTalking,
  FakeAfricasTalkingCallback,
  FakeAfricasTalkingOptions,
  FakeAfricasTalkingRequest,
  FakeAirtimeDelivery,
} from './fake-africastalking.js';
export { airtimeScriptFor } from './fake-airtime-scripts.js';
export type { AirtimeScript } from './fake-airtime-scripts.js';
export { startLiveFakes } from './live-fakes.js';
export type { LiveFakes, LiveFakesOptions } from './live-fakes.js';
