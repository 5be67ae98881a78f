// The configuration every service child runs with: sandbox mode, logs on at info (to a file), a rate limit
// far above anything one run can send, so the limiter is exercised but never refuses, and callbacks allowed
// to the harness's receiver on loopback (a worker process of its own needs the opt-in for that).

export const serviceEnvironment: Readonly<Record<string, string>> = {
  TOPUP_MODE: 'sandbox',
  LOG_LEVEL: 'info',
  RATE_LIMIT_PER_SECOND: '1000000',
  RATE_LIMIT_BURST: '1000000',
  CALLBACK_ALLOW_PRIVATE_NETWORKS: 'true',
};
