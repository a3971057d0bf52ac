import fs from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/client.js';
import { rowsOf } from '../../db/client.js';
import { cosineTo, decodeFloat4Vector, encodeFloat4Vector } from '../../db/float4-vector.js';
import { memories } from '../../db/schema.js';
import { migrationsDir } from '../../lib/paths.js';
import { fakeEmbedding } from '../../../test/fake-embedder.js';
import { countedMemoryPair, userMemoryValues } from '../../../test/memory-pair.js';
import { standaloneMemories } from '../../../test/standalone-memories.js';

/**
 * Memory embeddings are stored as bytes (docs/memory.md "Embeddings"): four bytes a float in
 * network order, read back with a view, on both databases. Migration 0029 added the column and
 * filled it from the `real[]` one, which stays for replicas of older versions: a memory one of
 * them writes during a rolling upgrade (`embedding` only) is still ranked by meaning.
 */
let db: DatabaseHandle['db'];
const statements: string[] = [];
let userId = '';
let botId = '';

beforeAll(async () => {
  ({ db, userId, botId } = await countedMemoryPair('vectors', statements));
});

const float4 = (values: number[]) => values.map((v) => Math.fround(v));

describe('memory embeddings as bytes', () => {
  it('encodes four bytes a float in network order, as float4send does', () => {
    const bytes = encodeFloat4Vector([1, -0.5, 0.1]);
    expect([...bytes]).toEqual([0x3f, 0x80, 0, 0, 0xbf, 0, 0, 0, 0x3d, 0xcc, 0xcc, 0xcd]);
    expect(decodeFloat4Vector(bytes)).toEqual(float4([1, -0.5, 0.1]));
    // A view at an offset of a larger buffer (how drivers hand out a row's bytes), and bytea's hex text.
    const inside = new Uint8Array([9, 9, 9, ...bytes]).subarray(3);
    expect(decodeFloat4Vector(inside)).toEqual(float4([1, -0.5, 0.1]));
    expect(decodeFloat4Vector(`\\x${bytes.toString('hex')}`)).toEqual(float4([1, -0.5, 0.1]));
    expect(decodeFloat4Vector(new Uint8Array(0))).toEqual([]);
  });

  it("reads a vector as PostgreSQL's base64 writes it: the statements' form, line breaks and all", async () => {
    // 256 dimensions: 1 024 bytes, which `encode(…, 'base64')` breaks into lines of 76 characters.
    const values = Array.from({ length: 256 }, (_, i) => Math.sin(i) * (i % 7));
    const [row] = rowsOf<{ text: string }>(
      await db.execute(sql`select encode(${encodeFloat4Vector(values)}::bytea, 'base64') as text`),
    );
    expect(row!.text).toContain('\n');
    expect(decodeFloat4Vector(row!.text)).toEqual(float4(values));
  });

  it('compares a stored vector with the query straight from its bytes, as from its numbers', () => {
    const query = Array.from({ length: 256 }, (_, i) => Math.cos(i / 3));
    const other = float4(Array.from({ length: 256 }, (_, i) => Math.sin(i / 5) + 0.2));
    const bytes = encodeFloat4Vector(other);
    const similarity = cosineTo(query);
    const expected = similarity(other);
    expect(expected).toBeGreaterThan(-1);
    expect(expected).toBeLessThan(1);
    // base64 with PostgreSQL's line breaks, hex text, bytes at an offset: each the same figure.
    const base64 = bytes.toString('base64').replace(/(.{76})/g, '$1\n');
    expect(similarity(base64)).toBe(expected);
    expect(similarity(`\\x${bytes.toString('hex')}`)).toBe(expected);
    expect(similarity(new Uint8Array([7, ...bytes]).subarray(1))).toBe(expected);
    // A larger vector than the scratch space first held, then a small one again.
    expect(cosineTo([1, 0])(Buffer.alloc(8192, 0).toString('base64'))).toBe(0);
    expect(similarity(base64)).toBe(expected);
    expect(cosineTo([1, 0, 0])([0, 2, 0])).toBe(0);
    expect(cosineTo([1, 1])([2, 2])).toBeCloseTo(1, 12);
  });

  it('stores a memory’s vector as bytes and ranks by it', async () => {
    const text = 'Alex adopted a puppy last spring.';
    const [row] = await db
      .insert(memories)
      .values(userMemoryValues(userId, botId, text, fakeEmbedding(text)))
      .returning({ id: memories.id });
    const [stored] = rowsOf<{ type: string; bytes: number; old: unknown }>(
      await db.execute(
        sql`select pg_typeof(vector)::text as type, octet_length(vector) as bytes, embedding as old from memories where id = ${row!.id}`,
      ),
    );
    // The former column is not written: a vector there would outlive the text it was made of.
    expect(stored).toEqual({ type: 'bytea', bytes: fakeEmbedding(text).length * 4, old: null });
    const [read] = await db.select({ vector: memories.vector }).from(memories).where(eq(memories.id, row!.id));
    expect(read!.vector).toEqual(float4(fakeEmbedding(text)));
    // Found by meaning alone ("dog" and "puppy" share no term): the vector came back whole.
    const service = standaloneMemories(db, { llm: { embed: async (texts) => texts.map(fakeEmbedding) } });
    const got = await service.forPrompt({ userId, botId, turns: ['How is my dog?'], budgetTokens: 600 });
    expect(got.ids).toEqual([row!.id]);
    await db.delete(memories).where(eq(memories.id, row!.id));
  });

  it('ranks by meaning a memory an older replica wrote (its real[] only)', async () => {
    const text = 'Alex adopted a puppy last spring.';
    const vector = `{${fakeEmbedding(text).join(',')}}`;
    const [row] = rowsOf<{ id: string }>(
      await db.execute(
        sql`insert into memories (user_id, bot_id, kind, text, origin, dedupe_key, terms, embedding)
            values (${userId}, ${botId}, 'user', ${text}, 'model', ${text}, '{}', ${vector}::real[]) returning id`,
      ),
    );
    const service = standaloneMemories(db, { llm: { embed: async (texts) => texts.map(fakeEmbedding) } });
    // No shared term ("dog" and "puppy"; its terms are empty too): only the converted vector finds it.
    const got = await service.forPrompt({ userId, botId, turns: ['How is my dog?'], budgetTokens: 600 });
    expect(got.ids).toEqual([row!.id]);
    await db.delete(memories).where(eq(memories.id, row!.id));
  });

  it('converts the vectors of the former real[] column (migration 0029)', async () => {
    const migration = fs
      .readdirSync(migrationsDir())
      .find((file) => file.startsWith('0029_'))
      ?.replace(/\.sql$/, '');
    expect(migration).toBe('0029_memories_vector');
    // The table as it was before 0029, holding a vector, an empty one and none.
    await db.execute(sql`alter table memories drop column vector`);
    await db.execute(sql`drop function memories_float4_bytes(real[])`);
    const insert = async (text: string, vector: string | null) =>
      rowsOf<{ id: string }>(
        await db.execute(
          sql`insert into memories (user_id, bot_id, kind, text, origin, dedupe_key, embedding)
              values (${userId}, ${botId}, 'user', ${text}, 'model', ${text}, ${vector}::real[]) returning id`,
        ),
      )[0]!.id;
    const full = await insert('old vector', '{0.25,-1.5,3.4e+38,1e-07}');
    const empty = await insert('old empty vector', '{}');
    const none = await insert('old without vector', null);
    const steps = fs
      .readFileSync(path.join(migrationsDir(), `${migration}.sql`), 'utf8')
      .split('--> statement-breakpoint');
    for (const step of steps) await db.execute(sql.raw(step));
    const byId = new Map(
      (await db.select({ id: memories.id, vector: memories.vector }).from(memories)).map((r) => [r.id, r.vector]),
    );
    expect(byId.get(full)).toEqual(float4([0.25, -1.5, 3.4e38, 1e-7]));
    expect(byId.get(empty)).toEqual([]);
    expect(byId.get(none)).toBeNull();
    // The former column keeps its vectors (an older version rolled back to finds them).
    const [kept] = rowsOf<{ n: number }>(
      await db.execute(sql`select count(*)::int as n from memories where embedding is not null`),
    );
    expect(kept!.n).toBe(2);
  });
});
