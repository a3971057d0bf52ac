/** Mono 16-bit PCM helpers: WAV wrapping and resampling (calls, voice messages, STT uploads). */

/** A WAV file (RIFF, PCM 16-bit mono) holding these samples. */
export function wavFile(samples: Int16Array, sampleRate: number): Buffer {
  const data = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/** Linear-interpolation resampling; enough for speech between 16, 22.05 and 24 kHz. */
export function resample(samples: Int16Array, from: number, to: number): Int16Array {
  if (from === to || samples.length === 0) return samples;
  const length = Math.max(1, Math.round((samples.length * to) / from));
  const out = new Int16Array(length);
  const step = from / to;
  for (let i = 0; i < length; i++) {
    const position = i * step;
    const index = Math.floor(position);
    const a = samples[Math.min(index, samples.length - 1)]!;
    const b = samples[Math.min(index + 1, samples.length - 1)]!;
    out[i] = Math.round(a + (b - a) * (position - index));
  }
  return out;
}
