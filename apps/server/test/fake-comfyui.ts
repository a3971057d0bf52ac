import sharp from 'sharp';
import { sendJson, startFakeHttp } from './fake-http.js';

/**
 * A fake ComfyUI HTTP API for the transform provider's tests: `POST /upload/image`
 * (multipart, kept), `POST /prompt` (the workflow recorded), `GET /history/{id}` (running
 * once, then done with one picture, or an error), `GET /view` (that picture: the uploaded
 * image with its colours inverted, as PNG).
 */
export interface FakeComfyUi {
  url: string;
  uploads: { name: string; bytes: number }[];
  prompts: unknown[];
  /** `error`: the history reports the job failed. */
  mode: 'ok' | 'error';
  close(): Promise<void>;
}

export async function startFakeComfyUi(): Promise<FakeComfyUi> {
  let lastUpload: Buffer | null = null;
  const polls = new Map<string, number>();
  const state: Omit<FakeComfyUi, 'url' | 'close'> = { uploads: [], prompts: [], mode: 'ok' };
  const server = await startFakeHttp(async (request, response) => {
    const body = request.raw;
    const url = new URL(request.url, 'http://x');
    const json = (status: number, value: unknown) => sendJson(response, value, status);
    if (request.method === 'POST' && url.pathname === '/upload/image') {
      // The file part: from the first blank line after its headers to the closing boundary.
      const boundary = `--${/boundary=(.+)$/.exec(request.headers['content-type'] ?? '')?.[1]}`;
      const parts = body.toString('latin1').split(boundary);
      const filePart = parts.find((part) => part.includes('name="image"'))!;
      const start = filePart.indexOf('\r\n\r\n') + 4;
      lastUpload = Buffer.from(filePart.slice(start, filePart.length - 2), 'latin1');
      const name = /filename="([^"]+)"/.exec(filePart)?.[1] ?? 'upload.png';
      state.uploads.push({ name, bytes: lastUpload.length });
      return json(200, { name, subfolder: '', type: 'input' });
    }
    if (request.method === 'POST' && url.pathname === '/prompt') {
      state.prompts.push(JSON.parse(body.toString()).prompt);
      return json(200, { prompt_id: `p${state.prompts.length}` });
    }
    if (request.method === 'GET' && url.pathname.startsWith('/history/')) {
      const id = decodeURIComponent(url.pathname.slice('/history/'.length));
      const seen = (polls.get(id) ?? 0) + 1;
      polls.set(id, seen);
      if (state.mode === 'error') return json(200, { [id]: { status: { status_str: 'error', completed: false } } });
      if (seen < 2) return json(200, {});
      return json(200, {
        [id]: {
          status: { status_str: 'success', completed: true },
          outputs: { '8': { images: [{ filename: 'out.png', subfolder: '', type: 'output' }] } },
        },
      });
    }
    if (request.method === 'GET' && url.pathname === '/view' && lastUpload) {
      const png = await sharp(lastUpload).negate({ alpha: false }).png().toBuffer();
      response.writeHead(200, { 'content-type': 'image/png' });
      return response.end(png);
    }
    json(404, { error: 'not found' });
  });
  const fake = Object.assign(state, { url: server.url, close: server.close });
  return fake as FakeComfyUi;
}
