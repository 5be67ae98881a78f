// The configuration every service child runs with: sandbox mode, logs on at info (to a file), and a
// rate limit far above anything one run can send, so the limiter is exercised but never refuses.

export const serviceEnvironment: Readonly<Record<string, string>> = {
  TOPUP_MODE: 'sandbox',
  LOG_LEVEL: 'info',
  RATE_LIMIT_PER_SECOND: '1000000',
  RATE_LIMIT_BURST: '1000000',
};
