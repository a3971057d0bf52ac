#!/usr/bin/env node
// `npm run bench`: runs every benchmark suite in bench/suites/ (or the ones named on the
// command line: `npm run bench -- landing-js cold-start`) against the built app, prints each
// figure with its target, and saves the figures to bench/results/<time>.json.
//
// A suite is a module exporting `name`, `description` and `run(ctx)`, which returns a list
// of measurements (see bench/README.md). Add a file to bench/suites/ to add a benchmark.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { waitIdle } from './support/process-idle.mjs';
import { ensureBuilt, makeDataDir, repoRoot, startServer } from '../e2e/support/app-server.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const suitesDir = path.join(here, 'suites');
const args = process.argv.slice(2);
const strict = args.includes('--strict');
const wanted = args.filter((arg) => !arg.startsWith('--'));

/** @typedef {{ max?: number, min?: number }} Target */
/**
 * @typedef {object} Measurement
 * @property {string} label
 * @property {number} value
 * @property {string} unit
 * @property {Target} [target]   a figure with a target passes or misses it
 * @property {string} [note]
 */

function formatValue(value, unit) {
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return `${value.toFixed(digits)} ${unit}`;
}

function verdict(measurement) {
  const { target, value } = measurement;
  if (!target) return { text: '', ok: true };
  const ok = (target.max === undefined || value <= target.max) && (target.min === undefined || value >= target.min);
  const bound =
    target.max !== undefined
      ? `≤ ${formatValue(target.max, measurement.unit)}`
      : `≥ ${formatValue(target.min, measurement.unit)}`;
  return { text: `target ${bound}  ${ok ? 'PASS' : 'MISS'}`, ok };
}

async function loadSuites() {
  const files = fs
    .readdirSync(suitesDir)
    .filter((file) => file.endsWith('.mjs'))
    .sort();
  const suites = [];
  for (const file of files) {
    const suite = await import(pathToFileURL(path.join(suitesDir, file)).href);
    if (typeof suite.run !== 'function') throw new Error(`${file} does not export run(ctx)`);
    suites.push({
      name: suite.name ?? path.basename(file, '.mjs'),
      description: suite.description ?? '',
      order: suite.order ?? 50,
      run: suite.run,
    });
  }
  suites.sort((a, b) => a.order - b.order || a.name.localeCompare(b.name));
  const unknown = wanted.filter((name) => !suites.some((suite) => suite.name === name));
  if (unknown.length)
    throw new Error(`unknown suite(s): ${unknown.join(', ')} (have: ${suites.map((s) => s.name).join(', ')})`);
  return wanted.length ? suites.filter((suite) => wanted.includes(suite.name)) : suites;
}

async function main() {
  const suites = await loadSuites();
  const log = (message) => console.log(`  … ${message}`);
  if (ensureBuilt({ log })) log('build done');
  const cpus = os.cpus();
  const load = os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
  // Figures are only comparable on an idle machine: the load average shows whether it was.
  console.log(
    `Reverie benchmarks — node ${process.version}, ${cpus.length} × ${cpus[0]?.model ?? 'cpu'}, ${os.platform()}, load ${load}\n`,
  );

  /**
   * The toolbox every suite gets. A server it starts is returned once it is idle (its start-up
   * work, such as drawing the catalogue's pictures, done), unless asked `{ waitIdle: false }`.
   */
  const startIdleServer = async (options = {}) => {
    const server = await startServer(options);
    if (options.waitIdle !== false) await waitIdle(server.child.pid, log);
    return server;
  };
  const ctx = { repoRoot, startServer: startIdleServer, makeDataDir, log };
  const report = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: cpus.length,
    loadavg: os.loadavg(),
    suites: {},
  };
  let missed = 0;
  let failed = 0;

  for (const suite of suites) {
    console.log(`▶ ${suite.name} — ${suite.description}`);
    const started = performance.now();
    try {
      /** @type {Measurement[]} */
      const measurements = await suite.run(ctx);
      for (const m of measurements) {
        const v = verdict(m);
        if (!v.ok) missed += 1;
        console.log(
          `  ${m.label.padEnd(44)} ${formatValue(m.value, m.unit).padStart(14)}   ${v.text}${m.note ? `  (${m.note})` : ''}`,
        );
      }
      report.suites[suite.name] = measurements;
    } catch (error) {
      failed += 1;
      console.error(`  ✗ ${suite.name} failed: ${error instanceof Error ? error.stack : error}`);
      report.suites[suite.name] = { error: String(error) };
    }
    console.log(`  (${((performance.now() - started) / 1000).toFixed(1)} s)\n`);
  }

  const resultsDir = path.join(here, 'results');
  fs.mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `${report.date.replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(
    `${missed ? `${missed} figure(s) miss their target` : 'every figure meets its target'}; saved ${path.relative(process.cwd(), file)}`,
  );
  if (failed || (strict && missed)) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
