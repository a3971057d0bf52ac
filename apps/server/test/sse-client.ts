import { parseSse, type SseEvent } from './scripted-llm.js';

/** A real HTTP event stream, read as its events arrive (`readUntil`), or aborted. */
export interface OpenStream {
  response: Response;
  events: SseEvent[];
  readUntil(predicate: (event: SseEvent) => boolean): Promise<SseEvent>;
  /** Reads to the end of the stream; answers every event. */
  readAll(): Promise<SseEvent[]>;
  abort(): void;
}

/** Opens `path` on a listening app (POST with a JSON body, else GET) and reads its events. */
export async function openStream(
  baseUrl: string,
  auth: { authorization: string },
  path: string,
  body?: unknown,
): Promise<OpenStream> {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { ...auth, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    signal: controller.signal,
  });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const events: SseEvent[] = [];
  /** Reads one chunk; false at the end of the stream. */
  const readMore = async (): Promise<boolean> => {
    const { value, done } = await reader.read();
    if (done) return false;
    buffer += decoder.decode(value, { stream: true });
    const end = buffer.lastIndexOf('\n\n');
    if (end >= 0) {
      events.push(...parseSse(buffer.slice(0, end + 2)));
      buffer = buffer.slice(end + 2);
    }
    return true;
  };
  return {
    response,
    events,
    async readUntil(predicate) {
      for (;;) {
        const found = events.find(predicate);
        if (found) return found;
        if (!(await readMore())) throw new Error(`stream ended before the expected event: ${JSON.stringify(events)}`);
      }
    },
    async readAll() {
      while (await readMore());
      return events;
    },
    abort: () => controller.abort(),
  };
}
