#!/usr/bin/env node
// Where a server's CPU went, from a .cpuprofile (bench/support/server-cpu-profile.mjs writes them):
//
//   node bench/support/profile-summary.mjs <file.cpuprofile> [--top 25] [--from s] [--to s]
//
// Each sample's time goes to the innermost frame that is ours or a package's (Node's own
// JavaScript — streams, timers, http — is passed through to its caller, so a socket write
// counts for whoever wrote), and that frame's place gives the group: a file of
// apps/server/src (found through dist/server.js.map), or a package of node_modules; Node's
// work with no such frame above it (a corked HTTP write sent on the next tick, the socket
// reads of the HTTP client) is named by what it is. The native socket writes are shown apart,
// by the group that wrote. Idle time is left out. V8 samples on a wall clock: a thread that
// waits for a core inside a system call (after waking the reader of a socket) is counted there.
import fs from 'node:fs';
import path from 'node:path';
import { SourceMap } from 'node:module';

/** Packages and source folders gathered under one name in the summary. */
const GROUPS = [
  [/^src\/modules\/chats\//, 'modules/chats (our chat code)'],
  [/^src\/providers\/llm\/|^node_modules\/eventsource-parser\//, 'providers/llm (model stream parsing)'],
  [/^src\/providers\/pubsub\//, 'pub/sub'],
  [/^src\/lib\/group-commit/, 'lib/group-commit'],
  [/^src\/db\//, 'db/ (our statements)'],
  [/^node_modules\/postgres\//, 'pg driver (postgres.js)'],
  [/^node_modules\/drizzle-orm\//, 'drizzle-orm'],
  [
    /^node_modules\/(fastify|@fastify\/[^/]+|find-my-way|avvio|light-my-request|fast-json-stringify|fast-querystring|secure-json-parse)\//,
    'fastify',
  ],
  [/^node_modules\/pg-boss\//, 'pg-boss (job queue)'],
  [/^node_modules\/(pino|pino-std-serializers|sonic-boom|thread-stream)\//, 'logging (pino)'],
  [/^node_modules\/(zod|@reverie\/shared)\/|^\.\.\/\.\.\/packages\/shared\//, 'validation (zod, shared contract)'],
  [/^src\//, 'other app code'],
  [/^node_modules\//, 'other packages'],
];
const NATIVE_WRITES = new Set(['writev', 'writeUtf8String', 'writeBuffer', 'writeLatin1String', 'writeAsciiString']);

const args = process.argv.slice(2);
const file = args.find((arg) => !arg.startsWith('--'));
if (!file) {
  console.error('usage: node bench/support/profile-summary.mjs <file.cpuprofile> [--top N] [--from s] [--to s]');
  process.exit(2);
}
const option = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const TOP = option('--top', 25);
/** Only the samples between these seconds after the profile's start (`--from 10 --to 90`). */
const FROM_US = option('--from', 0) * 1e6;
const TO_US = option('--to', Infinity) * 1e6;
const profile = JSON.parse(fs.readFileSync(file, 'utf8'));

const maps = new Map();
/** The source map of a bundled file (file:// URL), or null. */
function mapOf(url) {
  if (!maps.has(url)) {
    let map = null;
    try {
      const filePath = new URL(url).pathname;
      map = { map: new SourceMap(JSON.parse(fs.readFileSync(`${filePath}.map`, 'utf8'))), dir: path.dirname(filePath) };
    } catch {
      // not ours, or no map
    }
    maps.set(url, map);
  }
  return maps.get(url);
}

/** Where a frame lives: `src/…:line` for ours, `node_modules/<pkg>/…`, `node:…`, or '' (native). */
function placeOf(callFrame) {
  const { url, lineNumber, columnNumber } = callFrame;
  if (!url) return '';
  if (url.startsWith('node:')) return url;
  // Packages keep their own names (some ship source maps of their own, which would hide them).
  const mapped = url.startsWith('file:') && !url.includes('/node_modules/') ? mapOf(url) : null;
  if (mapped) {
    const entry = mapped.map.findEntry(lineNumber, columnNumber);
    if (entry?.originalSource) {
      const source = entry.originalSource.replace(/^file:\/\//, '');
      const relative = path.relative(path.resolve(mapped.dir, '..'), path.resolve(mapped.dir, source));
      return `${relative}:${entry.originalLine + 1}`;
    }
  }
  const at = url.lastIndexOf('node_modules/');
  return at >= 0 ? url.slice(at) : url.replace(/^file:\/\//, '');
}

/** The group of a place; the rest of ours by folder, other packages by name. */
function groupOf(place) {
  const group = GROUPS.find(([pattern]) => pattern.test(place))?.[1] ?? null;
  if (group === 'other app code')
    return `other app code: ${place.split('/').slice(1, 3).join('/').replace(/:\d+$/, '')}`;
  if (group === 'other packages') return `package ${/^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(place)[1]}`;
  return group;
}

/** Node's own work with no frame of ours above it, named by the first of these its stack holds. */
const NODE_WORK = [
  [
    (f) => f.functionName === 'connectionCorkNT' || f.url === 'node:_http_outgoing',
    'Node: HTTP writes (corked, sent on the next tick)',
  ],
  [
    (f) => f.url === 'node:_http_client' || f.functionName === 'parserOnBody',
    "Node: HTTP client (reading the model's stream)",
  ],
  [(f) => f.url === 'node:_http_server', 'Node: HTTP server (reading requests)'],
  [(f) => f.url === 'node:internal/timers', 'Node: timers'],
  [(f) => f.url === 'node:internal/streams/readable' || f.url === 'node:net', 'Node: streams and sockets'],
  [(f) => f.functionName === 'runMicrotasks', 'Node: promise jobs (async code resuming)'],
];

const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const owner = new Map();
/** The group of the innermost frame at or above `id` that is ours or a package's. */
function ownerOf(id) {
  if (owner.has(id)) return owner.get(id);
  const node = byId.get(id);
  const group = groupOf(placeOf(node.callFrame));
  const result = group ?? (parent.has(id) ? ownerOf(parent.get(id)) : null);
  owner.set(id, result);
  return result;
}

function nodeWorkOf(id) {
  const frames = [];
  for (let at = id; at !== undefined; at = parent.get(at)) frames.push(byId.get(at).callFrame);
  return NODE_WORK.find(([test]) => frames.some(test))?.[1] ?? 'Node: other';
}

const self = new Map();
let at = 0;
for (let i = 0; i < profile.samples.length; i++) {
  at += profile.timeDeltas[i];
  if (at < FROM_US || at > TO_US) continue;
  const id = profile.samples[i];
  self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0));
}

let busy = 0;
const groups = new Map();
const writes = new Map();
const functions = new Map();
const add = (map, key, us) => map.set(key, (map.get(key) ?? 0) + us);
for (const [id, us] of self) {
  const { callFrame } = byId.get(id);
  const name = callFrame.functionName;
  if (name === '(idle)') continue;
  busy += us;
  let group;
  if (name === '(garbage collector)') group = 'garbage collection';
  else if (name === '(program)') group = '(program): V8 and libuv outside JavaScript';
  else group = ownerOf(id) ?? nodeWorkOf(id);
  if (NATIVE_WRITES.has(name)) add(writes, group, us);
  add(groups, group, us);
  add(functions, `${name || '(anonymous)'} ${placeOf(callFrame) || '(native)'}`, us);
}

const wall = Math.min(TO_US, profile.endTime - profile.startTime) / 1000 - FROM_US / 1000;
const pct = (us) => `${((100 * us) / busy).toFixed(1)} %`.padStart(7);
const ms = (us) => `${(us / 1000).toFixed(0)} ms`.padStart(9);
console.log(`${path.basename(file)}: ${(busy / 1000).toFixed(0)} ms busy of ${wall.toFixed(0)} ms sampled\n`);
console.log('By group (a sample counts for the innermost frame of ours or of a package):');
for (const [group, us] of [...groups].sort((a, b) => b[1] - a[1]))
  console.log(
    `${ms(us)} ${pct(us)}  ${group}${writes.has(group) ? ` — of which socket writes ${pct(writes.get(group)).trim()}` : ''}`,
  );
console.log(`\nTop ${TOP} functions by self time:`);
for (const [fn, us] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, TOP))
  console.log(`${ms(us)} ${pct(us)}  ${fn}`);
