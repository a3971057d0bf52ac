// `npm test`: every test, in three passes, then one summary line.
//  1. unit, route and component tests (Vitest projects shared, server, web) on PGlite;
//  2. the server suites again on PostgreSQL when DATABASE_URL is set (CI sets it);
//  3. the browser journeys in headless Chromium (e2e/), unless --no-e2e.
// `--e2e-only` runs just the journeys.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = new Set(process.argv.slice(2));
const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-test-report-'));
const totals = { passed: 0, failed: 0, skipped: 0 };
let failedPasses = [];
const failures = [];

function vitest(label, vitestArgs, env) {
  const report = path.join(reportDir, `${label}.json`);
  console.log(`\n=== ${label} ===`);
  const result = spawnSync(
    'npx',
    ['vitest', 'run', ...vitestArgs, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
    { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } },
  );
  if (fs.existsSync(report)) {
    const json = JSON.parse(fs.readFileSync(report, 'utf8'));
    totals.passed += json.numPassedTests ?? 0;
    totals.failed += json.numFailedTests ?? 0;
    totals.skipped += (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0);
    for (const file of json.testResults ?? []) {
      const rel = path.relative(root, file.name ?? '');
      const failed = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
      for (const t of failed) failures.push(`${label}: ${rel} > ${t.fullName ?? t.title}`);
      if (!failed.length && file.status === 'failed')
        failures.push(`${label}: ${rel} (${(file.message ?? 'failed').split('\n')[0]})`);
    }
  }
  if (result.status !== 0) failedPasses.push(label);
}

if (!args.has('--e2e-only')) {
  vitest('unit and route tests (PGlite)', [], { TEST_DB: 'pglite' });
  if (process.env.DATABASE_URL) {
    // Two files at a time, as the first pass: the test databases' pools close idle connections
    // after a second, which keeps two files well under PostgreSQL's default of 100 connections
    // (docs/testing.md "Why it is fast", point 4).
    vitest('server tests (PostgreSQL)', ['--project', 'server'], { TEST_DB: 'postgres' });
  } else {
    console.log('\nDATABASE_URL is not set: the PostgreSQL pass is skipped.');
  }
}
if (!args.has('--no-e2e') && fs.existsSync(path.join(root, 'e2e/vitest.config.ts'))) {
  vitest('browser journeys (Chromium)', ['--config', 'e2e/vitest.config.ts'], {});
}

fs.rmSync(reportDir, { recursive: true, force: true });
if (failures.length) console.log(`\nfailed tests:\n${failures.map((f) => `  ${f}`).join('\n')}`);
console.log(`\n${failedPasses.length ? `failed passes: ${failedPasses.join('; ')}` : 'all passes green'}`);
console.log(
  `tests: ${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`,
);
process.exit(failedPasses.length ? 1 : 0);
