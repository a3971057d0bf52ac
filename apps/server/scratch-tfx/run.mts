import sharp from 'sharp';
import { TRANSFORM_STYLES } from '@reverie/shared';
import { renderStyle } from '/work/wt-transform/apps/server/src/modules/transforms/styles/index.ts';
import { makeTestPhoto } from '/work/wt-transform/apps/server/test/fixtures/transform-photo.ts';
const photo = await makeTestPhoto(640, 800);
const tiles = [{ input: await sharp(photo).resize(320, 400).png().toBuffer(), left: 0, top: 0 }];
let i = 1;
for (const style of TRANSFORM_STYLES) {
  const t = performance.now();
  const out = await renderStyle(photo, style, {});
  console.log(style, Math.round(performance.now() - t), 'ms', out.width, out.height, out.data.length);
  tiles.push({ input: await sharp(out.data).resize(320, 400).png().toBuffer(), left: (i % 3) * 320, top: Math.floor(i / 3) * 400 });
  i++;
}
await sharp({ create: { width: 960, height: 1200, channels: 3, background: '#000' } }).composite(tiles).png().toFile('/tmp/tfx/montage.png');
