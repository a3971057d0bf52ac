import type { Memory, MemoryHistoryEntry } from '@reverie/shared';
import { fetchCall, type FetchCall, json } from '../../test/render';
export { json, renderRoutes } from '../../test/render';

export const memory = (id: string, changes: Partial<Memory> = {}): Memory => ({
  id,
  bot_id: 'bot1',
  kind: 'user',
  text: `Memory ${id}`,
  event_date: null,
  importance: 3,
  pinned: false,
  origin: 'model',
  source_message_ids: [],
  created_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-20T10:00:00.000Z',
  ...changes,
});

export interface Call extends FetchCall {
  body: Record<string, unknown> | null;
}

/**
 * A memory server in the test: the character `bot1` (or `aiko`, its slug) and its memories,
 * answering the memory API as the server does (list pinned first then newest, search by a
 * word, create, correct with a revision, pin, forget one, forget all, history). `fail`
 * makes the next answers to a path fail with a status. `pageSize` pages the list (its cursor
 * is the offset), with the kinds' `counts` on the first page, as the server sends them.
 */
export function memoryServer(initial: Memory[], options: { pageSize?: number } = {}) {
  let store = [...initial];
  const revisions = new Map<string, MemoryHistoryEntry[]>();
  const calls: Call[] = [];
  const failures: { match: (call: Call) => boolean; status: number }[] = [];
  let next = 1;
  const revise = (m: Memory, change: MemoryHistoryEntry['change'], origin: MemoryHistoryEntry['origin']) => {
    const list = revisions.get(m.id) ?? [];
    list.unshift({
      id: `r${next++}`,
      memory_id: m.id,
      change,
      origin,
      kind: m.kind,
      text: m.text,
      event_date: m.event_date,
      importance: m.importance,
      pinned: m.pinned,
      source_message_ids: [],
      created_at: m.updated_at,
    });
    revisions.set(m.id, list);
  };
  for (const m of store) revise(m, 'created', m.origin);
  const ordered = () =>
    [...store].sort((a, b) => Number(b.pinned) - Number(a.pinned) || (a.created_at < b.created_at ? 1 : -1));

  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const call = fetchCall(input, init) as Call;
    calls.push(call);
    const failure = failures.find((f) => f.match(call));
    if (failure) return json({ detail: 'Something went wrong', code: 'internal' }, failure.status);
    const character = /^\/api\/characters\/(bot1|aiko)\/memories$/.test(call.path);
    const one = /^\/api\/memories\/([^/]+)(\/history)?$/.exec(call.path);
    if (character && call.method === 'GET') {
      const q = call.query.get('q')?.toLowerCase();
      if (q)
        return json({
          results: ordered().filter((m) => m.text.toLowerCase().includes(q)),
          next_param: null,
          counts: null,
        });
      const all = ordered();
      const from = Number(call.query.get('c') ?? 0);
      const size = options.pageSize ?? all.length;
      const counts: Partial<Record<Memory['kind'], number>> = {};
      for (const m of all) counts[m.kind] = (counts[m.kind] ?? 0) + 1;
      return json({
        results: all.slice(from, from + size),
        next_param: from + size < all.length ? String(from + size) : null,
        counts: from === 0 ? counts : null,
      });
    }
    if (character && call.method === 'POST') {
      const body = call.body as Pick<Memory, 'text' | 'kind'> & { event_date?: string | null };
      // The same text as one the character has: merged there (200), as the server does.
      const known = store.find((m) => m.text.toLowerCase() === body.text.toLowerCase());
      if (known) {
        revise(known, 'merged', 'user');
        return json(known, 200);
      }
      const created = memory(`new${next++}`, {
        text: body.text,
        kind: body.kind,
        event_date: body.event_date ?? null,
        origin: 'user',
        created_at: '2026-11-27T10:00:00.000Z',
        updated_at: '2026-11-27T10:00:00.000Z',
      });
      store.push(created);
      revise(created, 'created', 'user');
      return json(created, 201);
    }
    if (character && call.method === 'DELETE') {
      const deleted = store.length;
      store = [];
      revisions.clear();
      return json({ deleted });
    }
    if (one) {
      const id = decodeURIComponent(one[1]!);
      const found = store.find((m) => m.id === id);
      if (!found) return json({ detail: 'Not found', code: 'not_found' }, 404);
      if (one[2]) return json({ results: revisions.get(id) ?? [] });
      if (call.method === 'GET') return json(found);
      if (call.method === 'DELETE') {
        store = store.filter((m) => m.id !== id);
        revisions.delete(id);
        return json(null, 204);
      }
      if (call.method === 'PATCH') {
        const body = call.body as Partial<Memory>;
        const updated = { ...found, ...body, updated_at: '2026-11-27T12:00:00.000Z' };
        store = store.map((m) => (m.id === id ? updated : m));
        const change =
          'pinned' in body && Object.keys(body).length === 1 ? (body.pinned ? 'pinned' : 'unpinned') : 'corrected';
        revise(updated, change, 'user');
        return json(updated);
      }
    }
    return json({ detail: 'Not found', code: 'not_found' }, 404);
  };
  return {
    calls,
    memories: () => store,
    fail(match: (call: Call) => boolean, status = 500) {
      failures.push({ match, status });
      return () => failures.splice(0, failures.length);
    },
  };
}
