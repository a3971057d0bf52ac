import { TtsError, toTtsError, type Speech } from './tts-provider.js';

/**
 * Posts a remote provider's JSON speech request and reads its answer: raw PCM at `pcmRate`
 * when `pcm`, else MP3; any failure as a TtsError (`toTtsError`).
 */
export async function postSpeech(request: {
  provider: string;
  what: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  pcm: boolean;
  pcmRate: number;
  signal?: AbortSignal;
}): Promise<Speech> {
  const { provider, what, pcm, signal } = request;
  try {
    const response = await fetch(request.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: pcm ? 'audio/pcm' : 'audio/mpeg', ...request.headers },
      body: JSON.stringify(request.body),
      signal,
    });
    if (pcm) return await readPcmAnswer(response, request.pcmRate, provider, what);
    return { format: 'mp3', data: await readMp3Answer(response, provider, what) };
  } catch (error) {
    throw toTtsError(error, provider, signal);
  }
}

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
