import { audioThread } from './audio-thread.js';

/**
 * Encodes mono 16-bit PCM as MP3 (LAME in pure JavaScript) at a constant bit rate, in the
 * audio worker thread so that the server's event loop stays free.
 */
export async function encodeMp3(
  samples: Int16Array,
  sampleRate: number,
  kbps: number,
  signal?: AbortSignal,
): Promise<Buffer> {
  const answer = await audioThread.call({ type: 'mp3', samples, sampleRate, kbps }, 'mp3', signal);
  const data = answer.data!;
  return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}

const BITRATES_V1 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const BITRATES_V2 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const SAMPLE_RATES: Record<number, number[]> = {
  3: [44_100, 48_000, 32_000], // MPEG-1
  2: [22_050, 24_000, 16_000], // MPEG-2
  0: [11_025, 12_000, 8_000], // MPEG-2.5
};

interface FrameHeader {
  length: number;
  samples: number;
  sampleRate: number;
}

/** The MPEG Layer III frame header at `offset`, or null when there is none. */
function frameAt(data: Buffer, offset: number): FrameHeader | null {
  if (offset + 4 > data.length) return null;
  const b1 = data[offset + 1]!;
  const b2 = data[offset + 2]!;
  if (data[offset] !== 0xff || (b1 & 0xe0) !== 0xe0) return null;
  const version = (b1 >> 3) & 0b11;
  const layer = (b1 >> 1) & 0b11;
  if (version === 1 || layer !== 0b01) return null; // reserved version; Layer III only
  const bitrateIndex = b2 >> 4;
  const rateIndex = (b2 >> 2) & 0b11;
  if (bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return null;
  const sampleRate = SAMPLE_RATES[version]![rateIndex]!;
  const mpeg1 = version === 3;
  const bitrate = (mpeg1 ? BITRATES_V1 : BITRATES_V2)[bitrateIndex]! * 1000;
  const padding = (b2 >> 1) & 1;
  const length = Math.floor(((mpeg1 ? 144 : 72) * bitrate) / sampleRate) + padding;
  return { length, samples: mpeg1 ? 1152 : 576, sampleRate };
}

/** Skips an ID3v2 tag at the start of the file. */
function audioStart(data: Buffer): number {
  if (data.length >= 10 && data.toString('latin1', 0, 3) === 'ID3') {
    const size = ((data[6]! & 0x7f) << 21) | ((data[7]! & 0x7f) << 14) | ((data[8]! & 0x7f) << 7) | (data[9]! & 0x7f);
    return 10 + size + (data[5]! & 0x10 ? 10 : 0);
  }
  return 0;
}

/**
 * Walks an MP3 file's frames: how many there are, the sample rate and the duration in
 * seconds. Null when the data is not MP3 (no run of at least two consecutive frames).
 */
export function readMp3Info(data: Buffer): { frames: number; sampleRate: number; durationS: number } | null {
  let offset = audioStart(data);
  // Find the first frame that is followed by another one (a false sync word is not).
  while (offset < data.length) {
    const first = frameAt(data, offset);
    if (first && frameAt(data, offset + first.length)) break;
    offset += 1;
  }
  let frames = 0;
  let samples = 0;
  let sampleRate = 0;
  for (let frame = frameAt(data, offset); frame; frame = frameAt(data, offset)) {
    if (sampleRate && frame.sampleRate !== sampleRate) break;
    sampleRate = frame.sampleRate;
    frames += 1;
    samples += frame.samples;
    offset += frame.length;
  }
  if (frames < 2) return null;
  return { frames, sampleRate, durationS: samples / sampleRate };
}
