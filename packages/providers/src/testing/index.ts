// Test helpers for providers and for the code that drives them.

export { requestAirtime, requestFloat } from './recorded-transactions.js';
