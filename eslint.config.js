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
    files: ['apps/web/src/features/**/*.{ts,tsx}'],
    rules: { 'reverie/no-app-imports': 'error' },
  },
);
