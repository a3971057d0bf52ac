import { TtsError } from './tts-provider.js';

/** Reads a remote provider's audio answer: an MP3 body, or a TtsError with the status and a short reason. */
export async function readMp3Answer(response: Response, provider: string, what: string): Promise<Buffer> {
  if (!response.ok) {
    const body = (await response.text().catch(() => '')).replace(/\s+/g, ' ').trim().slice(0, 200);
    throw new TtsError('provider_error', `${what} answered ${response.status}${body ? `: ${body}` : ''}`, provider);
  }
  const data = Buffer.from(await response.arrayBuffer());
  if (data.length === 0) throw new TtsError('empty_output', `${what} answered without audio`, provider);
  return data;
}
