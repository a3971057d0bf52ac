import sharp from 'sharp';
import { TRANSFORM_STYLES } from '@reverie/shared';
import { renderStyle } from '../src/modules/transforms/styles/index.ts';
import { makeTestPhoto } from '../test/fixtures/transform-photo.ts';
const read = (b: Buffer) => sharp(b).resize(96, 120, { fit: 'fill' }).removeAlpha().toColourspace('srgb').raw().toBuffer();
const mad = async (a: Buffer, b: Buffer) => { const [x, y] = await Promise.all([read(a), read(b)]); let s = 0; for (let i = 0; i < x.length; i++) s += Math.abs(x[i]! - y[i]!); return s / x.length; };
const photo = await makeTestPhoto(240, 300);
const r: Record<string, Buffer> = {};
for (const s of TRANSFORM_STYLES) { r[s] = (await renderStyle(photo, s, { maxSide: 300 })).data; console.log(s, (await mad(photo, r[s]!)).toFixed(1)); }
let min = 999, pair = '';
for (const a of TRANSFORM_STYLES) for (const b of TRANSFORM_STYLES) if (a < b) { const d = await mad(r[a]!, r[b]!); if (d < min) { min = d; pair = a + '/' + b; } }
console.log('min pair', pair, min.toFixed(1));
