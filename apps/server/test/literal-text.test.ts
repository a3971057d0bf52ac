import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { EDITIONS } from '@reverie/shared';
import { bots, blogPosts } from '../src/db/schema.js';
import { escapeHtml, scriptJson } from '../src/lib/html.js';
import { renderNoticeEmail } from '../src/lib/notice-email.js';
import { renderCharacterDecisionEmail } from '../src/modules/admin/review.emails.js';
import { renderEmail } from '../src/modules/accounts/accounts.emails.js';
import { createTestApp, createTestDatabase } from './helpers.js';

/**
 * Issue 27: user text goes into pages and mails literally. `String.replace` with a string
 * reads `$&` (the match), `` $` `` (what precedes it), `$'` (what follows) and `$1` in it:
 * a character named `$'` turned `/` into the catalogue's raw JSON.
 */
const HOSTILE = `A $ B $& C $\` D $' E $1 F </script><script>alert("x")</script> 'q' "qq" & <b>`;

const TEMPLATE = `<!doctype html>
<html lang="en" data-edition="reverie">
  <head>
    <title>Reverie</title>
    <!--app-head-->
  </head>
  <body><div id="root"></div></body>
</html>`;

function makeDist(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-literal-'));
  fs.writeFileSync(path.join(dir, 'index.html'), TEMPLATE);
  return dir;
}

/** The page is the template with its slots filled: one head, one title, the app's root, the end. */
function expectIntact(html: string) {
  expect(html.startsWith('<!doctype html>\n<html lang="en" data-edition="reverie">')).toBe(true);
  expect(html.trimEnd().endsWith('<body><div id="root"></div></body>\n</html>')).toBe(true);
  expect(html.match(/<title>/g)).toHaveLength(1);
  expect(html.match(/<\/head>/g)).toHaveLength(1);
  expect(html.match(/<html/g)).toHaveLength(1);
  expect(html).not.toContain('<!--app-head-->');
  // Nothing but the inline catalogue is a script, and nothing closes it early.
  expect(html.match(/<script/g)?.length ?? 0).toBeLessThanOrEqual(1);
  expect(html.match(/<\/script>/g)?.length ?? 0).toBeLessThanOrEqual(1);
  expect(html).not.toContain('alert("x")');
}

describe('user text is written literally into pages (issue 27)', async () => {
  const database = await createTestDatabase();
  await database.db.insert(bots).values({
    slug: 'hostile-one',
    name: HOSTILE,
    age: 24,
    description: `${HOSTILE} description`,
    greeting: `${HOSTILE} greeting`,
    tags: [HOSTILE, `$'`],
    avatarUrl: '/api/media/hostile.png',
    visibility: 'public',
    reviewState: 'approved',
    isOfficial: true,
  });
  await database.db.insert(blogPosts).values([
    { id: 'hostile-post', title: HOSTILE, summary: `${HOSTILE} summary`, body: '# Hi' },
    // A post without SEO fields (title and summary) and one with them.
    {
      id: 'hostile-seo',
      title: 'Plain',
      summary: 'Plain',
      seoTitle: `${HOSTILE} seo`,
      seoDescription: `${HOSTILE} seo description`,
      body: '# Hi',
    },
  ]);
  const { app } = await createTestApp({
    database,
    webDistDir: makeDist(),
    env: { PUBLIC_URL: 'https://reverie.example' },
  });

  it('keeps / intact: the catalogue JSON holds the name and tags as they are', async () => {
    const res = await app.inject('/');
    expect(res.statusCode).toBe(200);
    expectIntact(res.body);
    const script = /<script type="application\/json" id="reverie-catalogue">([^<]*)<\/script>/.exec(res.body);
    expect(script).not.toBeNull();
    const page = JSON.parse(script![1]!) as { results: { name: string; description: string; tags: string[] }[] };
    expect(page.results[0]!.name).toBe(HOSTILE);
    expect(page.results[0]!.description).toBe(`${HOSTILE} description`);
    expect(page.results[0]!.tags).toContain(HOSTILE);
    expect(script![1]).not.toMatch(/[<>&]/);
  });

  it("keeps a character's page intact, its title and previews carrying the text escaped", async () => {
    const res = await app.inject('/hostile-one');
    expect(res.statusCode).toBe(200);
    expectIntact(res.body);
    expect(res.body).toContain(`<title>${escapeHtml(HOSTILE)} — Reverie</title>`);
    expect(res.body).toContain(`<meta property="og:title" content="${escapeHtml(HOSTILE)} — Reverie" />`);
    expect(res.body).toContain(`<meta property="og:description" content="${escapeHtml(`${HOSTILE} description`)}" />`);
    expect(res.body).toContain('<meta property="og:url" content="https://reverie.example/hostile-one" />');
    expect(res.body).toContain('<link rel="preload" as="image" fetchpriority="high" href="/api/media/hostile.png">');
  });

  it('uses the greeting when there is no description, escaped', async () => {
    await database.db.update(bots).set({ description: '' }).where(eq(bots.slug, 'hostile-one'));
    const res = await app.inject('/hostile-one');
    expectIntact(res.body);
    expect(res.body).toContain(`<meta name="description" content="${escapeHtml(`${HOSTILE} greeting`)}" />`);
    await database.db
      .update(bots)
      .set({ description: `${HOSTILE} description` })
      .where(eq(bots.slug, 'hostile-one'));
  });

  it("keeps a blog post's page intact, title and summary (and SEO fields) escaped", async () => {
    const post = await app.inject('/blog/hostile-post');
    expect(post.statusCode).toBe(200);
    expectIntact(post.body);
    expect(post.body).toContain(`<title>${escapeHtml(HOSTILE)} — Reverie</title>`);
    expect(post.body).toContain(`<meta name="description" content="${escapeHtml(`${HOSTILE} summary`)}" />`);
    const seo = await app.inject('/blog/hostile-seo');
    expectIntact(seo.body);
    expect(seo.body).toContain(`<title>${escapeHtml(`${HOSTILE} seo`)}</title>`);
    expect(seo.body).toContain(`<meta name="description" content="${escapeHtml(`${HOSTILE} seo description`)}" />`);
  });

  it('keeps the canonical link of any path literal (no account needed)', async () => {
    for (const hostilePath of ["/zz$'yy", '/zz$&yy', '/zz$`yy', '/zz$1yy', '/zz%3C/script%3Eyy', '/a\'b"c']) {
      const res = await app.inject(hostilePath);
      expectIntact(res.body);
      const url = new URL(hostilePath, 'https://reverie.example').toString();
      expect(res.body, hostilePath).toContain(`<link rel="canonical" href="${escapeHtml(url)}" />`);
      expect(res.body, hostilePath).toContain(`<meta property="og:url" content="${escapeHtml(url)}" />`);
    }
  });
});

describe('user text is written literally into mails (issue 27)', () => {
  const edition = EDITIONS.reverie;

  /** The HTML holds the value escaped, the text body as it is; the document is whole. */
  function expectLiteral(mail: { html: string; text: string; subject: string }, value: string) {
    expect(mail.text).toContain(value);
    expect(mail.html).toContain(escapeHtml(value));
    expect(mail.html).not.toContain('alert("x")');
    expect(mail.html.match(/<\/html>/g)).toHaveLength(1);
    expect(mail.html.match(/<script/g)).toBeNull();
  }

  it('account mails carry the user name literally', () => {
    for (const kind of ['verify', 'reset', 'welcome'] as const) {
      const mail = renderEmail({
        kind,
        locale: 'en',
        edition,
        name: HOSTILE,
        actionUrl: 'https://reverie.example/verify?code=abc',
        unsubscribeUrl: 'https://reverie.example/unsubscribe?token=t',
        vars: { days: 7, minutes: 60 },
      });
      expectLiteral(mail, `Hi ${HOSTILE},`);
    }
  });

  it("notices carry a character's name, the author's name and an administrator's words literally", () => {
    const decision = renderCharacterDecisionEmail({
      kind: 'character_rejected',
      locale: 'en',
      edition,
      name: HOSTILE,
      character: `${HOSTILE} character`,
      reason: `${HOSTILE} reason`,
      actionUrl: 'https://reverie.example/hostile-one',
    });
    expectLiteral(decision, `Hi ${HOSTILE},`);
    expectLiteral(decision, `${HOSTILE} character`);
    expectLiteral(decision, `${HOSTILE} reason`);
    expect(decision.subject).toContain(`${HOSTILE} character`);
    const answer = renderNoticeEmail({
      kind: 'support_answer',
      locale: 'en',
      edition,
      vars: { subject: `${HOSTILE} subject` },
      quote: `${HOSTILE} answer`,
    });
    expectLiteral(answer, `${HOSTILE} subject`);
    expectLiteral(answer, `${HOSTILE} answer`);
  });

  it('scriptJson keeps </script>, <!-- and line separators out, and parses back', () => {
    const value = { text: `${HOSTILE} <!-- --> \u2028 \u2029` };
    const json = scriptJson(value);
    expect(json).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(json)).toEqual(value);
  });
});
