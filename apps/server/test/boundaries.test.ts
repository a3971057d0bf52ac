import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../src/lib/paths.js';

/**
 * The boundary rules of eslint.config.js (docs/ARCHITECTURE.md "Boundaries"): each fires on
 * the imports it forbids, stays quiet on the ones allowed, and the code base has no violation.
 */
const root = repoRoot();
const ruleFilter = ({ ruleId }: { ruleId: string }) => ruleId.startsWith('reverie/');
const eslint = new ESLint({ cwd: root, ruleFilter });

async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}/${filePath}` });
  return result!.messages.map((m) => m.ruleId ?? m.message);
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
    expect(await boundaryErrors(file, "import { findBotById } from '../bots/bots.repository.js';")).toEqual([
      'reverie/no-foreign-repository-imports',
    ]);
    expect(await boundaryErrors(file, "import { readBalance } from '../billing/ledger.repository.js';")).toEqual([
      'reverie/no-foreign-repository-imports',
    ]);
    expect(
      await boundaryErrors(
        file,
        "import { findBotById } from '../bots/index.js';\nimport { hasPremium } from '../billing/billing.service.js';\nimport { x } from './media.repository.js';",
      ),
    ).toEqual([]);
    // Outside the modules (seeds, CLIs, tests) repositories may be used directly.
    expect(
      await boundaryErrors(
        'apps/server/src/db/x.ts',
        "import { insertBot } from '../modules/bots/bots.repository.js';",
      ),
    ).toEqual([]);
  });

  it('the code base keeps every boundary', async () => {
    const results = await eslint.lintFiles([
      'apps/web/src/features',
      'apps/web/src/lib',
      'apps/web/src/components',
      'apps/server/src/modules',
    ]);
    const problems = results.flatMap((r) =>
      r.messages.map((m) => `${r.filePath.slice(root.length + 1)}:${m.line} ${m.ruleId}`),
    );
    expect(problems).toEqual([]);
  }, 90_000);
});
