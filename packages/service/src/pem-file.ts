// Reading a PEM file named by a variable (DARAJA_CERTIFICATE, CALLBACK_CA_FILE) at start: the text, or a
// problem the configuration lists beside every other, never a throw.

import { readFileSync } from 'node:fs';

/** The file's text, or why it cannot be read. */
export function pemFileAt(path: string): { text: string } | { problem: string } {
  try {
    return { text: readFileSync(path, 'utf8') };
  } catch (error) {
    return {
      problem: `expected a readable PEM file (${error instanceof Error ? error.message : String(error)})`,
    };
  }
}
