import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BotCreateSchema } from '@reverie/shared';
import { payments, subscriptions } from '../src/db/schema.js';
import { withTextChunks } from '../src/modules/bots/card-png.js';
import { multipartBody } from './multipart.js';
import { TtsError } from '../src/providers/tts/index.js';
import { LocalMediaStorage } from '../src/providers/storage/local-storage.js';
import { createBot, createChat, createMessage, createPremium, createUser } from './factories.js';
import { createTestApp, type TestApp } from './helpers.js';
import { ScriptedLlm } from './scripted-llm.js';

/**
 * Property-based fuzzing of every route of the OpenAPI document (issue 11, "no input gives a
 * 500"), as a guest, a user and an administrator (each premium, with a character, a chat and
 * messages whose real ids the inputs use so that handlers are reached, and a scripted model
 * so that the streaming chat routes run too):
 * - every field of a valid body (built from the route's request schema, or for multipart and
 *   card routes from their shared schema), one at a time, with NUL, other controls and an
 *   unpaired surrogate;
 * - then RUNS random inputs per route: valid bodies with a few mutations (NUL, controls, huge,
 *   wrong types, odd numbers, `__proto__`, deep nesting) sent as JSON, multipart or card
 *   files, hostile bodies and content types, path parameters (raw bytes too), query strings
 *   and malformed cursors, and hostile headers.
 * Any 5xx fails, naming the route, the identity and the request. Deterministic (a fixed seed
 * per route and identity) and bounded; FUZZ_STATS=1 prints the answers by route and status.
 */
const SEED = 1111;
/** Streams that end only when the client goes away. */
const OPEN_ENDED_STREAMS = new Set(['GET /api/events', 'GET /api/chat/{id}/scene/events']);
const RUNS = 10;

type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  minLength?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
};
type Operation = {
  method: string;
  path: string;
  query: string[];
  /** A valid body (from the request body schema, else from the route's shared schema), to mutate. */
  valid: unknown;
  /** The body may come as multipart form fields (or a card file) too. */
  multipart: 'none' | 'fields' | 'card';
};
type Identity = 'guest' | 'user' | 'admin';
const ADDRESSES: Record<Identity, string> = { guest: '127.0.0.2', user: '127.0.0.3', admin: '127.0.0.4' };

/** Strings that broke or could break something: control characters, sizes, numbers, encodings. */
const hostileString = fc.oneof(
  fc.constantFrom(
    '',
    '\u0000',
    'a\u0000b',
    '\u0001\u0002\u001b[31m\u007f\u0085\u2028\u202e',
    '\ud800',
    'x\udfffy',
    '\uFEFF',
    '1.5',
    '-1',
    '0',
    '1e308',
    '-1e309',
    'NaN',
    'Infinity',
    '9007199254740993',
    'null',
    'true',
    '[]',
    '{}',
    '__proto__',
    'constructor',
    '../../etc/passwd',
    '%00',
    '%',
    "' or 1=1 --",
    '<script>alert(1)</script>',
    '00000000-0000-0000-0000-000000000000',
    'not-a-uuid',
    '2024-02-31T00:00:00Z',
    'ÿþ\u00ff\u00fe',
    '\uFFFD\uFFFE\uFFFF',
    '😀'.repeat(50),
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ maxLength: 20 }).map((s) => s + '\u0000'),
  fc.integer({ min: 1, max: 4 }).map((n) => 'x'.repeat(10 ** (n + 1))),
);

/** Keyset cursors that are not what the server made. */
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
const hostileCursor = fc.oneof(
  fc.constantFrom(
    b64('[1.5]'),
    b64('[-1]'),
    b64('[1e308]'),
    b64('[null]'),
    b64('["x"]'),
    b64('[1,2]'),
    b64('{}'),
    b64('['),
    b64('["2024-02-31T00:00:00.000Z","00000000-0000-0000-0000-000000000000"]'),
    b64('["0000-01-01T00:00:00Z","00000000-0000-0000-0000-000000000000"]'),
    b64('["2024-01-01T00:00:00Z","not-a-uuid"]'),
    b64('["2024-01-01T00:00:00Z","\u0000"]'),
    b64('[9007199254740993]'),
    b64('"' + 'a'.repeat(200) + '"'),
    '%%%',
    '====',
    'a',
  ),
  fc.uint8Array({ maxLength: 30 }).map((bytes) => Buffer.from(bytes).toString('base64url')),
  hostileString,
);

const hostileNumber = fc.constantFrom(1.5, -1, 0, 1e308, -1e308, 2 ** 53 + 1, Number.MIN_VALUE, -0);

/** Any JSON value, hostile at the leaves; `depth` bounds the nesting of the generator itself. */
const hostileJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    hostileNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.oneof(hostileString, fc.constantFrom('__proto__', 'constructor', 'prototype')), tie('value'), {
      maxKeys: 3,
    }),
  ),
})).value;

/** One change to a valid body at one of its leaves (or an added key): what gets past validation but breaks deeper. */
const mutation = fc.record({
  at: fc.nat(),
  how: fc.constantFrom('nul', 'nul', 'controls', 'surrogate', 'replace', 'number', 'huge', 'proto', 'deep'),
  value: fc.oneof(hostileJson, hostileNumber),
});
type Mutation = { at: number; how: string; value: unknown };

/** The body with the mutations applied (a deep copy). */
function mutate(valid: unknown, mutations: Mutation[]): unknown {
  const body = structuredClone(valid);
  for (const m of mutations) {
    const slots: { parent: Record<string, unknown> | unknown[]; key: string | number }[] = [];
    const walk = (value: unknown) => {
      if (!value || typeof value !== 'object') return;
      for (const [key, item] of Object.entries(value)) {
        slots.push({ parent: value as Record<string, unknown>, key: Array.isArray(value) ? Number(key) : key });
        walk(item);
      }
    };
    walk(body);
    if (!slots.length) continue;
    const { parent, key } = slots[m.at % slots.length]!;
    const target = parent as Record<string | number, unknown>;
    const old = target[key];
    const text = typeof old === 'string' ? old : (JSON.stringify(old) ?? 'x');
    const middle = Math.floor(text.length / 2);
    if (m.how === 'nul') target[key] = text.slice(0, middle) + '\u0000' + text.slice(middle);
    else if (m.how === 'controls') target[key] = text + '\u0001\u0008\u001b\u007f\u0085\u2028\u202e';
    else if (m.how === 'surrogate') target[key] = text + '\ud800';
    else if (m.how === 'huge') target[key] = text.repeat(Math.ceil(200_000 / Math.max(1, text.length)));
    else if (m.how === 'proto')
      // An own `__proto__` key, as JSON.parse makes it (an assignment would change the prototype).
      Object.defineProperty(typeof old === 'object' && old ? old : target, '__proto__', {
        value: { polluted: true },
        configurable: true,
        writable: true,
        enumerable: true,
      });
    else if (m.how === 'deep') target[key] = JSON.parse('['.repeat(40) + ']'.repeat(40));
    else target[key] = m.value;
  }
  return body;
}

const nested = (depth: number, leaf: string) => '{"a":'.repeat(depth) + leaf + '}'.repeat(depth);

/** A body: a valid one with a few mutations, an object with the operation's fields hostile, or something else entirely. */
const hostileBody = (op: Operation) => {
  const fields = op.valid && typeof op.valid === 'object' ? Object.keys(op.valid) : [];
  const transports =
    op.multipart === 'none'
      ? ['json' as const]
      : op.multipart === 'fields'
        ? ['json' as const, 'multipart' as const]
        : ['json' as const, 'card-json' as const, 'card-png' as const];
  const mutated = fc
    .record({
      mutations: fc.array(mutation, { minLength: 1, maxLength: 2 }),
      transport: fc.constantFrom(...transports),
    })
    .map(({ mutations, transport }) => {
      const value = mutate(op.valid, mutations);
      if (transport === 'json') return { kind: 'json' as const, value };
      if (transport === 'multipart')
        return {
          kind: 'multipart' as const,
          parts: Object.entries(value as Record<string, unknown>).flatMap(([k, v]) =>
            (Array.isArray(v) ? v : [v]).map(
              (item) => [k, typeof item === 'string' ? item : JSON.stringify(item)] as [string, string],
            ),
          ),
        };
      return { kind: transport as 'card-json' | 'card-png', value };
    });
  return fc.oneof(
    { weight: 5, arbitrary: mutated },
    fc
      .record({
        values: fc.array(fc.oneof(hostileJson, hostileString, hostileNumber), {
          minLength: fields.length,
          maxLength: fields.length,
        }),
        extra: fc.dictionary(fc.constantFrom('__proto__', 'constructor', 'x', 'c'), hostileJson, { maxKeys: 2 }),
      })
      .map(({ values, extra }) => ({
        kind: 'json' as const,
        value: { ...extra, ...Object.fromEntries(fields.map((f, i) => [f, values[i]])) } as unknown,
      })),
    hostileJson.map((value) => ({ kind: 'json' as const, value })),
    fc.constantFrom(
      { kind: 'raw' as const, contentType: 'application/json', payload: nested(5000, '1') },
      { kind: 'raw' as const, contentType: 'application/json', payload: '['.repeat(40) + ']'.repeat(40) },
      { kind: 'raw' as const, contentType: 'application/json', payload: '{"__proto__":{"admin":true}}' },
      { kind: 'raw' as const, contentType: 'application/json', payload: '{"constructor":{"prototype":{}}}' },
      { kind: 'raw' as const, contentType: 'application/json', payload: '{"a":' },
      { kind: 'raw' as const, contentType: 'application/json', payload: '' },
      { kind: 'raw' as const, contentType: 'application/json', payload: '"\\u0000"' },
      { kind: 'raw' as const, contentType: 'application/json; charset=utf-16', payload: '{}' },
      { kind: 'raw' as const, contentType: 'text/plain', payload: 'hello\u0000' },
      { kind: 'raw' as const, contentType: 'application/x-www-form-urlencoded', payload: 'a=%00&__proto__=1&a=2' },
      { kind: 'raw' as const, contentType: 'application/xml', payload: '<a/>' },
      { kind: 'raw' as const, contentType: 'multipart/form-data', payload: 'no boundary' },
      { kind: 'raw' as const, contentType: 'multipart/form-data; boundary=x', payload: '--x\r\nbroken' },
    ),
    fc
      .array(fc.tuple(fc.constantFrom(...fields, '__proto__', 'file', 'photo', 'image', 'x[]'), hostileString), {
        maxLength: 4,
      })
      .map((parts) => ({ kind: 'multipart' as const, parts: parts as [string, string][] })),
  );
};

const hostileHeaders = fc.record(
  {
    'accept-language': fc.oneof(hostileString, fc.constantFrom('ch', 'de;q=NaN', '*', 'zz-ZZ,en;q=1e308')),
    'x-request-id': hostileString,
    'content-encoding': fc.constantFrom('gzip', 'br', 'identity', 'x\u00ff'),
    'if-none-match': hostileString,
    authorization: fc.constantFrom(
      'Bearer',
      'Bearer \u0000',
      'Basic Og==',
      'Bearer a.b.c',
      'Bearer ' + 'x'.repeat(5000),
    ),
  },
  { requiredKeys: [] },
);

/** Percent-encoded bytes that are not UTF-8 (overlong NUL, a surrogate, a lone byte), sent as they are. */
const rawEncoded = fc.constantFrom('%C0%80', '%ED%A0%80', '%FF', '%00', '%2e%2e%2f', '%', '%E2%80%AE');

/** Values a path parameter takes: real ids (to reach the handlers' depths) or hostile ones, encoded or raw. */
function pathValue(name: string, real: Record<string, string>) {
  const known = real[name];
  const encoded = (known ? fc.oneof(fc.constant(known), hostileString) : hostileString).map(encodePathPart);
  return fc.oneof({ weight: 4, arbitrary: encoded }, { weight: 1, arbitrary: rawEncoded });
}

function multipart(parts: [string, string][]): { payload: Buffer; contentType: string } {
  const boundary = '----fuzz0123456789';
  const chunks = parts.map(([name, value]) =>
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${name.replace(/["\r\n]/g, '')}"` +
        (name === 'file' || name === 'photo' || name === 'image'
          ? '; filename="x.png"\r\nContent-Type: image/png'
          : '') +
        `\r\n\r\n${value}\r\n`,
      'utf8',
    ),
  );
  return {
    payload: Buffer.concat([...chunks, Buffer.from(`--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** URL-encodes a string; unpaired surrogates cannot be encoded and travel as U+FFFD. */
function encodePathPart(value: string): string {
  return encodeURIComponent(value.replace(/\p{Cs}/gu, '\uFFFD'));
}

type FuzzBody =
  | { kind: 'json' | 'card-json' | 'card-png'; value: unknown }
  | { kind: 'raw'; contentType: string; payload: string }
  | { kind: 'multipart'; parts?: [string, string][] };
type FuzzInput = { params: string[]; query: [string, string][]; body: FuzzBody; headers: Record<string, string> };

/** The payload and content type of a body. */
function encodeBody(body: FuzzBody, real: Record<string, string>): { payload: string | Buffer; contentType: string } {
  if (body.kind === 'json')
    return { payload: withIds(JSON.stringify(body.value) ?? 'null', real), contentType: 'application/json' };
  if (body.kind === 'card-json' || body.kind === 'card-png') {
    const text = withIds(JSON.stringify(body.value) ?? 'null', real);
    const file =
      body.kind === 'card-json'
        ? Buffer.from(text, 'utf8')
        : withTextChunks(tinyPng, { chara: Buffer.from(text, 'utf8').toString('base64') });
    const form = multipartBody({ visibility: 'private' }, [
      { field: 'file', filename: 'card', contentType: 'application/octet-stream', data: file },
    ]);
    return { payload: form.payload, contentType: form.headers['content-type']! };
  }
  if (body.kind === 'raw') return { payload: body.payload, contentType: body.contentType };
  const parts: [string, string][] = 'parts' in body && body.parts ? body.parts : [];
  const form = multipart(parts.map(([k, v]) => [k, withIds(v, real)]));
  return { payload: form.payload, contentType: form.contentType };
}

/** How many places `mutate` can change in a value. */
function countSlots(value: unknown): number {
  if (!value || typeof value !== 'object') return 0;
  return Object.values(value).reduce<number>((n, item) => n + 1 + countSlots(item), 0);
}

/** A small stable hash, so that every route and identity gets its own (fixed) seed. */
const hash = (text: string) => [...text].reduce((h, c) => (h * 31 + c.charCodeAt(0)) | 0, 0) >>> 0;

/** Puts the fixtures' real ids where a valid body names them. */
const withIds = (text: string, real: Record<string, string>) =>
  text.replaceAll('{bot_id}', real.bot_id!).replaceAll('{slug}', real.slug!);

let tinyPng: Buffer;
let t: TestApp;
const mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-fuzz-'));
afterAll(() => fs.rmSync(mediaDir, { recursive: true, force: true }));
let operations: Operation[] = [];

beforeAll(async () => {
  t = await createTestApp({
    llm: new ScriptedLlm(),
    storage: new LocalMediaStorage(mediaDir),
    tts: {
      name: 'fuzz',
      synthesise: async () => {
        throw new TtsError('provider_error', 'no voice in the fuzz test', 'fuzz');
      },
    },
    env: {
      RATE_LIMIT_PER_MINUTE: '100000',
      AUTH_RATE_LIMIT_IP_PER_MINUTE: '100000',
      AUTH_RATE_LIMIT_ACCOUNT_PER_MINUTE: '100000',
      CHAT_MESSAGES_PER_MINUTE: '100000',
      LLM_TIMEOUT_S: '2',
    },
  });
  const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{
    paths: Record<
      string,
      Record<
        string,
        {
          parameters?: { in: string; name: string }[];
          requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
        }
      >
    >;
    components?: { schemas?: Record<string, JsonSchema> };
  }>();
  const resolve = (schema: JsonSchema | undefined): JsonSchema => {
    if (!schema?.$ref) return schema ?? {};
    return resolve(doc.components?.schemas?.[schema.$ref.split('/').pop()!]);
  };
  /** A value the schema accepts, preferring the fixtures' real ids for fields named like them. */
  const validFor = (raw: JsonSchema | undefined, name = ''): unknown => {
    const schema = resolve(raw);
    if (schema.const !== undefined) return schema.const;
    if (schema.enum?.length) return schema.enum[0];
    const variants = schema.anyOf ?? schema.oneOf ?? schema.allOf;
    if (variants?.length) return validFor(variants.find((v) => v.type !== 'null') ?? variants[0], name);
    const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
    if (type === 'object' || schema.properties)
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([key, item]) => [key, validFor(item, key)]),
      );
    if (type === 'array') return [validFor(schema.items, name)];
    if (type === 'boolean') return true;
    if (type === 'integer' || type === 'number') return Math.max(schema.minimum ?? 1, name === 'age' ? 25 : 1);
    if (schema.format === 'email' || name === 'email') return 'fuzz.user@example.test';
    if (schema.format === 'uuid') return '3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f';
    if (schema.format === 'date-time') return new Date().toISOString();
    if (name === 'botID' || name === 'persona_id') return '{bot_id}';
    if (name === 'slug') return '{slug}';
    if (name === 'name') return 'fuzzname';
    return 'fuzz_value';
  };
  /** Bodies the handlers read themselves (multipart or card files) are described by their shared schemas. */
  const handlerBodies: Record<string, { valid: unknown; multipart: Operation['multipart'] }> = {
    'POST /api/bot/create': {
      valid: validFor(z.toJSONSchema(BotCreateSchema, { io: 'input', unrepresentable: 'any' }) as JsonSchema),
      multipart: 'fields',
    },
    'POST /api/bot/import': {
      valid: {
        spec: 'chara_card_v2',
        spec_version: '2.0',
        data: {
          name: 'Fuzz',
          description: 'A card.',
          personality: 'calm',
          scenario: 'A quiet room.',
          first_mes: 'Hello',
          mes_example: '<START>',
          creator_notes: 'notes',
          system_prompt: '',
          post_history_instructions: '',
          alternate_greetings: ['Hi', 'Hey'],
          character_book: { name: 'book', entries: [{ keys: ['k'], content: 'lore', extensions: { x: 'y' } }] },
          tags: ['anime'],
          creator: 'someone',
          character_version: '1',
          extensions: { reverie: { age: 30, occupation: ['artist'], personality: ['shy'], voice: 'en-us' } },
          extra_field: { nested: ['value'] },
        },
      },
      multipart: 'card',
    },
  };
  for (const [route, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      // The user's events stream stays open until the client leaves, which `inject` never does
      // (it takes no input beyond the session; modules/chats/unread.test.ts covers it).
      if (OPEN_ENDED_STREAMS.has(`${method.toUpperCase()} ${route}`)) continue;
      const query = (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      const schema = Object.values(op.requestBody?.content ?? {})[0]?.schema;
      const hint = handlerBodies[`${method.toUpperCase()} ${route}`];
      operations.push({
        method: method.toUpperCase(),
        path: route,
        query,
        valid: hint?.valid ?? (schema ? validFor(schema) : {}),
        multipart: hint?.multipart ?? 'none',
      });
    }
  }
  tinyPng = await sharp({ create: { width: 2, height: 2, channels: 3, background: '#808080' } })
    .png()
    .toBuffer();
  operations = operations.sort((a, b) => (a.path + a.method).localeCompare(b.path + b.method));
});

/**
 * A user (premium, so paid routes run too) with a character, a chat and messages of both roles.
 * For the billing routes: the subscription is cancelled (so resume has something to undo), and
 * `id` of the sandbox checkout routes is a pending sandbox payment of this user (a pack for the
 * user, a plan for the administrator, whose approval is a refused second subscription).
 */
async function fixtures(identity: Identity, op: Operation) {
  const db = t.database.db;
  const owner = await createUser(t.app, db, identity === 'admin' ? { role: 'admin' } : {});
  await createPremium(db, owner.user.id);
  if (op.path === '/api/subscription/resume')
    await db
      .update(subscriptions)
      // A sandbox subscription resumes only if it began with a trial (its prepaid and no-trial
      // periods never renew): this one's trial is over.
      .set({ status: 'cancelled', cancelAtPeriodEnd: true, trialEndsAt: new Date(Date.now() - 24 * 3600_000) })
      .where(eq(subscriptions.userId, owner.user.id));
  let paymentId: string | null = null;
  if (op.path.startsWith('/api/payments/sandbox/checkout/')) {
    const [payment] = await db
      .insert(payments)
      .values({
        userId: owner.user.id,
        provider: 'sandbox',
        plan: identity === 'admin' ? 'monthly' : 'pack_350',
        amountCents: identity === 'admin' ? 1299 : 199,
        currency: 'usd',
      })
      .returning({ id: payments.id });
    paymentId = payment!.id;
  }
  const bot = await createBot(db);
  const chat = await createChat(db, { userId: owner.user.id, botId: bot.id });
  const userMessage = await createMessage(db, chat);
  const botMessage = await createMessage(db, chat, { role: 'bot', text: 'Hi', replyTo: userMessage.id });
  return {
    headers: identity === 'guest' ? {} : owner.auth,
    real: {
      id: paymentId ?? chat.id,
      chat_id: chat.id,
      message_id: botMessage.id,
      slug: bot.slug,
      bot_id: bot.id,
      code: 'x',
      token: 'x',
      provider: 'sandbox',
      key: `bots/${bot.id}/avatar.png`,
    } as Record<string, string>,
  };
}

describe('fuzzing every route of the OpenAPI document', () => {
  it('lists the routes it fuzzes', () => {
    expect(operations.length).toBeGreaterThan(40);
    expect(operations.map((o) => `${o.method} ${o.path}`)).toContain('POST /api/chat/{id}/messages');
  });

  it('answers every hostile request without a 5xx', { timeout: 240_000 }, async () => {
    const failures: string[] = [];
    /** Answers by route and status, printed with FUZZ_STATS=1 (to see how deep the inputs reach). */
    const stats = new Map<string, Map<number, number>>();
    for (const identity of ['guest', 'user', 'admin'] as const) {
      for (const op of operations) {
        const { headers: auth, real } = await fixtures(identity, op);
        const names = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
        const route = `${op.method} ${op.path}`;
        /** Sends one input; a 5xx throws with the route and the request. */
        const send = async ({ params, query, body, headers }: FuzzInput) => {
          let url = op.path;
          names.forEach((name, i) => (url = url.replace(`{${name}}`, params[i] as string)));
          if (query.length) url += '?' + query.map(([k, v]) => `${encodePathPart(k)}=${v}`).join('&');
          const request: {
            method: string;
            url: string;
            headers: Record<string, string>;
            payload?: string | Buffer;
            contentType?: string;
          } = {
            method: op.method,
            url,
            headers: { ...headers, ...(headers.authorization && identity === 'guest' ? {} : auth) },
            ...(op.method === 'GET' ? {} : encodeBody(body, real)),
          };
          if (request.contentType) request.headers['content-type'] = request.contentType;
          // Not every string can travel in an HTTP header: such requests cannot reach the server.
          for (const [name, value] of Object.entries(request.headers)) {
            if (/[^\t\u0020-\u007e\u0080-\u00ff]/.test(value)) delete request.headers[name];
          }
          const res = await t.app.inject({
            method: request.method,
            url: request.url,
            headers: request.headers,
            payload: request.payload,
            // One address per identity: the guest's requests do not use up the user's rate limits.
            remoteAddress: ADDRESSES[identity],
          } as InjectOptions);
          const seen = stats.get(route) ?? new Map<number, number>();
          seen.set(res.statusCode, (seen.get(res.statusCode) ?? 0) + 1);
          stats.set(route, seen);
          if (res.statusCode >= 500) {
            throw new Error(
              `${route} as ${identity} → ${res.statusCode} ${res.body.slice(0, 300)}\n` +
                `request: ${JSON.stringify({ ...request, url: request.url.slice(0, 300), payload: String(request.payload ?? '').slice(0, 500) })}`,
            );
          }
        };
        // First one valid request (the real ids, the valid body), so that every handler runs.
        try {
          await send({
            params: names.map((n) => encodePathPart(real[n] ?? 'x')),
            query: [],
            body: { kind: op.multipart === 'card' ? 'card-json' : 'json', value: op.valid },
            headers: {},
          });
        } catch (error) {
          failures.push((error as Error).message);
        }
        // Every field of a valid body, one at a time, with NUL, other controls and an unpaired surrogate.
        const slots = countSlots(op.valid);
        for (let at = 0; at < slots; at++) {
          for (const how of ['nul', 'controls', 'surrogate'] as const) {
            const value = mutate(op.valid, [{ at, how, value: null }]);
            const kinds = op.multipart === 'card' ? (['card-json', 'card-png'] as const) : (['json'] as const);
            for (const kind of kinds) {
              try {
                await send({
                  params: names.map((n) => encodePathPart(real[n] ?? 'x')),
                  query: [],
                  body: { kind, value },
                  headers: {},
                });
              } catch (error) {
                failures.push((error as Error).message);
              }
            }
          }
        }
        // Then random hostile inputs everywhere.
        const input = fc.record({
          params: fc.tuple(...names.map((n) => pathValue(n, real))),
          query: fc.array(
            fc.tuple(
              fc.constantFrom(...op.query, 'c', 'size', '__proto__', 'tags'),
              fc.oneof(
                { weight: 4, arbitrary: fc.oneof(hostileString, hostileCursor).map(encodePathPart) },
                rawEncoded,
              ),
            ),
            { maxLength: 3 },
          ),
          body: hostileBody(op),
          headers: fc.oneof({ weight: 3, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: hostileHeaders }),
        });
        const result = await fc.check(fc.asyncProperty(input, send), {
          seed: SEED + hash(`${route} ${identity}`),
          numRuns: RUNS,
          endOnFailure: true,
        });
        if (result.failed) {
          const error = result.errorInstance;
          failures.push(error instanceof Error ? error.message : String(error));
        }
      }
    }
    if (process.env.FUZZ_STATS)
      for (const [route, seen] of stats) console.log(route, JSON.stringify(Object.fromEntries(seen)));
    // The billing logic was reached, not only its 404s: the payer's sandbox checkout and a resume.
    for (const route of [
      'GET /api/payments/sandbox/checkout/{id}',
      'POST /api/payments/sandbox/checkout/{id}/approve',
      'POST /api/payments/sandbox/checkout/{id}/decline',
      'POST /api/subscription/resume',
    ])
      expect(stats.get(route)?.get(200) ?? 0, route).toBeGreaterThan(0);
    await t.app.replies.idle();
    await t.app.audio.idle();
    expect(failures, failures.join('\n\n')).toEqual([]);
  });
});
