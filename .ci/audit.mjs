// CI's dependency audit: `pnpm audit --prod`. An advisory at or above AUDIT_LEVEL (default high) fails the
// build, and every advisory found is printed with the package, its installed versions, how it is reached
// and the advisory's address. A registry that does not answer the audit (offline, or a mirror without the
// audit endpoint) is reported and does not fail the build: nothing was learnt either way.
import { spawnSync } from 'node:child_process';

const levels = ['info', 'low', 'moderate', 'high', 'critical'];
const threshold = process.env.AUDIT_LEVEL ?? 'high';
if (!levels.includes(threshold)) {
  console.error(`audit: expected AUDIT_LEVEL to be one of ${levels.join(', ')}, received ${threshold}`);
  process.exit(2);
}

const run = spawnSync('pnpm', ['audit', '--prod', '--json'], { encoding: 'utf8', timeout: 120_000 });

function unanswered(reason) {
  console.log(`audit: the registry did not answer the audit (${reason}); dependencies were NOT audited`);
  process.exit(0);
}

if (run.error !== undefined) unanswered(run.error.message);
let report;
try {
  report = JSON.parse(run.stdout);
} catch {
  unanswered(`no report, exit ${run.status}: ${(run.stderr || run.stdout).trim().slice(0, 300)}`);
}
if (report.error !== undefined) unanswered(`${report.error.code}: ${report.error.message}`);

const advisories = Object.values(report.advisories ?? {});
let failing = 0;
for (const advisory of advisories) {
  const fails = levels.indexOf(advisory.severity) >= levels.indexOf(threshold);
  if (fails) failing += 1;
  const versions = [...new Set((advisory.findings ?? []).map((finding) => finding.version))].join(', ');
  const path = advisory.findings?.[0]?.paths?.[0] ?? advisory.module_name;
  console.log(
    `audit: ${fails ? 'FAIL' : 'note'} ${advisory.module_name}@${versions} (${advisory.severity}): ` +
      `${advisory.title}; vulnerable ${advisory.vulnerable_versions}; via ${path}; ${advisory.url}`,
  );
}
console.log(
  `audit: ${advisories.length} advisories in production dependencies, ${failing} at or above ${threshold}`,
);
process.exit(failing > 0 ? 1 : 0);
