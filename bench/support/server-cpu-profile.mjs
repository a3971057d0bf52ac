// Preloaded into the server (`NODE_OPTIONS=--import …`, which may not carry --cpu-prof) by
// suites that profile it: samples the CPU from start to exit and writes a .cpuprofile to
// $BENCH_CPU_PROF_DIR (open it in Chrome DevTools or speedscope, or summarise it with
// bench/support/profile-summary.mjs). With BENCH_CPU_PROF_FROM=signal the sampling starts at
// the process's first SIGWINCH instead, so that start-up and set-up stay out of the profile
// (not SIGUSR2: the server's close-with-grace shuts down on it; SIGWINCH is ignored by default).
import fs from 'node:fs';
import path from 'node:path';
import inspector from 'node:inspector';

const dir = process.env.BENCH_CPU_PROF_DIR;
if (dir) {
  const session = new inspector.Session();
  session.connect();
  session.post('Profiler.setSamplingInterval', { interval: 500 });
  session.post('Profiler.enable');
  if (process.env.BENCH_CPU_PROF_FROM === 'signal') process.once('SIGWINCH', () => session.post('Profiler.start'));
  else session.post('Profiler.start');
  // The server has no SIGTERM handler (the signal ends it at once, without an 'exit' event):
  // exit the same way, but through process.exit, so the profile gets written.
  process.once('SIGTERM', () => process.exit(143));
  process.on('exit', () => {
    // An in-thread session answers synchronously, so this works in an exit handler.
    session.post('Profiler.stop', (error, result) => {
      if (error) return;
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, `server-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
