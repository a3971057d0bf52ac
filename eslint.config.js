import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import boundaries from './scripts/eslint-boundaries.js';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      'e2e/artifacts/**',
      'apps/server/drizzle/**',
      'coverage/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  // Boundaries (docs/ARCHITECTURE.md "Boundaries"): checked, not hoped for.
  { plugins: { reverie: boundaries } },
  {
    files: ['apps/web/src/features/**/*.{ts,tsx}'],
    rules: { 'reverie/no-cross-feature-imports': 'error' },
  },
  {
    files: ['apps/web/src/lib/**/*.{ts,tsx}', 'apps/web/src/components/**/*.{ts,tsx}'],
    rules: { 'reverie/no-feature-imports': 'error' },
  },
  {
    files: ['apps/server/src/modules/**/*.ts'],
    rules: {
      'reverie/no-foreign-repository-imports': 'error',
      'reverie/module-imports-through-index': 'error',
    },
  },
  {
    files: [
      'apps/server/src/db/**/*.ts',
      'apps/server/src/lib/**/*.ts',
      'apps/server/src/plugins/**/*.ts',
      'apps/server/src/providers/**/*.ts',
    ],
    rules: { 'reverie/no-module-imports': 'error' },
  },
  {
    // The rule itself lets repositories, db/ and tests through.
    files: ['apps/server/src/**/*.ts'],
    rules: { 'reverie/no-sql-outside-repositories': 'error' },
  },
  {
    // Issue 27: a value goes into a server-side template literally — `.replace(pattern, string)`
    // reads `$&`, `$'`, `` $` ``, `$1` in the string as patterns, so a character named `$'` would
    // rewrite the page. Insert values with a function (`() => value`, lib/html.ts `insertLiteral`);
    // only a constant string literal may be a replacement.
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'CallExpression[callee.property.name=/^replace(All)?$/][arguments.length=2][arguments.1.type!=/^(Literal|ArrowFunctionExpression|FunctionExpression)$/]',
          message:
            "A replacement string reads $&, $1, $` and $' as patterns: insert values with a function (() => value), or use a constant string literal.",
        },
      ],
    },
  },
  {
    files: ['apps/web/src/features/**/*.{ts,tsx}'],
    rules: { 'reverie/no-app-imports': 'error' },
  },
  {
    // An effect's body in braces: React calls whatever an effect returns as its clean-up, and a
    // concise arrow returns its expression's value. `useEffect(() => el.scrollIntoView(…))` crashed
    // the chat in Chromium 156, whose scrollIntoView answers a Promise. A concise arrow that
    // returns the clean-up itself (`() => () => …`) stays allowed.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression:matches([callee.name=/^use(Layout|Insertion)?Effect$/], [callee.property.name=/^use(Layout|Insertion)?Effect$/]) > ArrowFunctionExpression[body.type!='BlockStatement'][body.type!='ArrowFunctionExpression']",
          message:
            "Write an effect's body in braces: React calls the value a concise arrow returns as the effect's clean-up (return a clean-up explicitly).",
        },
      ],
    },
  },
  {
    // Issue 25: the chat send path stays a plan and short steps. No function of the chats
    // module is longer than 60 lines, counted from its first line to its last (blank lines and
    // comments included); a longer one wants a step with a name of its own. Tests are exempt.
    files: ['apps/server/src/modules/chats/**/*.ts'],
    ignores: ['apps/server/src/modules/chats/**/*.test.ts'],
    rules: {
      'max-lines-per-function': ['error', { max: 60, skipBlankLines: false, skipComments: false, IIFEs: true }],
    },
  },
);
