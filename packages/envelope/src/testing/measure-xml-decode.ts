// Run as a child process (`node --import tsx --max-old-space-size=… measure-xml-decode.ts <file>`) by
// hostile-xml.test.ts: decodes one XML request body in a fresh process, so that the process's peak
// resident memory (`maxRSS`) reflects this one decode, and prints what it measured as one JSON line.
import { readFileSync } from 'node:fs';
import { decodeXmlRequest } from '../request-decoding.js';

/** What the child prints; sizes in bytes, time in milliseconds. */
export interface DecodeMeasurement {
  readonly ok: boolean;
  readonly problem: string;
  readonly elapsedMs: number;
  /**
   * The process's peak resident memory after the decode minus its resident memory before it: an upper
   * bound on what the decode added at its peak (if start-up peaked higher, this only overstates it).
   */
  readonly peakGrowthBytes: number;
  readonly heapUsedAfterBytes: number;
}

const path = process.argv[2];
if (path === undefined) throw new Error('Expected the path of an XML document as argument, received none.');
const document = readFileSync(path, 'utf8');

const residentBefore = process.memoryUsage.rss();
const started = performance.now();
const result = decodeXmlRequest(document);
const elapsedMs = performance.now() - started;
// resourceUsage().maxRSS is in kibibytes.
const peakAfter = process.resourceUsage().maxRSS * 1024;

const measurement: DecodeMeasurement = {
  ok: result.ok,
  problem: result.ok ? '' : result.problem,
  elapsedMs,
  peakGrowthBytes: peakAfter - residentBefore,
  heapUsedAfterBytes: process.memoryUsage().heapUsed,
};
process.stdout.write(`${JSON.stringify(measurement)}\n`);
