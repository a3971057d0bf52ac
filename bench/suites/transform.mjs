// The image style transform's embedded engine (apps/server/src/modules/transforms/styles,
// sharp/libvips, loaded with tsx): the time of one transform per style for a photo 1024 px on
// its longer side and for a 4-megapixel photo (2000 × 2000, decoded and reduced to 1024 px
// first), then how many transforms one process sustains per minute with as many at once as
// the machine has cores (styles in turn), and the event loop's longest delay meanwhile (the
// work runs on libuv's threads: the loop stays free to answer requests). The database, the
// ledger and the job queue are not included (the `unblur` suite measures such statements).
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { serverSources } from '../support/server-sources.mjs';
import { median } from '../support/stats.mjs';

export const name = 'transform';
export const description = 'style transform per style at 1024 px and 4 MP, transforms per minute (sharp engine)';
export const order = 72;

const ROUNDS = Number(process.env.BENCH_TRANSFORM_ROUNDS ?? 2);
const SUSTAIN_MS = Number(process.env.BENCH_DURATION_S ?? 30) * 1000;

/** @param {{ repoRoot: string, log: Function }} ctx */
export async function run({ repoRoot, log }) {
  const load = await serverSources(repoRoot);
  const { renderStyle } = await load('src/modules/transforms/styles/index.ts');
  const { makeTestPhoto } = await load('test/fixtures/transform-photo.ts');
  const { TRANSFORM_STYLES } = await load('../../packages/shared/src/constants.ts');

  const photos = {
    '1024 px': await makeTestPhoto(820, 1024),
    '4 MP': await makeTestPhoto(2000, 2000),
  };
  // Warm-up: libvips' first operations load code and fill caches.
  await renderStyle(photos['1024 px'], 'vintage');

  const measurements = [];
  for (const [size, photo] of Object.entries(photos)) {
    const all = [];
    for (const style of TRANSFORM_STYLES) {
      const times = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const started = performance.now();
        await renderStyle(photo, style);
        times.push(performance.now() - started);
      }
      const ms = median(times);
      all.push(ms);
      log(`${size} ${style}: ${ms.toFixed(0)} ms`);
      measurements.push({ label: `${style} at ${size}`, value: ms, unit: 'ms' });
    }
    measurements.push({
      label: `slowest style at ${size}`,
      value: Math.max(...all),
      unit: 'ms',
      // A user waits for it while watching the progress: a few seconds at most.
      target: { max: size === '4 MP' ? 8000 : 6000 },
    });
  }

  // Sustained: as many transforms at once as there are cores, styles in turn, 1024 px photos.
  const cores = os.availableParallelism?.() ?? os.cpus().length;
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  let done = 0;
  let next = 0;
  const deadline = performance.now() + SUSTAIN_MS;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: cores }, async () => {
      while (performance.now() < deadline) {
        const style = TRANSFORM_STYLES[next++ % TRANSFORM_STYLES.length];
        await renderStyle(photos['1024 px'], style);
        done += 1;
      }
    }),
  );
  loop.disable();
  const minutes = (performance.now() - started) / 60_000;
  measurements.push({
    label: `transforms per minute (${cores} at once, ${cores} cores)`,
    value: done / minutes,
    unit: '/min',
    target: { min: 10 },
  });
  measurements.push({
    label: 'event loop delay, longest, while transforming',
    value: loop.max / 1e6,
    unit: 'ms',
    target: { max: 200 },
    note: 'the pixels are worked on libuv threads, not the event loop',
  });
  return measurements;
}
