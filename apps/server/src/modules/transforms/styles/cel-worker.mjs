// The cel worker thread (cel-thread.ts starts it): the style engine's pixel loops (cel.mjs)
// run here, off the server's event loop. Plain JavaScript so that it starts the same from the
// sources (tests, bench) and from dist/ (build.mjs bundles it, with cel.mjs, beside server.js).
//
// Messages in:  {id, data: Uint8Array (RGB), width, height, options}
// Messages out: {id, ok: true, data: Uint8Array (RGB)} | {id, ok: false, message}
import { parentPort } from 'node:worker_threads';
import { cel } from './cel.mjs';

parentPort.on('message', ({ id, data, width, height, options }) => {
  try {
    const out = cel(data, width, height, options);
    parentPort.postMessage({ id, ok: true, data: out }, [out.buffer]);
  } catch (error) {
    parentPort.postMessage({ id, ok: false, message: error instanceof Error ? error.message : String(error) });
  }
});
