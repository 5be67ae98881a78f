// Prints the plain closing line ("N passed, N failed") from vitest's JSON report, so the CI log states
// how many tests ran whatever reporter reads it.
import { readFileSync } from 'node:fs';

const report = JSON.parse(readFileSync(process.argv[2] ?? 'test-results.json', 'utf8'));
const skipped = report.numPendingTests + report.numTodoTests;
console.log(`tests: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${skipped} skipped`);
if (report.numTotalTests === 0 || report.numFailedTests > 0) process.exit(1);
