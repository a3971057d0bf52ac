// The picture judge's worker thread (judge-thread.ts starts it): face detection, age
// estimate and nudity classifier on tfjs's WebAssembly backend, off the server's event loop.
// Plain JavaScript so that it starts the same from the sources (tests, bench) and from dist/.
//
// Messages in:  {id, type: 'warm'} | {id, type: 'judge', pixels, width, height, minFaceScore}
// Messages out: {id, ok: true, result?, loadMs?} | {id, ok: false, message}
import { parentPort } from 'node:worker_threads';
import { judgePixels, loadModels } from './models.mjs';

let loading = null;
let loadMs = 0;

/** The models, loaded once per thread on the first job. */
function models() {
  if (!loading) {
    const started = performance.now();
    loading = loadModels({ backend: 'wasm' })
      .then((loaded) => {
        loadMs = Math.round(performance.now() - started);
        return loaded;
      })
      .catch((error) => {
        loading = null;
        throw error;
      });
  }
  return loading;
}

parentPort.on('message', async (message) => {
  const { id } = message;
  try {
    const loaded = await models();
    if (message.type === 'warm') {
      parentPort.postMessage({ id, ok: true, loadMs });
      return;
    }
    const result = await judgePixels(loaded, message, { minFaceScore: message.minFaceScore });
    parentPort.postMessage({ id, ok: true, result, loadMs });
  } catch (error) {
    parentPort.postMessage({ id, ok: false, message: error instanceof Error ? error.message : String(error) });
  }
});
