import sharp from 'sharp';
import * as R from '../src/modules/transforms/styles/raster.ts';
import { makeTestPhoto } from '../test/fixtures/transform-photo.ts';
const src = await R.toRaster(sharp(await makeTestPhoto(320, 400)));
const luma = await R.step(await R.gray(src), (s) => s.normalise());
console.log(luma.channels, luma.data.length, luma.width*luma.height);
const graded = await R.gradientMap(luma, [
      { at: 0, colour: R.hex('#0a0420') },
      { at: 60, colour: R.hex('#3a0b6b') },
      { at: 120, colour: R.hex('#d6249f') },
      { at: 185, colour: R.hex('#28e7ff') },
      { at: 235, colour: R.hex('#e8fdff') },
    ], 1);
await R.open(graded).png().toFile('/tmp/tfx/cy.png');
