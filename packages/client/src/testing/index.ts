// Test helpers for code that drives the client against a service: a proxy that drops or rewrites answers,
// scripted envelope answers, and waits. Not published; the workspace's own end-to-end tests use them.

export { startFaultyProxy } from './faulty-proxy.js';
export type { FaultyProxy, ProxiedRequest, ProxyAction } from './faulty-proxy.js';
export { envelopeReply } from './scripted-server.js';
export { eventually } from './eventually.js';
export { rejectionOf } from './rejection.js';
