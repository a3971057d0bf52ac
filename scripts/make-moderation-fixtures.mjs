// Makes the two DERIVED test pictures of the image moderation (docs/moderation.md "Test
// pictures"), offline, from the shipped public-domain/CC0 photos:
//
//   adversarial-minor-astronaut.png  the NASA astronaut photo with a small pixel perturbation
//                                    (at most ±EPS_FACE per channel) found by gradient steps
//                                    against face-api's own age net until that net estimates the
//                                    face under 12. It is an adult's face: it proves that a face
//                                    the age net scores as a minor is refused through the real
//                                    route, NOT that the net recognises real children.
//   adversarial-explicit-coffee.png  the CC0 coffee photo (224×224) perturbed against nsfwjs's own
//                                    MobileNet v2 until it scores "porn". It shows no nudity: it
//                                    tests the marking and blurring path, NOT the classifier's
//                                    accuracy.
//
// Usage: node scripts/make-moderation-fixtures.mjs   (minutes on a small CPU; the results are
// committed, so tests never run this). Gradients run on tfjs's plain CPU backend; the result
// is then checked with the server's own WASM pipeline.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(root, 'apps/server/package.json'));
const sharp = require('sharp');
const { loadModels, judgePixels } = await import(
  path.join(root, 'apps/server/src/providers/image-moderation/models.mjs')
);
const dir = path.join(root, 'apps/server/test/fixtures/faces');

const EPS_FACE = 10;
const EPS_NUDE = 40;
const TARGET_AGE = 12;
const TARGET_PORN = 0.9;

const models = await loadModels({ backend: 'cpu' });
const { tf, faceapi, nsfw } = models;

async function readRgb(file, resize) {
  let image = sharp(path.join(dir, file)).removeAlpha();
  if (resize) image = image.resize(resize);
  const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
  return { pixels: new Uint8Array(data), width: info.width, height: info.height };
}

async function writePng(file, { pixels, width, height }) {
  await sharp(Buffer.from(pixels), { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 9 })
    .toFile(path.join(dir, file));
}

/** One signed gradient step of `lossOf` on the picture, kept within ±eps of the original. */
function step(current, original, lossOf, eps, size) {
  return tf.tidy(() => {
    const x = tf.tensor3d(current.pixels, [current.height, current.width, 3], 'float32');
    const grad = tf.grad(lossOf)(x);
    const base = tf.tensor3d(original.pixels, [original.height, original.width, 3], 'float32');
    const next = x.sub(grad.sign().mul(size)).clipByValue(0, 255).maximum(base.sub(eps)).minimum(base.add(eps)).round();
    return { ...current, pixels: new Uint8Array(next.dataSync()) };
  });
}

async function makeMinor() {
  const original = await readRgb('astronaut-nasa.png');
  let current = original;
  for (let i = 0; i < 80; i++) {
    const judged = await judgePixels(models, current, { minFaceScore: 0.5 });
    const face = judged.faces.sort((a, b) => b.score - a.score)[0];
    console.log(`minor ${i}: ${face ? `age ${face.age} (score ${face.score})` : 'no face'}`);
    if (!face) throw new Error('the face was lost');
    if (face.age < TARGET_AGE) break;
    const { x, y, width, height } = face.box;
    const lossOf = (image) => {
      const crop = image.slice([Math.max(0, y), Math.max(0, x), 0], [height, width, 3]);
      const out = faceapi.nets.ageGenderNet.forwardInput(new faceapi.NetInput([crop]));
      return out.age.sum();
    };
    current = step(current, original, lossOf, EPS_FACE, 1);
  }
  await writePng('adversarial-minor-astronaut.png', current);
}

async function makeExplicit() {
  const original = await readRgb('coffee-cc0.png', { width: 224, height: 224, fit: 'cover' });
  let current = original;
  for (let i = 0; i < 120; i++) {
    const porn = tf.tidy(() =>
      nsfw.model
        .predict(tf.tensor3d(current.pixels, [224, 224, 3], 'float32').div(255).reshape([1, 224, 224, 3]))
        .dataSync(),
    );
    console.log(`explicit ${i}: porn ${porn[3].toFixed(3)}`);
    if (porn[3] >= TARGET_PORN) break;
    const lossOf = (image) => {
      const probabilities = nsfw.model.predict(image.div(255).reshape([1, 224, 224, 3]));
      return probabilities.slice([0, 3], [1, 1]).add(1e-6).log().neg().sum();
    };
    current = step(current, original, lossOf, EPS_NUDE, 4);
  }
  await writePng('adversarial-explicit-coffee.png', current);
}

const which = process.argv[2];
if (!which || which === 'minor') await makeMinor();
if (!which || which === 'explicit') await makeExplicit();

// Checked again on the server's own pipeline: WASM backend, the files as written.
await tf.setBackend('wasm');
for (const file of ['adversarial-minor-astronaut.png', 'adversarial-explicit-coffee.png']) {
  if (which && !file.includes(which)) continue;
  const judged = await judgePixels(models, await readRgb(file), { minFaceScore: 0.5 });
  console.log(file, JSON.stringify(judged));
}
