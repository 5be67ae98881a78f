// The report of a run: the table (each case as a ratio to the baseline) and the target checks, as text for
// the terminal and as Markdown for docs/benchmarks.md, plus the JSON kept in bench/results.

import { mkdir, readFile } from 'node:fs/promises';
import { writeFormattedFile } from './formatted-file.js';
import type { CaseResult } from './case-result.js';
import type { Machine } from './machine.js';
import type { TargetCheck } from './targets.js';

export interface BenchReport {
  readonly startedAt: string;
  readonly command: string;
  readonly machine: Machine;
  readonly settings: Readonly<Record<string, unknown>>;
  readonly results: readonly CaseResult[];
  readonly targets: readonly TargetCheck[];
}

const megabyte = 1024 * 1024;

function rows(results: readonly CaseResult[]): string[][] {
  const baseline = results.find((result) => result.id === 'baseline');
  return results.map((result) => [
    result.id,
    `${Math.round(result.perSecond).toLocaleString('en-GB')} ${result.unit}`,
    baseline === undefined || result.unit !== baseline.unit
      ? '–'
      : `${((result.perSecond / baseline.perSecond) * 100).toFixed(1)} %`,
    result.p50Ms.toFixed(1),
    result.p99Ms.toFixed(1),
    String(result.errors),
    result.serverRssBytes === undefined ? '–' : `${Math.round(result.serverRssBytes / megabyte)} MB`,
  ]);
}

const headings = ['case', 'median rate', 'of baseline', 'p50 ms', 'p99 ms', 'errors', 'server RSS'];

/** The table as aligned plain text. */
export function textTable(results: readonly CaseResult[]): string {
  const table = [headings, ...rows(results)];
  const widths = headings.map((_, column) => Math.max(...table.map((row) => (row[column] ?? '').length)));
  return table
    .map((row) => row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  '))
    .join('\n');
}

/** The target checks as plain text lines. */
export function textTargets(checks: readonly TargetCheck[]): string {
  return checks
    .map((check) => `${check.met ? 'met ' : 'MISSED'} ${check.target}: ${check.measured}`)
    .join('\n');
}

/** The cases' notes (what they measured beyond the table), one paragraph each; empty when none has one. */
export function textNotes(results: readonly CaseResult[]): string {
  return results.flatMap((result) => (result.note === undefined ? [] : [result.note])).join('\n\n');
}

function markdownRow(cells: readonly string[]): string {
  return `| ${cells.join(' | ')} |`;
}

/** The table, the targets and the machine, as the Markdown kept between the markers of docs/benchmarks.md. */
export function markdownReport(report: BenchReport): string {
  const { machine } = report;
  return [
    `Last full run: ${report.startedAt}, \`${report.command}\`.`,
    '',
    `Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB; ${machine.os}; Node.js ` +
      `${machine.node}; PostgreSQL ${machine.postgres}. Load average at the start: ` +
      `${machine.loadAverage.join(', ')} (work outside the benchmark on the same cores lowers the figures).`,
    '',
    markdownRow(headings),
    markdownRow(headings.map(() => '---')),
    ...rows(report.results).map(markdownRow),
    '',
    ...report.results.flatMap((result) => (result.note === undefined ? [] : [result.note, ''])),
    markdownRow(['target', 'measured', 'met']),
    markdownRow(['---', '---', '---']),
    ...report.targets.map((check) =>
      markdownRow([check.target, check.measured, check.met ? 'yes' : '**no**']),
    ),
  ].join('\n');
}

const startMarker = '<!-- bench:results:start -->';
const endMarker = '<!-- bench:results:end -->';

/** Replaces the generated part of the Markdown file (between its markers) with the report. */
export async function updateMarkdown(file: URL, report: BenchReport): Promise<void> {
  const text = await readFile(file, 'utf8');
  const start = text.indexOf(startMarker);
  const end = text.indexOf(endMarker);
  if (start === -1 || end < start) {
    throw new Error(`Expected ${file.pathname} to hold ${startMarker} … ${endMarker}, found none.`);
  }
  const updated = `${text.slice(0, start + startMarker.length)}\n${markdownReport(report)}\n${text.slice(end)}`;
  await writeFormattedFile(file, updated);
}

/**
 * Writes the report as JSON into `folder` (created if missing), twice: `latest.json`, which the soak reads,
 * and a file named after the run's start, kept as the history of full runs. Returns both paths.
 */
export async function writeJsonReport(folder: URL, report: BenchReport): Promise<URL[]> {
  await mkdir(folder, { recursive: true });
  const text = `${JSON.stringify(report, null, 2)}\n`;
  const stamp = report.startedAt.replaceAll(':', '-').replace(/\.\d+Z$/, 'Z');
  const files = [new URL('latest.json', folder), new URL(`${stamp}.json`, folder)];
  for (const file of files) await writeFormattedFile(file, text);
  return files;
}
