// The input fields operator functions share, and the lines the CLI prints for a page of a listing.

import { z } from 'zod';

export const id = z.string().trim().min(1).max(100);
export const optionalText = z.string().trim().max(200).optional();
export const channel = z.enum(['float', 'airtime']);
export const cursor = z.string().max(200).optional();
export const email = z.string().trim().min(1).max(254);

/** A listing's lines for a person, the empty text when there are none, and how to ask for more. */
export function pageLines(lines: readonly string[], empty: string, nextCursor = ''): string {
  if (lines.length === 0) return empty;
  return lines.join('\n') + (nextCursor === '' ? '' : `\nMore: --cursor ${nextCursor}`);
}
