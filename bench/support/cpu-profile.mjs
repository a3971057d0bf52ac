// Where a page's main thread spent its time: a CPU profile (CDP `Profiler`) summed by function,
// minified positions mapped back to the sources through the build's source maps.
import fs from 'node:fs';
import path from 'node:path';
import { TraceMap, originalPositionFor } from '@jridgewell/trace-mapping';

/** Starts sampling on a CDP session (every `intervalUs` µs). */
export async function startProfile(cdp, intervalUs = 500) {
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: intervalUs });
  await cdp.send('Profiler.start');
}

/**
 * Stops sampling and answers the `top` functions by self time (ms), each as
 * `ms  source:line name` (the original source when `distDir` has the script's map), the
 * self time by source file, and the app's own functions (sources under `src/`) by total time —
 * their self time and everything they called (a component: its render and what it calls).
 */
export async function stopProfile(cdp, distDir, top = 25) {
  const { profile } = await cdp.send('Profiler.stop');
  const self = new Map();
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < profile.samples.length; i++) {
    const node = byId.get(profile.samples[i]);
    const ms = (deltas[i + 1] ?? deltas[i] ?? 0) / 1000;
    self.set(node, (self.get(node) ?? 0) + ms);
  }
  const maps = new Map();
  const mapFor = (url) => {
    if (!url || !distDir) return null;
    if (maps.has(url)) return maps.get(url);
    let map = null;
    try {
      const file = path.join(distDir, new URL(url).pathname);
      map = new TraceMap(fs.readFileSync(`${file}.map`, 'utf8'));
    } catch {
      map = null;
    }
    maps.set(url, map);
    return map;
  };
  const totals = new Map();
  const files = new Map();
  let all = 0;
  const keys = new Map();
  const parents = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node);
  const placeOf = (node) => {
    if (keys.has(node)) return keys.get(node);
    const { functionName, url, lineNumber, columnNumber } = node.callFrame;
    let where = url ? `${new URL(url).pathname.split('/').pop()}:${lineNumber + 1}` : '';
    let name = functionName || '(anonymous)';
    const map = mapFor(url);
    if (map) {
      const original = originalPositionFor(map, { line: lineNumber + 1, column: columnNumber });
      if (original.source) {
        where = `${original.source.replace(/^(\.\.\/)+/, '').replace(/^node_modules\//, '')}:${original.line}`;
        if (original.name) name = original.name;
      }
    }
    const place = { key: `${where} ${name}`.trim(), where, name };
    keys.set(node, place);
    return place;
  };
  // Total time of the app's functions: each sample counts once for every one on its stack.
  const inclusive = new Map();
  for (const [node, ms] of self) {
    const seen = new Set();
    for (let at = node; at; at = parents.get(at.id)) {
      const { key } = placeOf(at);
      if (seen.has(key) || !/(^|\/)src\//.test(key) || key.includes('node_modules')) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + ms);
    }
  }
  for (const [node, ms] of self) {
    all += ms;
    const { key, where, name } = placeOf(node);
    totals.set(key, (totals.get(key) ?? 0) + ms);
    const file = where ? where.replace(/:\d+$/, '') : name;
    files.set(file, (files.get(file) ?? 0) + ms);
  }
  const list = (map, count) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([key, ms]) => `${ms.toFixed(1).padStart(8)} ms  ${key}`);
  return { totalMs: all, lines: list(totals, top), files: list(files, 15), app: list(inclusive, top) };
}
