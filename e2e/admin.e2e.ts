import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, startPgApp, type PgApp } from './support/pg-app';

/**
 * Journey (issue 15): an administrator approves a pending public character, answers a support
 * report by e-mail and grants desires — each through the console's pages, each checked in the
 * database it lands in. The server runs on its own PostgreSQL database so the test can make
 * the administrator and the items waiting for one.
 */

let app: PgApp;
let browser: Browser | null = null;
let adminId = '';
let authorId = '';
let characterId = '';
let reportId = '';
let memberId = '';

beforeAll(async () => {
  app = await startPgApp();
  adminId = await app.createUser({ name: 'Ada Admin' });
  await app.sql`update users set role = 'admin' where id = ${adminId}`;
  authorId = await app.createUser({ name: 'Casey Author' });
  // A signed-in author's support answer goes to the account's confirmed address (issue 27).
  await app.sql`update users set email = ${'casey@example.test'} where id = ${authorId}`;
  const [character] = await app.sql<{ id: string }[]>`
    insert into bots (slug, name, age, description, greeting, tags, visibility, review_state, is_official, author_id)
    values ('marisol-pending', 'Marisol Quay', 31, ${'A harbour pilot who tells sea stories.'}, ${'Ahoy.'},
            ${['realistic']}, 'public', 'pending', false, ${authorId})
    returning id`;
  characterId = character!.id;
  const [report] = await app.sql<{ id: string }[]>`
    insert into support_reports (user_id, email, subject, text)
    values (${authorId}, ${'casey@example.test'}, ${'Voice stops'}, ${'The voice message stops after ten seconds.'})
    returning id`;
  reportId = report!.id;
  memberId = await app.createUser({ name: 'Morgan Member', numTokens: 10 });
  browser = await launchChromium();
}, 200_000);

afterAll(async () => {
  await browser?.close().catch(() => {});
  await app?.stop();
});

async function adminPage(viewport = { width: 1280, height: 800 }): Promise<Page> {
  const context = await app.signedInContext(browser!, adminId, viewport);
  return context.newPage();
}

describe('admin console journey', () => {
  it('approves a pending character: it is listed under Custom', async () => {
    const page = await adminPage();
    await page.goto(`${app.baseUrl}/admin/review`);
    // The navigation counts what waits.
    await expect.poll(() => page.getByTestId('admin-count-review').textContent()).toBe('1');
    const item = page.getByTestId(`review-item-${characterId}`);
    await item.getByText('Marisol Quay').waitFor();
    await item.getByTestId('review-approve').click();
    await page.getByTestId('review-empty').waitFor();
    const [row] = await app.sql<{ review_state: string; reviewed_by: string }[]>`
      select review_state, reviewed_by from bots where id = ${characterId}`;
    expect(row).toEqual({ review_state: 'approved', reviewed_by: adminId });
    const custom = await fetch(`${app.baseUrl}/api/bots/available?tags=custom&size=100`).then((r) => r.json());
    expect((custom as { results: { slug: string }[] }).results.map((b) => b.slug)).toContain('marisol-pending');
    const audit = await app.sql`select action from audit_log where target_id = ${characterId}`;
    expect(audit.map((r) => r.action)).toContain('character.approve');
  });

  it('answers a support report: the answer is stored and e-mailed', async () => {
    const page = await adminPage();
    await page.goto(`${app.baseUrl}/admin/reports`);
    await page.getByTestId('reports-tab-support').click();
    await page.getByTestId('admin-support-report-row').filter({ hasText: 'Voice stops' }).first().click();
    await page.getByTestId('admin-support-report').waitFor();
    await page.locator('#support-answer').fill('Thanks! Update the app: voice messages now play to the end.');
    await page.getByTestId('support-answer-send').click();
    await expect
      .poll(async () => (await app.sql`select answer, status from support_reports where id = ${reportId}`)[0])
      .toEqual({ answer: 'Thanks! Update the app: voice messages now play to the end.', status: 'closed' });
    await expect
      .poll(async () => (await app.sql`select 1 from mail_outbox where to_address = 'casey@example.test'`).length)
      .toBe(1);
  });

  it('grants desires with a reason: one ledger entry, the balance up', async () => {
    const page = await adminPage({ width: 390, height: 844 });
    await page.goto(`${app.baseUrl}/admin/users`);
    await page.getByTestId('admin-users-search').fill('Morgan');
    // On a phone the table is a list of cards.
    await page.getByTestId('admin-card').filter({ hasText: 'Morgan Member' }).click();
    await page.getByTestId('admin-user-name').filter({ hasText: 'Morgan Member' }).waitFor();
    await page.getByTestId('action-grant').click();
    await page.locator('#desires-amount').fill('25');
    // The reason is required: confirming without one says so and grants nothing.
    await page.getByTestId('desires-form-confirm').click();
    await page.locator('#desires-form-reason-error').waitFor();
    await page.locator('#desires-form-reason').fill('Voice bug compensation');
    await page.getByTestId('desires-form-confirm').click();
    await expect.poll(() => page.getByTestId('admin-user-balance').textContent()).toContain('35');
    const ledger = await app.sql`select amount, reason, reference from ledger_entries
      where user_id = ${memberId} and idempotency_key not like 'e2e-start:%'`;
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ amount: 25, reason: 'adjustment' });
    const [user] = await app.sql<{ num_tokens: number }[]>`select num_tokens from users where id = ${memberId}`;
    expect(user!.num_tokens).toBe(35);
    const audit = await app.sql`select action, reason from audit_log where target_id = ${memberId}`;
    expect(audit).toEqual([expect.objectContaining({ reason: 'Voice bug compensation' })]);
  });

  it('a signed-in user who is not an administrator sees "forbidden"', async () => {
    const context = await app.signedInContext(browser!, memberId);
    const page = await context.newPage();
    await page.goto(`${app.baseUrl}/admin`);
    await page.getByTestId('admin-forbidden').waitFor();
  });
});
