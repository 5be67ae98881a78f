// Prints a configuration error as the readable list it is, and exits, instead of a stack trace.

import { ConfigError } from './config.js';
import type { Config } from './config.js';

export function exitOnConfigError(load: () => Config): Config {
  try {
    return load();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(78);
  }
}
