// Lint fences the workflow sandbox: workflow code must stay deterministic, so it may import
// only @temporalio/workflow, its own files and types. Everything else gets the type-aware
// basics (no floating promises: an unawaited promise in a handler loses errors).
import tseslint from 'typescript-eslint';

const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'crypto', 'child_process', 'net', 'http', 'https', 'stream', 'events', 'util', 'timers'];

export default tseslint.config(
  { ignores: ['node_modules/**', '.hangar/**', 'dist/**', 'eslint.config.mjs'] },
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  {
    files: ['workflows/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: nodeBuiltins, message: 'Workflows are deterministic: no Node built-ins.' },
            { group: ['knex', 'pg', 'dockerode', '@temporalio/client', '@temporalio/worker', '@temporalio/activity'], message: 'Workflows may not do I/O; call an activity.' },
            // The cron module is pure and deterministic (no clock, no Node built-ins) by design.
            { regex: '^(\\.\\./)+src/(?!automations/cron$)', message: 'Workflows may not import src/.' },
            { group: ['../activities/*', '../activities/**'], message: 'Import activity types only (import type).', allowTypeImports: true },
          ],
        },
      ],
      'no-restricted-globals': ['error', { name: 'setTimeout', message: 'Use sleep() from @temporalio/workflow.' }],
      'no-restricted-properties': [
        'error',
        { object: 'Math', property: 'random', message: 'Use the SDK’s deterministic random (it is patched, but say so explicitly).' },
      ],
    },
  },
);
