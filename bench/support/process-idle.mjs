// A started server is not idle yet: a first start draws the official characters' private
// pictures in the background (apps/server/src/runtime.ts, sharp's libvips threads), and other
// start-up work follows. A figure taken meanwhile measures that work, not what the suite asks.
import fs from 'node:fs';
import os from 'node:os';

/** CPU seconds (user + system, all threads) the process `pid` has used (Linux /proc; null elsewhere). */
export function cpuSeconds(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
  } catch {
    return null;
  }
}

/** Waits until `pid` uses under 5 % of a core for a second (at most 3 minutes), and says how long it took. */
export async function waitIdle(pid, log) {
  const started = performance.now();
  let last = cpuSeconds(pid);
  if (last === null) return;
  while (performance.now() - started < 180_000) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = cpuSeconds(pid);
    if (now === null || now - last < 0.05) break;
    last = now;
  }
  log(`server idle after ${((performance.now() - started) / 1000).toFixed(1)} s (load ${os.loadavg()[0].toFixed(2)})`);
}
