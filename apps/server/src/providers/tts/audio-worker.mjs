// The audio worker thread (audio-thread.ts starts it): espeak-ng synthesis and MP3 encoding
// are synchronous WebAssembly/JavaScript, so they run here, off the server's event loop.
// Plain JavaScript so that it starts the same from the sources (tests, bench) and from dist/.
//
// Messages in:  {id, type: 'speak', pieces, voice, fallbackVoice} | {id, type: 'mp3', samples, sampleRate, kbps}
//               | {id, type: 'cancel'}
// Messages out: {id, ok: true, samples | data} | {id, ok: false, code, message}
import { parentPort } from 'node:worker_threads';
import { Mp3Encoder } from '@breezystack/lamejs';

let loading = null;
/** espeak-ng, loaded once per thread on the first synthesis. */
function espeak() {
  loading ??= import('@echogarden/espeak-ng-emscripten')
    .then(({ default: createModule }) => createModule())
    .then((module) => new module.eSpeakNGWorker())
    .catch((error) => {
      loading = null;
      throw error;
    });
  return loading;
}

const cancelled = new Set();
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

class Failure extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

function checkCancelled(id) {
  if (cancelled.has(id)) throw new Failure('aborted', 'cancelled');
}

async function speak({ id, pieces, voice, fallbackVoice }) {
  const engine = await espeak();
  const chunks = [];
  let total = 0;
  for (const piece of pieces) {
    checkCancelled(id);
    // Several requests may interleave: set the voice for every piece.
    if (engine.set_voice(voice) !== 0 && engine.set_voice(fallbackVoice) !== 0) {
      throw new Failure('unknown_voice', `espeak-ng has no voice ${voice}`);
    }
    engine.synthesize(piece, (samples) => {
      if (samples?.length) {
        chunks.push(samples);
        total += samples.length;
      }
      return false;
    });
    await nextTurn(); // lets a cancel message in
  }
  return { samples: joined(chunks, total, Int16Array) };
}

/** The pieces, one after the other, in one array of `Kind` (`total` elements long). */
function joined(pieces, total, Kind) {
  const out = new Kind(total);
  let offset = 0;
  for (const piece of pieces) {
    out.set(piece, offset);
    offset += piece.length;
  }
  return out;
}

/** Samples encoded between two looks at the message queue (≈ 2.6 s of speech at 22 050 Hz). */
const BLOCK = 1152 * 50;

async function mp3({ id, samples, sampleRate, kbps }) {
  const encoder = new Mp3Encoder(1, sampleRate, kbps);
  const parts = [];
  let total = 0;
  const keep = (bytes) => {
    if (bytes.length) {
      parts.push(bytes.slice());
      total += bytes.length;
    }
  };
  for (let offset = 0; offset < samples.length; offset += BLOCK) {
    checkCancelled(id);
    keep(encoder.encodeBuffer(samples.subarray(offset, offset + BLOCK)));
    await nextTurn();
  }
  keep(encoder.flush());
  return { data: joined(parts, total, Uint8Array) };
}

parentPort.on('message', async (message) => {
  if (message.type === 'cancel') {
    cancelled.add(message.id);
    return;
  }
  try {
    const result = message.type === 'speak' ? await speak(message) : await mp3(message);
    const buffer = (result.samples ?? result.data).buffer;
    parentPort.postMessage({ id: message.id, ok: true, ...result }, [buffer]);
  } catch (error) {
    parentPort.postMessage({
      id: message.id,
      ok: false,
      code: error instanceof Failure ? error.code : 'provider_error',
      message: error instanceof Error ? error.message : String(error),
    });
  } finally {
    cancelled.delete(message.id);
  }
});
