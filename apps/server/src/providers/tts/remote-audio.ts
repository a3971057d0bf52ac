import { TtsError, type Speech } from './tts-provider.js';

/** Reads a remote provider's audio answer: an MP3 body, or a TtsError with the status and a short reason. */
export async function readMp3Answer(response: Response, provider: string, what: string): Promise<Buffer> {
  await failUnlessOk(response, provider, what);
  const data = Buffer.from(await response.arrayBuffer());
  if (data.length === 0) throw new TtsError('empty_output', `${what} answered without audio`, provider);
  return data;
}

/** Reads a raw PCM answer (16-bit little-endian mono, headerless) at `sampleRate`. */
export async function readPcmAnswer(
  response: Response,
  sampleRate: number,
  provider: string,
  what: string,
): Promise<Speech> {
  await failUnlessOk(response, provider, what);
  const data = new Uint8Array(await response.arrayBuffer());
  // A trailing odd byte is half a sample: dropped. Copied so the samples are aligned.
  const samples = new Int16Array(data.buffer.slice(data.byteOffset, data.byteOffset + (data.length & ~1)));
  if (samples.length === 0) throw new TtsError('empty_output', `${what} answered without audio`, provider);
  return { format: 'pcm16', sampleRate, samples };
}

async function failUnlessOk(response: Response, provider: string, what: string): Promise<void> {
  if (!response.ok) {
    const body = (await response.text().catch(() => '')).replace(/\s+/g, ' ').trim().slice(0, 200);
    throw new TtsError('provider_error', `${what} answered ${response.status}${body ? `: ${body}` : ''}`, provider);
  }
}
