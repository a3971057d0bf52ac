import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { memories } from '../../db/schema.js';
import { createBot, createChat, createMessage, createUser } from '../../../test/factories.js';
import { startFakeOpenAi, type FakeOpenAi } from '../../../test/fake-openai.js';
import { createTestApp, createTestDatabase, openReplicaDatabase, type TestApp } from '../../../test/helpers.js';

/**
 * Two replicas on one database extracting for one user and character (docs/memory.md
 * "Replicas"): the job's singleton key lets one run, the dedupe key keeps one row per fact.
 */
let fake: FakeOpenAi;
const apps: TestApp[] = [];
afterAll(async () => {
  for (const t of apps) await t.app.close().catch(() => undefined);
  await fake?.close();
});

describe('memory extraction on two replicas', () => {
  it('asks the model once and stores each fact once', async () => {
    fake = await startFakeOpenAi();
    fake.setResponder((body) =>
      body.response_format
        ? JSON.stringify({
            operations: [
              {
                op: 'add',
                memory: null,
                kind: 'user',
                subject: 'user',
                text: 'Alex grows tomatoes on the balcony.',
                importance: 3,
                event_date: null,
                sources: [1],
              },
            ],
          })
        : 'ok',
    );
    const env = {
      LLM_PROVIDER: 'openai',
      LLM_BASE_URL: fake.url,
      LLM_MODEL: 'fake-model',
      MEMORY_EXTRACT_DELAY_S: '1',
    };
    const database = await createTestDatabase();
    const a = await createTestApp({ env, database, jobsSchema: 'pgboss_memories' });
    apps.push(a);
    const b = await createTestApp({
      env,
      database: await openReplicaDatabase(database),
      jobsSchema: 'pgboss_memories',
    });
    apps.push(b);

    const { user } = await createUser(a.app, database.db);
    const bot = await createBot(database.db, { name: 'Mia' });
    const chat = await createChat(database.db, { userId: user.id, botId: bot.id });
    const said = await createMessage(database.db, chat, { text: 'I grow tomatoes on my balcony.' });
    const reply = {
      chatId: chat.id,
      userId: user.id,
      botId: bot.id,
      memoryIds: [],
      reply: '',
      characterName: 'Mia',
      userName: 'Alex',
      locale: 'en' as const,
    };
    // Both replicas answer a turn of the pair at the same moment, twice each.
    await Promise.all([
      a.app.memories.replied({ ...reply, messageId: randomUUID() }),
      b.app.memories.replied({ ...reply, messageId: randomUUID() }),
      a.app.memories.replied({ ...reply, messageId: randomUUID() }),
      b.app.memories.replied({ ...reply, messageId: randomUUID() }),
    ]);
    const deadline = Date.now() + 20_000;
    while (fake.requests.filter((r) => r.response_format).length === 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    await Promise.all([a.app.memories.idle(), b.app.memories.idle()]);

    expect(fake.requests.filter((r) => r.response_format)).toHaveLength(1);
    const rows = await database.db.select().from(memories).where(eq(memories.userId, user.id));
    expect(rows.map((r) => r.text)).toEqual(['Alex grows tomatoes on the balcony.']);
    expect(rows[0]!.sourceMessageIds).toEqual([said.id]);
  });
});
