import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, inject, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { companionSettings, companionSlots } from '../../db/schema.js';
import { rowsOf } from '../../db/client.js';
import { createBot, createChat, createMessage, createUser } from '../../../test/factories.js';
import { startFakeOpenAi, type FakeOpenAi } from '../../../test/fake-openai.js';
import { createTestApp, createTestDatabase, openReplicaDatabase } from '../../../test/helpers.js';
import { ScriptedLlm } from '../../../test/scripted-llm.js';

/**
 * The scheduler across replicas (docs/companion.md "Claiming"): two apps on one database write
 * every due slot once; a replica killed (SIGKILL) mid-batch loses none of its claimed slots.
 */
const testDb = inject('testDb');
const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const never = new AbortController().signal;
const QUIET_APP = { COMPANION_TICK_S: '3600' };

/** `count` users, each with a chat whose slot is due now (quiet hours off, a cap that never bites). */
async function dueChats(app: Parameters<typeof createUser>[0], db: Database, count: number): Promise<string[]> {
  const bot = await createBot(db, { name: 'Mia' });
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const { user } = await createUser(app, db);
    const chat = await createChat(db, { userId: user.id, botId: bot.id, disclosedAt: new Date() });
    await createMessage(db, chat, { text: `I planted tomatoes number ${i}.` });
    await db
      .insert(companionSettings)
      .values({ userId: user.id, timeZone: 'UTC', quietStart: 0, quietEnd: 0, dailyCap: 10 });
    const at = new Date(Date.now() - 60_000 - i);
    await db
      .insert(companionSlots)
      .values({ chatId: chat.id, userId: user.id, frequency: 'daily', slotAt: at, dueAt: at });
    ids.push(chat.id);
  }
  return ids;
}

/** Proactive messages per chat among `chatIds`. */
async function writtenPerChat(db: Database, chatIds: string[]): Promise<Map<string, number>> {
  const result = await db.execute(sql`
    select chat_id, count(*)::int as n from messages
    where proactive_slot is not null and chat_id in (select unnest(${`{${chatIds.join(',')}}`}::uuid[]))
    group by chat_id`);
  return new Map(rowsOf<{ chat_id: string; n: number }>(result).map((r) => [r.chat_id, Number(r.n)]));
}

describe('two replicas on one database', () => {
  it('write every due slot exactly once', async () => {
    const database = await createTestDatabase();
    const replica = await openReplicaDatabase(database);
    const env = { ...QUIET_APP, COMPANION_BATCH: '5', COMPANION_CONCURRENCY: '3' };
    const llms = [new ScriptedLlm(), new ScriptedLlm()];
    for (const llm of llms) llm.script = { mode: 'pieces', pieces: ['How are', ' the tomatoes?'], delayMs: 5 };
    const a = await createTestApp({ database, llm: llms[0], env });
    const b = await createTestApp({ database: replica, llm: llms[1], env });
    const chatIds = await dueChats(a.app, database.db, 40);
    const [ca, cb] = await Promise.all([a.app.companion.runDue(never), b.app.companion.runDue(never)]);
    expect((ca.sent ?? 0) + (cb.sent ?? 0)).toBe(40);
    expect(ca.duplicate ?? 0).toBe(0);
    expect(cb.duplicate ?? 0).toBe(0);
    // Both took part (batches of 5 claimed in turn).
    expect(ca.sent ?? 0).toBeGreaterThan(0);
    expect(cb.sent ?? 0).toBeGreaterThan(0);
    const written = await writtenPerChat(database.db, chatIds);
    expect(written.size).toBe(40);
    expect([...written.values()].every((n) => n === 1)).toBe(true);
    // Nothing is due any more: a second round on either writes nothing.
    expect(await a.app.companion.runDue(never)).toEqual({});
  }, 60_000);
});

describe.runIf(testDb.kind === 'postgres')('a replica killed with SIGKILL mid-batch', () => {
  let fake: FakeOpenAi | undefined;
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await fake?.close();
  });

  it('loses nothing: its claimed slots are claimed again after the lease and written once', async () => {
    // The child's model answers nothing: its batch hangs until it is killed.
    fake = await startFakeOpenAi({ behaviour: { mode: 'hang' } });
    const database = await createTestDatabase();
    if (database.raw.kind !== 'postgres') throw new Error('PostgreSQL only');
    const llm = new ScriptedLlm();
    llm.script = { mode: 'pieces', pieces: ['Did the tomatoes grow?'] };
    // The surviving replica: its own job schema, so only the child runs the recurring claim.
    const b = await createTestApp({ database: await openReplicaDatabase(database), llm, env: QUIET_APP });
    const chatIds = await dueChats(b.app, database.db, 6);

    const child = spawn(process.execPath, ['--import', 'tsx', 'test/replica-process.ts'], {
      cwd: serverRoot,
      env: {
        ...process.env,
        REPLICA_DATABASE_URL: database.raw.url,
        REPLICA_ENV: JSON.stringify({
          LLM_PROVIDER: 'openai',
          LLM_BASE_URL: fake.url,
          LLM_MODEL: 'fake-model',
          LLM_TIMEOUT_S: '60',
          JWT_SECRET: b.config.JWT_SECRET!,
          COMPANION_TICK_S: '1',
          COMPANION_LEASE_S: '3',
          COMPANION_BATCH: '10',
          COMPANION_CONCURRENCY: '2',
          JOBS_MAINTENANCE_S: '1',
        }),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    // Wait until the child has claimed every slot (one batch) and asked the model.
    const started = Date.now();
    for (;;) {
      const result = await database.db.execute(
        sql`select count(*)::int as n from companion_slots where attempts = 1 and due_at > now()`,
      );
      if (Number(rowsOf<{ n: number }>(result)[0]!.n) === 6 && fake.requests.length >= 1) break;
      if (Date.now() - started > 30_000) throw new Error('the child never claimed the batch');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    expect(await writtenPerChat(database.db, chatIds)).toEqual(new Map());

    // Before the lease ends nothing is claimable; after it, the survivor writes each slot once.
    expect(await b.app.companion.runDue(never)).toEqual({});
    await new Promise((resolve) => setTimeout(resolve, 3200));
    const counts = await b.app.companion.runDue(never);
    expect(counts.sent).toBe(6);
    const written = await writtenPerChat(database.db, chatIds);
    expect(written.size).toBe(6);
    expect([...written.values()].every((n) => n === 1)).toBe(true);
  }, 60_000);
});
