// The picture models, loaded from the files their npm packages ship (no network):
// @vladmandic/face-api (SSD MobileNet v1 face detector, age/gender net; `model/`) and nsfwjs
// (MobileNet v2 nudity classifier; `dist/models/mobilenet_v2`), on one @tensorflow/tfjs
// engine with the WebAssembly backend. Plain JavaScript: used by the judge worker thread
// (`judge-worker.mjs`) and by `scripts/make-moderation-fixtures.mjs`.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** nsfwjs's class order (its `nsfw_classes.js`). */
export const NSFW_CLASSES = ['drawing', 'hentai', 'neutral', 'porn', 'sexy'];

const packageDir = (name) => path.dirname(require.resolve(`${name}/package.json`));

/**
 * nsfwjs ships its weights as base64 inside a browserify bundle (`group1-shard1of1.min.js`);
 * evaluating that 3.5 MB script takes seconds, so the string is cut out of the text instead.
 */
function nsfwArtifacts() {
  const dir = path.join(path.dirname(require.resolve('nsfwjs')), '..', 'models', 'mobilenet_v2');
  const modelJson = require(path.join(dir, 'model.min.js'));
  const shard = readFileSync(path.join(dir, 'group1-shard1of1.min.js'), 'latin1');
  const match = /exports="([A-Za-z0-9+/=]+)"/.exec(shard);
  if (!match || !modelJson?.modelTopology)
    throw new Error('the nsfwjs MobileNet v2 weights were not found in the package');
  const weights = Buffer.from(match[1], 'base64');
  return {
    modelTopology: modelJson.modelTopology,
    format: modelJson.format,
    generatedBy: modelJson.generatedBy,
    convertedBy: modelJson.convertedBy,
    weightSpecs: modelJson.weightsManifest.flatMap((group) => group.weights),
    weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength),
  };
}

/**
 * Loads tfjs on `backend` ('wasm' in the server; the fixtures script uses 'cpu' for
 * gradients), then the face detector, the age net and the nudity classifier.
 */
export async function loadModels({ backend = 'wasm' } = {}) {
  const tf = require('@tensorflow/tfjs');
  const wasm = require('@tensorflow/tfjs-backend-wasm');
  // Quiet: tfjs prints a banner about tfjs-node, nsfwjs about hosting its models.
  const info = console.info;
  const warn = console.warn;
  console.info = () => {};
  console.warn = () => {};
  try {
    const faceapi = require('@vladmandic/face-api/dist/face-api.node-wasm.js');
    const nsfwjs = require('nsfwjs');
    wasm.setWasmPaths(path.join(packageDir('@tensorflow/tfjs-backend-wasm'), 'dist') + path.sep);
    tf.env().set('PROD', true);
    if (!(await tf.setBackend(backend))) throw new Error(`the tfjs ${backend} backend did not start`);
    await tf.ready();
    const modelDir = path.join(packageDir('@vladmandic/face-api'), 'model');
    await faceapi.nets.ssdMobilenetv1.loadFromDisk(modelDir);
    await faceapi.nets.ageGenderNet.loadFromDisk(modelDir);
    const artifacts = nsfwArtifacts();
    const nsfw = new nsfwjs.NSFWJS({ load: async () => artifacts }, { size: 224 });
    await nsfw.load();
    return { tf, faceapi, nsfw };
  } finally {
    console.info = info;
    console.warn = warn;
  }
}

/**
 * Judges one picture given as raw RGB pixels: every face the detector finds with at least
 * `minFaceScore` (its box, estimated age, score) and nudity scores. Pure measurement; the
 * verdict is decided by the caller (`image-moderation.ts`).
 */
export async function judgePixels(models, { pixels, width, height }, { minFaceScore }) {
  const { tf, faceapi, nsfw } = models;
  const image = tf.tensor3d(pixels, [height, width, 3], 'int32');
  try {
    const found = await faceapi
      .detectAllFaces(image, new faceapi.SsdMobilenetv1Options({ minConfidence: minFaceScore, maxResults: 20 }))
      .withAgeAndGender();
    const faces = found.map((face) => {
      const box = face.detection.box;
      return {
        box: {
          x: Math.round(box.x),
          y: Math.round(box.y),
          width: Math.round(box.width),
          height: Math.round(box.height),
        },
        age: Math.round(face.age * 10) / 10,
        score: Math.round(face.detection.score * 1000) / 1000,
      };
    });
    const scores = tf.tidy(() => nsfw.infer(image));
    const values = await scores.data();
    scores.dispose();
    const nudity = Object.fromEntries(NSFW_CLASSES.map((name, i) => [name, Math.round(values[i] * 1000) / 1000]));
    return { faces, nudity };
  } finally {
    image.dispose();
  }
}
