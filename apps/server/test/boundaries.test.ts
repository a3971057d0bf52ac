import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../src/lib/paths.js';

/**
 * The boundary rules of eslint.config.js (docs/ARCHITECTURE.md "Boundaries"): each fires on
 * the imports it forbids, stays quiet on the ones allowed, and the code base has no violation.
 * The texts are linted with the repository's own eslint.config.js, as `npm run lint` does.
 */
const root = repoRoot();
const ruleFilter = ({ ruleId }: { ruleId: string }) => ruleId.startsWith('reverie/');
const eslint = new ESLint({ cwd: root, ruleFilter });
const lengthLint = new ESLint({ cwd: root, ruleFilter: ({ ruleId }) => ruleId === 'max-lines-per-function' });
const syntaxLint = new ESLint({ cwd: root, ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-syntax' });

/**
 * The boundary and function-length problems of the code base, linted once for the tests that
 * look at the whole tree (parsing it is most of the file's time).
 */
let tree: Promise<{ file: string; line: number; rule: string | null; severity: number }[]> | undefined;
function treeProblems() {
  tree ??= new ESLint({
    cwd: root,
    ruleFilter: ({ ruleId }) => ruleId.startsWith('reverie/') || ruleId === 'max-lines-per-function',
  })
    .lintFiles(['apps/web/src/features', 'apps/web/src/lib', 'apps/web/src/components', 'apps/server/src'])
    .then((results) =>
      results.flatMap((r) =>
        r.messages.map((m) => ({
          file: r.filePath.slice(root.length + 1),
          line: m.line,
          rule: m.ruleId,
          severity: m.severity,
        })),
      ),
    );
  return tree;
}

async function lint(filePath: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: `${root}/${filePath}` });
  return result!;
}

async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  return (await lint(filePath, code)).messages.map((m) => m.ruleId ?? m.message);
}

describe('boundary rules', () => {
  it('a web feature may not import another feature, in any form', async () => {
    const file = 'apps/web/src/features/billing/components/x.tsx';
    for (const code of [
      "import { useBotQuery } from '../../characters/api/get-bot';",
      "export { useBotQuery } from '../../characters/api/get-bot';",
      "export const load = () => import('../../chat/components/chat-view');",
      "type T = import('../../../features/auth/auth-flow').Tokens;",
      "vi.mock('../../voice/api/request-audio', () => ({}));",
    ])
      expect(await boundaryErrors(file, code), code).toEqual(['reverie/no-cross-feature-imports']);
    expect(
      await boundaryErrors(
        file,
        "import { a } from '../api/get-plans';\nimport { b } from '../../../lib/session';\nimport { c } from 'react';",
      ),
    ).toEqual([]);
  });

  it('lib/ and components/ may not import a feature', async () => {
    expect(await boundaryErrors('apps/web/src/lib/x.ts', "import { a } from '../features/auth/auth-flow';")).toEqual([
      'reverie/no-feature-imports',
    ]);
    expect(
      await boundaryErrors('apps/web/src/components/ui/x.tsx', "import { a } from '../../features/chat/stream';"),
    ).toEqual(['reverie/no-feature-imports']);
    expect(await boundaryErrors('apps/web/src/lib/x.ts', "import { a } from './storage';")).toEqual([]);
  });

  it("a server module may not import another module's repository", async () => {
    const file = 'apps/server/src/modules/media/x.ts';
    // module-imports-through-index reports these too; it replaces this rule once it is an error.
    expect(await boundaryErrors(file, "import { findBotById } from '../bots/bots.repository.js';")).toContain(
      'reverie/no-foreign-repository-imports',
    );
    expect(await boundaryErrors(file, "import { readBalance } from '../billing/ledger.repository.js';")).toContain(
      'reverie/no-foreign-repository-imports',
    );
    expect(
      await boundaryErrors(
        file,
        "import { findBotById } from '../bots/index.js';\nimport { hasPremium } from '../billing/billing.service.js';\nimport { x } from './media.repository.js';",
      ),
    ).not.toContain('reverie/no-foreign-repository-imports');
    // Outside the modules (CLIs, app.ts, src/seed.ts, tests) repositories may be used directly.
    expect(
      await boundaryErrors(
        'apps/server/src/cli/x.ts',
        "import { insertBot } from '../modules/bots/bots.repository.js';",
      ),
    ).toEqual([]);
  });

  it('a server module imports another module only through its index.js', async () => {
    const file = 'apps/server/src/modules/media/x.ts';
    for (const code of [
      "import { hasPremium } from '../billing/billing.service.js';",
      "import type { LiveSession } from '../accounts/sessions.js';",
      "export { findBotById } from '../bots/bots.repository.js';",
      "const m = await import('../chats/runner.js');",
      "type T = import('../audio/language.js').Language;",
      "vi.mock('../pictures/blur.js', () => ({}));",
      "import { x } from '../../modules/bots/explicit-pictures.js';",
    ])
      expect(await boundaryErrors(file, code), code).toContain('reverie/module-imports-through-index');
    expect(
      await boundaryErrors(
        file,
        "import { hasPremium } from '../billing/index.js';\nimport type { BotRow } from '../bots/index.js';\nimport { x } from './media.service.js';\nimport { y } from '../../lib/errors.js';",
      ),
    ).toEqual([]);
    // Outside the modules (app.ts, src/seed.ts, cli/, test/) a module's files may be named.
    expect(await boundaryErrors('apps/server/src/app.ts', "import { x } from './modules/chats/runner.js';")).toEqual(
      [],
    );
  });

  it('db/, lib/, plugins/ and providers/ never import a module', async () => {
    for (const [file, code] of [
      ['apps/server/src/db/x.ts', "import { insertBot } from '../modules/bots/bots.repository.js';"],
      ['apps/server/src/lib/x.ts', "import type { LiveSession } from '../modules/accounts/sessions.js';"],
      ['apps/server/src/plugins/x.test.ts', "import { bots } from '../modules/bots/index.js';"],
      ['apps/server/src/providers/tts/x.ts', "vi.mock('../../modules/audio/language.js');"],
    ])
      expect(await boundaryErrors(file!, code!), `${file}: ${code}`).toEqual(['reverie/no-module-imports']);
    expect(
      await boundaryErrors(
        'apps/server/src/providers/tts/x.ts',
        "import { a } from '../../lib/errors.js';\nimport { b } from '../storage/index.js';\nimport { c } from '../../db/client.js';",
      ),
    ).toEqual([]);
  });

  it('no query builder or sql template outside repositories and db/', async () => {
    const service = 'apps/server/src/modules/media/media.service.ts';
    for (const [file, code] of [
      [service, "import { eq } from 'drizzle-orm';"],
      [service, "import { sql, type SQL } from 'drizzle-orm';"],
      [service, "import { alias } from 'drizzle-orm/pg-core';"],
      [service, "import { bots } from '../../db/schema.js';"],
      [service, "import * as schema from '../../db/schema.js';"],
      [service, "import { executePrepared } from '../../db/prepared.js';"],
      [service, "export { sql } from 'drizzle-orm';"],
      [service, "const { sql } = await import('drizzle-orm');"],
      ['apps/server/src/lib/x.ts', "import { sql } from 'drizzle-orm';"],
      ['apps/server/src/cli/x.ts', "import { users } from '../db/schema.js';"],
      ['apps/server/src/providers/limits/x.counter.ts', "import { sql } from 'drizzle-orm';"],
    ])
      expect(await boundaryErrors(file!, code!), `${file}: ${code}`).toEqual(['reverie/no-sql-outside-repositories']);
    // Types too: a table's type is the repositories' business (a row type comes from a repository).
    for (const code of [
      "import type { SQL } from 'drizzle-orm';",
      "import { type InferSelectModel } from 'drizzle-orm';",
      "import type { CharacterBook } from '../../db/schema.js';",
      "type T = import('drizzle-orm').SQL;",
    ])
      expect(await boundaryErrors(service, code), code).toEqual(['reverie/no-sql-outside-repositories']);
    // The places SQL belongs: repositories, db/, tests.
    for (const file of [
      'apps/server/src/modules/media/media.repository.ts',
      'apps/server/src/providers/limits/rate-limits.repository.ts',
      'apps/server/src/db/x.ts',
      'apps/server/src/modules/media/media.test.ts',
    ])
      expect(await boundaryErrors(file, "import { eq, sql } from 'drizzle-orm';"), file).toEqual([]);
  });

  it('a web feature never imports app/', async () => {
    const file = 'apps/web/src/features/billing/components/x.tsx';
    for (const code of [
      "import { useModal } from '../../../app/modals';",
      "import type { ModalProps } from '../../../app/modals';",
      "export { AppProviders } from '../../../app/providers';",
      "const r = () => import('../../../app/router');",
      "vi.mock('../../../app/layout/layout-mode', () => ({}));",
    ])
      expect(await boundaryErrors(file, code), code).toEqual(['reverie/no-app-imports']);
    expect(await boundaryErrors(file, "import { useModal } from '../../../lib/modals';")).toEqual([]);
  });

  it("a web effect's body is in braces: a concise arrow's value would be called as its clean-up", async () => {
    const file = 'apps/web/src/features/chat/components/x.tsx';
    const errors = async (code: string) =>
      (await syntaxLint.lintText(code, { filePath: `${root}/${file}` }))[0]!.messages.map((m) => [
        m.ruleId,
        m.severity,
      ]);
    for (const code of [
      'useEffect(() => ref.current?.scrollIntoView({ block: "center" }), [hit]);',
      'useLayoutEffect(() => setOpen(false), []);',
      'React.useEffect(() => fetchData(id), [id]);',
    ])
      expect(await errors(code), code).toEqual([['no-restricted-syntax', 2]]);
    for (const code of [
      'useEffect(() => { ref.current?.scrollIntoView({ block: "center" }); }, [hit]);',
      'useEffect(() => () => stream.current?.abort(), []);',
      'useEffect(() => { return subscribe(onChange); }, []);',
      'useMemo(() => compute(a), [a]);',
    ])
      expect(await errors(code), code).toEqual([]);
  });

  it('npm run lint reports each planted violation with its rule, and fails on the ones that are errors', async () => {
    const planted: [string, string, string][] = [
      ['reverie/no-cross-feature-imports', 'apps/web/src/features/chat/x.ts', "import { a } from '../auth/auth-flow';"],
      ['reverie/no-feature-imports', 'apps/web/src/lib/x.ts', "import { a } from '../features/auth/auth-flow';"],
      [
        'reverie/no-foreign-repository-imports',
        'apps/server/src/modules/media/x.ts',
        "import { a } from '../bots/bots.repository.js';",
      ],
      [
        'reverie/module-imports-through-index',
        'apps/server/src/modules/media/x.ts',
        "import { a } from '../bots/bots.service.js';",
      ],
      [
        'reverie/no-module-imports',
        'apps/server/src/plugins/x.ts',
        "import { a } from '../modules/accounts/index.js';",
      ],
      [
        'reverie/no-sql-outside-repositories',
        'apps/server/src/modules/media/x.ts',
        "import { eq } from 'drizzle-orm';",
      ],
      ['reverie/no-app-imports', 'apps/web/src/features/chat/x.ts', "import { a } from '../../app/modals';"],
    ];
    for (const [rule, file, code] of planted) {
      const result = await lint(file, code);
      expect(
        result.messages.map((m) => [m.ruleId, m.severity]),
        rule,
      ).toContainEqual([rule, 2]);
      // `eslint .` (npm run lint) exits with 1 when a file has an error.
      expect(result.errorCount > 0, rule).toBe(true);
    }
  });

  it('a function of modules/chats is at most 60 lines long (max-lines-per-function)', async () => {
    const lengthErrors = async (file: string, code: string) =>
      (await lengthLint.lintText(code, { filePath: `${root}/${file}` }))[0]!.messages.map((m) => [
        m.ruleId,
        m.severity,
        m.line,
      ]);
    const body = (count: number) => Array.from({ length: count }, (_, i) => `  const a${i} = ${i};`).join('\n');
    // A function of n lines: its first line, n - 2 statements, its last line.
    const planted = (lines: number) =>
      `export function f(): void {\n${body(lines - 2)}\n}\nexport class C {\n  m(): void {\n${body(lines - 2)}\n  }\n}\n`;
    const file = 'apps/server/src/modules/chats/x.ts';
    expect(await lengthErrors(file, planted(60))).toEqual([]);
    expect(await lengthErrors(file, planted(61))).toEqual([
      ['max-lines-per-function', 2, 1],
      ['max-lines-per-function', 2, 63],
    ]);
    // Other modules and the chats module's tests are not held to it.
    expect(await lengthErrors('apps/server/src/modules/bots/x.ts', planted(61))).toEqual([]);
    expect(await lengthErrors('apps/server/src/modules/chats/x.test.ts', planted(61))).toEqual([]);
    // `npm run lint` fails on it, and the module has no such function.
    expect(
      (await treeProblems()).filter((p) => p.rule === 'max-lines-per-function').map((p) => `${p.file}:${p.line}`),
    ).toEqual([]);
  }, 90_000);

  it('the code base keeps every boundary that is an error', async () => {
    expect(
      (await treeProblems())
        .filter((p) => p.rule?.startsWith('reverie/') && p.severity === 2)
        .map((p) => `${p.file}:${p.line} ${p.rule}`),
    ).toEqual([]);
  }, 90_000);
});
