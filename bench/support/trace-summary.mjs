// Where a page's main thread spent its time by the browser's own tasks (style, layout, paint,
// scripts…): a Chrome trace (CDP `Tracing`) of the renderer, its complete events' self time
// summed by name. A CPU profile (cpu-profile.mjs) sees the scripts; this sees the rest too.

const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink', 'cc'].join(',');

/** Starts tracing on a CDP session; `stopTrace` answers the summary. */
export async function startTrace(cdp) {
  const events = [];
  const onData = ({ value }) => events.push(...value);
  cdp.on('Tracing.dataCollected', onData);
  await cdp.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReportEvents' });
  return { cdp, events, onData };
}

/**
 * Stops tracing; answers the main thread's busy time (wall clock; and its CPU time a frame,
 * which the machine's load does not stretch), its self time by event name (the `top`
 * names, ms) and, per frame of `frames` frames, the mean of each and how often it ran.
 */
export async function stopTrace(tracing, frames, top = 18) {
  const main = mainThread(await endTrace(tracing));
  const self = new Map();
  const count = new Map();
  const stack = [];
  let busy = 0;
  let cpu = 0;
  for (const event of main) {
    while (stack.length && stack.at(-1).ts + stack.at(-1).dur <= event.ts) stack.pop();
    const parent = stack.at(-1);
    if (parent) self.set(parent.name, (self.get(parent.name) ?? 0) - event.dur);
    else {
      busy += event.dur;
      cpu += event.tdur ?? 0;
    }
    self.set(event.name, (self.get(event.name) ?? 0) + event.dur);
    count.set(event.name, (count.get(event.name) ?? 0) + 1);
    stack.push(event);
  }
  const lines = [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(
      ([name, us]) =>
        `${(us / 1000).toFixed(1).padStart(9)} ms ${(us / 1000 / Math.max(1, frames)).toFixed(2).padStart(7)} ms/frame ${(count.get(name) / Math.max(1, frames)).toFixed(1).padStart(6)}×/frame  ${name}`,
    );
  return {
    busyMs: busy / 1000,
    perFrameMs: busy / 1000 / Math.max(1, frames),
    cpuPerFrameMs: cpu / 1000 / Math.max(1, frames),
    lines,
  };
}

/** Stops tracing; answers the trace's events. */
async function endTrace({ cdp, events, onData }) {
  const done = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.end');
  await done;
  cdp.off('Tracing.dataCollected', onData);
  return events;
}

/** The renderer's main thread (the busiest thread named CrRendererMain): its complete events, in order. */
function mainThread(events) {
  const mains = new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const byThread = new Map();
  for (const event of events) {
    const key = `${event.pid}:${event.tid}`;
    if (!mains.has(key) || event.ph !== 'X' || typeof event.dur !== 'number') continue;
    if (!byThread.has(key)) byThread.set(key, []);
    byThread.get(key).push(event);
  }
  let main = [];
  for (const list of byThread.values()) if (list.length > main.length) main = list;
  return main.sort((a, b) => a.ts - b.ts || b.dur - a.dur);
}

/**
 * Stops tracing; answers the main thread's tasks of `minMs` or more as lines, in order: when
 * each began (ms after the first event traced), how long it ran, and the longest events within
 * it (a script's file, a function's name) — where a page load's time goes, task by task.
 */
export async function stopTraceTasks(tracing, minMs = 8) {
  const main = mainThread(await endTrace(tracing));
  if (main.length === 0) return [];
  const start = main[0].ts;
  const lines = [];
  for (const task of main) {
    if (task.name !== 'RunTask' || task.dur < minMs * 1000) continue;
    const end = task.ts + task.dur;
    const inside = main
      .filter((e) => e !== task && e.name !== 'RunTask' && e.ts >= task.ts && e.ts + e.dur <= end && e.dur >= 3000)
      .sort((a, b) => b.dur - a.dur)
      .slice(0, 5)
      .map((e) => {
        const file = e.args?.data?.url?.split('/').pop();
        const fn = e.args?.data?.functionName;
        return `${e.name}${file ? ` ${file}` : ''}${fn ? ` ${fn}()` : ''} ${(e.dur / 1000).toFixed(0)}`;
      });
    lines.push(
      `${((task.ts - start) / 1000).toFixed(0).padStart(6)} ms ${(task.dur / 1000).toFixed(0).padStart(5)} ms  ${inside.join('; ')}`,
    );
  }
  return lines;
}
