#!/usr/bin/env node
// The `topup` executable. The CLI is TypeScript run through tsx, so this registers tsx's loader before
// importing it; a plain `node src/cli/main.ts` would fail on Node 20. The root's `pnpm topup` finds this
// through node_modules/.bin, which (unlike a package script) prints no banner on stdout, so `--json`
// output can be piped straight into a parser.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
