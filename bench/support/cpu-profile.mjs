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
 * `ms  source:line name` (the original source when `distDir` has the script's map), and the
 * self time by source file.
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
  for (const [node, ms] of self) {
    all += ms;
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
    const key = `${where} ${name}`.trim();
    totals.set(key, (totals.get(key) ?? 0) + ms);
    const file = where ? where.replace(/:\d+$/, '') : name;
    files.set(file, (files.get(file) ?? 0) + ms);
  }
  const list = (map, count) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([key, ms]) => `${ms.toFixed(1).padStart(8)} ms  ${key}`);
  return { totalMs: all, lines: list(totals, top), files: list(files, 15) };
}
