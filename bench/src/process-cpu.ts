// CPU time a process has used, read from /proc: what `pnpm bench:cpu` and the live airtime case divide by
// the work done, since CPU per request hardly moves when other work shares the cores. Linux only.

import { readFileSync } from 'node:fs';

const clockTicksPerSecond = 100;

/** User and system CPU seconds a process has used, from /proc; 0 once it is gone (or off Linux). */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / clockTicksPerSecond;
  } catch {
    return 0;
  }
}
