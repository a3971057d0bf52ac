/**
 * Lorebooks (docs/lorebooks.md): who may read and write a book, the entry rules and limits,
 * World Info and card files (a round trip through a real SillyTavern file), and the stored
 * books in the prompt the fake model receives, with their compiled keys cached per version
 * and each reply's "what went into the prompt".
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Chat, ChatLorebooks, LoreEntry, Lorebook, LorebookList, PromptTrace } from '@reverie/shared';
import { LOREBOOKS_PER_USER_MAX, LORE_ENTRIES_PER_BOOK_MAX, PROMPT_TRACE_LORE_MAX } from '@reverie/shared';
import { createBot, createUser } from '../../../test/factories.js';
import { startFakeOpenAi, type FakeOpenAi } from '../../../test/fake-openai.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
let fake: FakeOpenAi;

beforeAll(async () => {
  fake = await startFakeOpenAi({ behaviour: { mode: 'ok', text: 'Mm.' } });
  t = await createTestApp({
    env: { LLM_PROVIDER: 'openai', LLM_BASE_URL: fake.url, LLM_MODEL: 'fake-model', CHAT_MESSAGES_PER_MINUTE: '1000' },
  });
});
afterAll(async () => {
  await fake?.close();
});

type Auth = { authorization: string };
type Turn = { role: string; content: string };
const lastPrompt = () => fake.requests.at(-1)!.messages as Turn[];
const systemPrompt = () => lastPrompt()[0]!.content;

async function call<T>(auth: Auth | null, method: string, url: string, payload?: unknown) {
  const res = await t.app.inject({
    method: method as 'GET',
    url,
    headers: auth ?? {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  return { status: res.statusCode, body: res.body ? (res.json() as T) : (null as T) };
}

const entry = (overrides: Record<string, unknown> = {}) => ({
  keys: ['lantern'],
  content: 'LORE: a lantern.',
  ...overrides,
});

async function newBook(auth: Auth, name = 'Harbour lore', extra: Record<string, unknown> = {}) {
  const res = await call<Lorebook>(auth, 'POST', '/api/lorebooks', { name, ...extra });
  expect(res.status).toBe(201);
  return res.body;
}

async function addEntry(auth: Auth, bookId: string, body: Record<string, unknown>) {
  const res = await call<LoreEntry>(auth, 'POST', `/api/lorebooks/${bookId}/entries`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function chatWith(auth: Auth, overrides: Parameters<typeof createBot>[1] = {}) {
  const bot = await createBot(t.database.db, { name: 'Mira', greeting: 'Welcome aboard.', ...overrides });
  const res = await call<Chat>(auth, 'POST', '/api/chat/create', { botID: bot.id });
  expect(res.status).toBe(201);
  return { bot, chat: res.body };
}

/** Sends a message; answers the reply's id. */
async function send(auth: Auth, chatId: string, text: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/chat/${chatId}/messages`,
    headers: auth,
    payload: { client_id: randomUUID(), text },
  });
  expect(res.statusCode, res.body).toBe(200);
  const reply = [...res.body.matchAll(/event: bot_message\ndata: (.+)\n/g)].at(-1);
  await t.app.replies.idle();
  return (JSON.parse(reply![1]!) as { id: string }).id;
}

describe('lorebooks: who may read and write them', () => {
  it("keeps a user's book private and a character's book to its author", async () => {
    const owner = await createUser(t.app, t.database.db);
    const other = await createUser(t.app, t.database.db);
    const book = await newBook(owner.auth);
    const made = await addEntry(owner.auth, book.id, entry());
    expect((await call(null, 'GET', '/api/lorebooks')).status).toBe(401);
    for (const [method, url, payload] of [
      ['GET', `/api/lorebooks/${book.id}`],
      ['PATCH', `/api/lorebooks/${book.id}`, { name: 'Mine' }],
      ['DELETE', `/api/lorebooks/${book.id}`],
      ['GET', `/api/lorebooks/${book.id}/export`],
      ['POST', `/api/lorebooks/${book.id}/entries`, entry()],
      ['PATCH', `/api/lorebooks/${book.id}/entries/${made.id}`, { content: 'Mine.' }],
      ['DELETE', `/api/lorebooks/${book.id}/entries/${made.id}`],
      ['POST', `/api/lorebooks/${book.id}/import`, { data: { entries: {} } }],
    ] as const)
      expect((await call(other.auth, method, url, payload)).status, `${method} ${url}`).toBe(404);
    expect((await call<LorebookList>(other.auth, 'GET', '/api/lorebooks')).body.books).toEqual([]);

    const bot = await createBot(t.database.db, { authorId: owner.user.id, visibility: 'private' });
    expect((await call(other.auth, 'GET', `/api/characters/${bot.id}/lorebook`)).status).toBe(404);
    const official = await createBot(t.database.db, { isOfficial: true });
    expect((await call(owner.auth, 'GET', `/api/characters/${official.id}/lorebook`)).status).toBe(404);
    const own = await call<Lorebook>(owner.auth, 'GET', `/api/characters/${bot.slug}/lorebook`);
    expect(own.status).toBe(200);
    expect(own.body.character).toMatchObject({ id: bot.id });
    expect((await call(other.auth, 'GET', `/api/lorebooks/${own.body.id}`)).status).toBe(404);
    const del = await call<{ code: string }>(owner.auth, 'DELETE', `/api/lorebooks/${own.body.id}`);
    expect([del.status, del.body.code]).toEqual([409, 'character_book']);
    const global = await call<{ errors: Record<string, string[]> }>(
      owner.auth,
      'PATCH',
      `/api/lorebooks/${own.body.id}`,
      {
        global: true,
      },
    );
    expect(global.status).toBe(400);
    expect(global.body.errors.global).toEqual(['Invalid value']);
    // A user's book is not in the character's, nor the character's in the user's list.
    expect((await call<LorebookList>(owner.auth, 'GET', '/api/lorebooks')).body.books.map((b) => b.id)).toEqual([
      book.id,
    ]);
  });

  it('validates entries with field messages, refuses unsafe regular expressions, and keeps the limits', async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const book = await newBook(auth);
    const bad = await call<{ code: string; errors: Record<string, string[]> }>(
      auth,
      'POST',
      `/api/lorebooks/${book.id}/entries`,
      { keys: Array.from({ length: 51 }, (_, i) => `k${i}`), content: 'x'.repeat(8001), probability: 101 },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('validation_error');
    expect(bad.body.errors).toMatchObject({
      keys: ['Too many items'],
      content: ['This text is too long'],
      probability: ['Enter a whole number from 0 to 100'],
    });
    const regex = await call<{ errors: Record<string, string[]> }>(auth, 'POST', `/api/lorebooks/${book.id}/entries`, {
      keys: ['/(a+)+$/', '/[unclosed/'],
      content: 'Regex.',
    });
    expect(regex.status).toBe(400);
    expect(regex.body.errors).toEqual({
      'keys.0': ['This regular expression could take too long to run; simplify its repetitions'],
      'keys.1': ['This regular expression is not valid'],
    });
    const empty = await call<{ errors: Record<string, string[]> }>(auth, 'POST', '/api/lorebooks', { name: ' ' });
    expect(empty.body.errors.name).toEqual(['Fill in the field']);

    // At most LORE_ENTRIES_PER_BOOK_MAX entries: an import that would pass it is refused whole.
    const many = Object.fromEntries(
      Array.from({ length: LORE_ENTRIES_PER_BOOK_MAX }, (_, i) => [
        String(i),
        { uid: i, key: [`k${i}`], content: `E${i}` },
      ]),
    );
    const full = await call<Lorebook>(auth, 'POST', `/api/lorebooks/${book.id}/import`, { data: { entries: many } });
    expect(full.status).toBe(200);
    expect(full.body.entry_count).toBe(LORE_ENTRIES_PER_BOOK_MAX);
    const over = await call<{ code: string }>(auth, 'POST', `/api/lorebooks/${book.id}/entries`, entry());
    expect([over.status, over.body.code]).toEqual([409, 'lorebook_full']);

    // At most LOREBOOKS_PER_USER_MAX books of one's own.
    for (let i = 1; i < LOREBOOKS_PER_USER_MAX; i++) await newBook(auth, `Book ${i}`);
    const tooMany = await call<{ code: string }>(auth, 'POST', '/api/lorebooks', { name: 'One more' });
    expect([tooMany.status, tooMany.body.code]).toEqual([409, 'lorebooks_full']);
  });

  it('refuses a file that is no lorebook', async () => {
    const { auth } = await createUser(t.app, t.database.db);
    for (const data of [{ entries: 'nonsense' }, { hello: 'world' }]) {
      const res = await call<{ code: string }>(auth, 'POST', '/api/lorebooks/import', { data });
      expect([res.status, res.body.code]).toEqual([400, 'lorebook_import_invalid']);
    }
  });

  it("clamps a file's odd numbers, opens a card's own book with uids that do not fit; a prototype key is a 400", async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const data = JSON.parse(
      '{"entries": {' +
        '"0": {"uid": 1e20, "key": ["a"], "content": "Huge uid.", "order": -1e30, "depth": 1e9, "probability": -5, "useProbability": true},' +
        '"1": {"uid": -3, "key": ["b"], "content": "Negative uid."},' +
        '"2": {"uid": 2147483647, "key": ["c"], "content": "Largest uid."},' +
        '"3": {"uid": 4, "key": ["e"], "content": "Odd extension.", "extensions": {"k": "v"}}' +
        '}, "scan_depth": -1, "token_budget": 1e12}',
    );
    const res = await call<Lorebook & { code?: string }>(auth, 'POST', '/api/lorebooks/import', { data });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const uids = res.body.entries.map((e) => e.uid);
    expect(new Set(uids).size).toBe(uids.length);
    for (const uid of uids) expect(uid >= 0 && uid <= 2147483647).toBe(true);
    expect(res.body.entries.find((e) => e.content === 'Huge uid.')).toMatchObject({
      order: -100000,
      depth: 100,
      probability: 0,
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const exported = await t.app.inject({ method: 'GET', url: `/api/lorebooks/${res.body.id}/export`, headers: auth });
    expect(exported.statusCode).toBe(200);
    // A card's own book (stored as imported) with such uids opens as its author's book.
    const author = await createUser(t.app, t.database.db);
    const bot = await createBot(t.database.db, {
      authorId: author.user.id,
      characterBook: {
        entries: [
          { id: 1e20, keys: ['x'], content: 'Card entry.' },
          { id: -1, keys: ['y'], content: 'Other.' },
        ],
      },
    });
    const book = await call<Lorebook>(author.auth, 'GET', `/api/characters/${bot.id}/lorebook`);
    expect(book.status, JSON.stringify(book.body)).toBe(200);
    expect(book.body.entries.map((e) => e.uid).sort()).toEqual([0, 1]);
    // A `__proto__` key anywhere in a JSON body is refused before it is read.
    const proto = await t.app.inject({
      method: 'POST',
      url: '/api/lorebooks/import',
      headers: { ...auth, 'content-type': 'application/json' },
      payload: '{"data": {"entries": {"__proto__": {"key": ["d"], "content": "Proto."}}}}',
    });
    expect([proto.statusCode, proto.json<{ code: string }>().code]).toEqual([400, 'bad_request']);
  });

  it("numbers anew a file's uids that do not fit (never a 500) and reads a key written as one string", async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const data = {
      entries: {
        '0': { uid: 1e20, key: ['tide'], content: 'The tide is high.' },
        '1': { uid: 2_147_483_647, key: ['reef'], content: 'The reef is sharp.' },
        '2': { uid: -3, key: ['gull'], content: 'Gulls circle.' },
        '3': { uid: 12, key: 'lamp, lantern ,', content: 'The lamp is lit.' },
      },
    };
    const res = await call<Lorebook>(auth, 'POST', '/api/lorebooks/import', { data });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const uids = res.body.entries.map((e) => e.uid);
    expect(new Set(uids).size).toBe(4);
    expect(uids.every((uid) => uid >= 0 && uid <= 1_000_000_000)).toBe(true);
    expect(res.body.entries.find((e) => e.content === 'The lamp is lit.')).toMatchObject({
      uid: 12,
      keys: ['lamp', 'lantern'],
    });
    // Entries added to it later take the next numbers.
    const again = await call<Lorebook>(auth, 'POST', `/api/lorebooks/${res.body.id}/import`, { data });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.entry_count).toBe(8);
  });

  it("says the range of a number out of it, in the reader's language, as the web form does", async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const book = await newBook(auth);
    const send = (method: string, url: string, payload: unknown, language = 'en') =>
      t.app
        .inject({
          method: method as 'POST',
          url,
          headers: { ...auth, 'accept-language': language },
          payload: payload as object,
        })
        .then((res) => ({
          status: res.statusCode,
          errors: (res.json() as { errors: Record<string, string[]> }).errors,
        }));
    const bad = await send('POST', `/api/lorebooks/${book.id}/entries`, {
      ...entry(),
      depth: 500,
      order: 100_001,
      probability: 2.5,
    });
    expect(bad.status).toBe(400);
    expect(bad.errors).toEqual({
      depth: ['Enter a whole number from 0 to 100'],
      order: ['Enter a whole number from -100,000 to 100,000'],
      probability: ['Enter a whole number from 0 to 100'],
    });
    const created = await addEntry(auth, book.id, entry());
    const patch = await send('PATCH', `/api/lorebooks/${book.id}/entries/${created.id}`, { depth: -1 }, 'de');
    expect(patch.errors).toEqual({ depth: ['Gib eine ganze Zahl von 0 bis 100 ein'] });
    const settings = await send('PATCH', `/api/lorebooks/${book.id}`, { token_budget: 40_000, scan_depth: 0 }, 'ru');
    expect(settings.status).toBe(400);
    expect(settings.errors.scan_depth).toEqual(['Введите целое число от 1 до 100']);
    expect(settings.errors.token_budget![0]).toMatch(/^Введите целое число от 0 до 32\s?768$/);
    const created2 = await send('POST', '/api/lorebooks', { name: 'B', scan_depth: 'deep' });
    expect(created2.errors).toEqual({ scan_depth: ['Enter a whole number from 1 to 100'] });
  });

  it('leaves out entries without text and says how many, in both imports', async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const data = {
      entries: {
        '0': { uid: 0, key: ['empty'], comment: 'Title only, no text', content: '' },
        '1': { uid: 1, key: ['tide'], content: 'The tide is high.' },
        '2': { uid: 2, key: ['blank'], content: ' \n\t ' },
      },
    };
    type Result = Lorebook & { imported_entries: number; skipped_entries: number };
    const made = await call<Result>(auth, 'POST', '/api/lorebooks/import', { data });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ entry_count: 1, imported_entries: 1, skipped_entries: 2 });
    expect(made.body.entries.map((e) => e.content)).toEqual(['The tide is high.']);
    const into = await call<Result>(auth, 'POST', `/api/lorebooks/${made.body.id}/import`, { data, mode: 'append' });
    expect(into.status).toBe(200);
    expect(into.body).toMatchObject({ entry_count: 2, imported_entries: 1, skipped_entries: 2 });
    const clean = await call<Result>(auth, 'POST', `/api/lorebooks/${made.body.id}/import`, {
      data: { entries: { '0': { uid: 0, key: ['reef'], content: 'A reef.' } } },
    });
    expect(clean.body).toMatchObject({ imported_entries: 1, skipped_entries: 0 });
  });

  it('names a bad entry by its place in the file, empty entries before it counted', async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const data = {
      entries: {
        '0': { uid: 0, key: ['empty'], content: '' },
        '1': { uid: 1, key: ['tide'], content: 'The tide is high.' },
        '2': { uid: 2, key: ['reef'], comment: 'Reef', content: 'x'.repeat(9000) },
      },
    };
    const res = await call<{ code: string; errors: Record<string, string[]> }>(auth, 'POST', '/api/lorebooks/import', {
      data,
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toEqual(['entries.2.content']);
  });
});

/** A World Info file as SillyTavern writes it (fields this server does not model included). */
const sillyTavernWorldInfo = {
  entries: {
    '0': {
      uid: 0,
      key: ['lighthouse', '/light ?house/i'],
      keysecondary: ['dark', 'night'],
      comment: 'The lighthouse',
      content: 'The lighthouse has been dark for ten years.',
      constant: false,
      vectorized: false,
      selective: true,
      selectiveLogic: 3,
      addMemo: true,
      order: 100,
      position: 4,
      disable: false,
      excludeRecursion: false,
      preventRecursion: false,
      delayUntilRecursion: false,
      probability: 60,
      useProbability: true,
      depth: 2,
      group: '',
      groupOverride: false,
      groupWeight: 100,
      scanDepth: null,
      caseSensitive: null,
      matchWholeWords: null,
      automationId: '',
      role: 0,
      sticky: 0,
      cooldown: 0,
      delay: 0,
      displayIndex: 0,
    },
    '7': {
      uid: 7,
      key: [],
      keysecondary: [],
      comment: 'The town',
      content: 'The town is called Vell.',
      constant: true,
      selective: false,
      selectiveLogic: 0,
      order: 5,
      position: 0,
      disable: true,
      probability: 100,
      useProbability: true,
      depth: 4,
      caseSensitive: true,
    },
  },
};

describe('World Info and card files', () => {
  it('round-trips a SillyTavern World Info file: import → export → import gives the same book', async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const first = await call<Lorebook>(auth, 'POST', '/api/lorebooks/import', {
      name: 'Vell',
      data: JSON.parse(JSON.stringify(sillyTavernWorldInfo)),
    });
    expect(first.status).toBe(201);
    const [lighthouse, town] = [...first.body.entries].sort((a, b) => a.uid - b.uid);
    expect(lighthouse).toMatchObject({
      uid: 0,
      keys: ['lighthouse', '/light ?house/i'],
      secondary_keys: ['dark', 'night'],
      selective_logic: 'and_all',
      position: 'at_depth',
      depth: 2,
      probability: 60,
      comment: 'The lighthouse',
      enabled: true,
    });
    expect(town).toMatchObject({
      uid: 7,
      constant: true,
      enabled: false,
      position: 'before_char',
      order: 5,
      case_sensitive: true,
    });

    const exported = await call<typeof sillyTavernWorldInfo>(auth, 'GET', `/api/lorebooks/${first.body.id}/export`);
    expect(exported.status).toBe(200);
    // SillyTavern's own fields come back out untouched.
    expect(exported.body.entries['0']).toMatchObject({ vectorized: false, addMemo: true, groupWeight: 100, role: 0 });
    expect(exported.body.entries['0']).toMatchObject({ selectiveLogic: 3, position: 4, useProbability: true });

    const again = await call<Lorebook>(auth, 'POST', '/api/lorebooks/import', { name: 'Vell', data: exported.body });
    const strip = (book: Lorebook) => book.entries.map(({ id: _id, ...rest }) => rest).sort((a, b) => a.uid - b.uid);
    expect(strip(again.body)).toEqual(strip(first.body));
    const reexported = await call(auth, 'GET', `/api/lorebooks/${again.body.id}/export`);
    expect(reexported.body).toEqual(exported.body);
  });

  it("edits a card's embedded book and exports the card with the edited book", async () => {
    const { auth, user } = await createUser(t.app, t.database.db);
    const bot = await createBot(t.database.db, {
      authorId: user.id,
      visibility: 'private',
      characterBook: {
        name: 'Card book',
        scan_depth: 3,
        extensions: { custom: 1 },
        entries: [
          { keys: ['bell'], content: 'The bell is bronze.', insertion_order: 2, enabled: true, priority: 5 },
          {
            keys: ['storm'],
            secondary_keys: ['harbour'],
            selective: true,
            content: 'Storms close the harbour.',
            insertion_order: 1,
            extensions: { position: 4, depth: 1, probability: 40, useProbability: true },
          },
        ],
      },
    });
    const book = (await call<Lorebook>(auth, 'GET', `/api/characters/${bot.id}/lorebook`)).body;
    expect(book).toMatchObject({ name: 'Card book', scan_depth: 3, entry_count: 2 });
    expect(book.entries[0]).toMatchObject({ keys: ['storm'], position: 'at_depth', depth: 1, probability: 40 });
    // Opening it again reads the stored book (no second copy).
    expect((await call<Lorebook>(auth, 'GET', `/api/characters/${bot.id}/lorebook`)).body.id).toBe(book.id);

    const bell = book.entries.find((e) => e.keys[0] === 'bell')!;
    await call(auth, 'PATCH', `/api/lorebooks/${book.id}/entries/${bell.id}`, { content: 'The bell is cracked.' });
    await addEntry(auth, book.id, { keys: ['gull'], content: 'Gulls nest on the pier.' });
    const card = await call<{ data: { character_book: { entries: Record<string, unknown>[]; extensions: unknown } } }>(
      auth,
      'GET',
      `/api/bot/${bot.slug}/card.json`,
    );
    expect(card.status).toBe(200);
    const entries = card.body.data.character_book.entries;
    expect(entries.map((e) => e.content)).toEqual([
      'Storms close the harbour.',
      'The bell is cracked.',
      'Gulls nest on the pier.',
    ]);
    expect(entries[1]).toMatchObject({ priority: 5, insertion_order: 2 });
    expect(entries[0]!.extensions).toMatchObject({ position: 4, depth: 1, probability: 40, useProbability: true });
    expect(card.body.data.character_book.extensions).toEqual({ custom: 1 });

    // The card's book round-trips too: export as character_book → import → the same entries.
    const exported = await call<Record<string, unknown>>(
      auth,
      'GET',
      `/api/lorebooks/${book.id}/export?format=character_book`,
    );
    const imported = await call<Lorebook>(auth, 'POST', '/api/lorebooks/import', { data: exported.body });
    const strip = (b: Lorebook) => b.entries.map(({ id: _id, ...rest }) => rest);
    const current = (await call<Lorebook>(auth, 'GET', `/api/lorebooks/${book.id}`)).body;
    expect(strip(imported.body)).toEqual(strip(current));
  });
});

describe('stored lorebooks in the prompt', () => {
  it("reads the character's edited book, the user's global and attached books, at their positions", async () => {
    const { auth, user } = await createUser(t.app, t.database.db);
    const { bot, chat } = await chatWith(auth, {
      authorId: user.id,
      visibility: 'private',
      characterBook: { entries: [{ keys: ['bell'], content: 'LORE-CARD-BELL: the bell is bronze.' }] },
    });
    // Never edited: the card's own book, as before.
    await send(auth, chat.id, 'Ring the bell.');
    expect(systemPrompt()).toContain('LORE-CARD-BELL');

    const characterBook = (await call<Lorebook>(auth, 'GET', `/api/characters/${bot.id}/lorebook`)).body;
    const bell = characterBook.entries[0]!;
    await call(auth, 'PATCH', `/api/lorebooks/${characterBook.id}/entries/${bell.id}`, {
      content: 'LORE-EDITED-BELL: the bell is cracked.',
      position: 'before_char',
    });
    const global = await newBook(auth, 'Everywhere', { global: true });
    await addEntry(auth, global.id, { keys: ['fog'], content: 'LORE-GLOBAL-FOG: fog hides the pier.' });
    const attached = await newBook(auth, 'This chat');
    await addEntry(auth, attached.id, {
      keys: ['gull'],
      content: 'LORE-ATTACHED-GULL: gulls steal bread.',
      position: 'at_depth',
      depth: 0,
    });
    const unattached = await newBook(auth, 'Elsewhere');
    await addEntry(auth, unattached.id, { keys: ['gull'], content: 'LORE-UNATTACHED: never here.' });

    await send(auth, chat.id, 'The bell, the fog and a gull.');
    expect(systemPrompt()).not.toContain('LORE-CARD-BELL');
    expect(systemPrompt()).toContain('LORE-EDITED-BELL');
    // before_char: ahead of the character's description.
    expect(systemPrompt().indexOf('LORE-EDITED-BELL')).toBeLessThan(systemPrompt().indexOf("Mira's description"));
    expect(systemPrompt()).toContain('LORE-GLOBAL-FOG');
    expect(JSON.stringify(lastPrompt())).not.toContain('LORE-ATTACHED-GULL');

    const put = await call<ChatLorebooks>(auth, 'PUT', `/api/chat/${chat.id}/lorebooks`, {
      lorebook_ids: [attached.id],
    });
    expect(put.status).toBe(200);
    expect(put.body.books.find((b) => b.id === attached.id)).toMatchObject({ attached: true });
    expect(put.body.books.find((b) => b.id === global.id)).toMatchObject({ attached: false, global: true });
    await send(auth, chat.id, 'Another gull.');
    // at_depth 0: a system turn after the newest message.
    expect(lastPrompt().at(-1)).toEqual({ role: 'system', content: 'LORE-ATTACHED-GULL: gulls steal bread.' });
    expect(JSON.stringify(lastPrompt())).not.toContain('LORE-UNATTACHED');

    // Another user's book cannot be attached, nor a chat of another user's changed.
    const other = await createUser(t.app, t.database.db);
    const foreign = await newBook(other.auth, 'Not yours');
    const refused = await call<{ errors: Record<string, string[]> }>(auth, 'PUT', `/api/chat/${chat.id}/lorebooks`, {
      lorebook_ids: [foreign.id],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors['lorebook_ids.0']).toEqual(['Invalid value']);
    expect((await call(other.auth, 'GET', `/api/chat/${chat.id}/lorebooks`)).status).toBe(404);
  });

  it("compiles a book's keys once per version, and says per reply what fired and why", async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const { chat } = await chatWith(auth);
    const book = await newBook(auth, 'Regex lore', { global: true });
    const lantern = await addEntry(auth, book.id, {
      keys: ['/lant(e|a)rn/i'],
      content: 'LORE-REGEX: the lantern is old.',
      comment: 'Lantern',
    });
    await addEntry(auth, book.id, { keys: [], constant: true, content: 'LORE-ALWAYS: the sea is near.' });
    await addEntry(auth, book.id, { keys: ['lantern'], content: 'LORE-NEVER: it never wins a roll.', probability: 0 });
    await call(auth, 'PUT', `/api/chat/${chat.id}/author-note`, { text: 'Slow and quiet.', depth: 1 });

    const compiler = t.app.lorebooks.compiler;
    const replyId = await send(auth, chat.id, 'Light the LANTARN, the lantern.');
    expect(systemPrompt()).toContain('LORE-REGEX');
    const compiled = compiler.compiled;
    await send(auth, chat.id, 'The lantern again.');
    expect(systemPrompt()).toContain('LORE-REGEX');
    expect(compiler.compiled).toBe(compiled); // the same version: nothing compiled again
    await call(auth, 'PATCH', `/api/lorebooks/${book.id}/entries/${lantern.id}`, { keys: ['/lamp/i'] });
    await send(auth, chat.id, 'The lantern once more.');
    expect(compiler.compiled).toBe(compiled + 1); // a new version: compiled once
    expect(systemPrompt()).not.toContain('LORE-REGEX');

    const trace = await call<PromptTrace>(auth, 'GET', `/api/chat/${chat.id}/messages/${replyId}/prompt`);
    expect(trace.status).toBe(200);
    expect(trace.body.author_note).toEqual({ text: 'Slow and quiet.', depth: 1 });
    expect(trace.body.lore).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          label: 'Lantern',
          key: '/lant(e|a)rn/i',
          status: 'inserted',
          book_name: 'Regex lore',
        }),
        expect.objectContaining({ constant: true, key: null, status: 'inserted' }),
        expect.objectContaining({ key: 'lantern', probability: 0, status: 'lost_roll', roll: expect.any(Number) }),
      ]),
    );
    expect(trace.body.memories).toBe(0);
    const other = await createUser(t.app, t.database.db);
    expect((await call(other.auth, 'GET', `/api/chat/${chat.id}/messages/${replyId}/prompt`)).status).toBe(404);
    expect((await call(auth, 'GET', `/api/chat/${chat.id}/messages/${randomUUID()}/prompt`)).status).toBe(404);
  });

  it(`a reply's trace lists at most ${PROMPT_TRACE_LORE_MAX} of the entries that fired, those that went in first`, async () => {
    const { auth } = await createUser(t.app, t.database.db);
    const { chat } = await chatWith(auth);
    // 150 entries that all fire, each ≈ 300 tokens: a few fit the prompt's lore share.
    const entries = Object.fromEntries(
      Array.from({ length: 150 }, (_, i) => [
        String(i),
        { uid: i, key: ['lantern'], comment: `E${i}`, order: 1000 - i, content: `LORE-${i} ${'harbour '.repeat(150)}` },
      ]),
    );
    const imported = await call<Lorebook>(auth, 'POST', '/api/lorebooks/import', { data: { entries } });
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    expect((await call(auth, 'PATCH', `/api/lorebooks/${imported.body.id}`, { global: true })).status).toBe(200);
    const replyId = await send(auth, chat.id, 'The lantern.');
    const trace = (await call<PromptTrace>(auth, 'GET', `/api/chat/${chat.id}/messages/${replyId}/prompt`)).body;
    expect(trace.lore).toHaveLength(PROMPT_TRACE_LORE_MAX);
    expect(trace.lore_omitted).toBe(150 - PROMPT_TRACE_LORE_MAX);
    const inserted = trace.lore.filter((l) => l.status === 'inserted');
    expect(inserted.length).toBeGreaterThan(0);
    expect(inserted.length).toBeLessThan(20);
    for (const entry of inserted) expect(systemPrompt()).toContain(`LORE-${entry.label.slice(1)} `);
    // In insertion order: the lowest `order` went in, and comes first (E149, E148, …).
    expect(trace.lore.slice(0, inserted.length).map((l) => l.label)).toEqual(inserted.map((_, i) => `E${149 - i}`));
  });
});
