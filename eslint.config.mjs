// Lint holds the layering of docs/architecture.md: knex only in src/db; activities, what they
// share (src/worker) and workflows never reach into the API (src/services, src/http), nor the
// API into src/worker; use cases both processes run live in
// src/core, which reaches neither; the domain is pure; the configuration imports no sandbox
// code; and workflow code stays deterministic, importing only @temporalio/workflow, its own
// files, pure src/domain modules and types. Everything gets the type-aware basics (no floating
// promises: an unawaited promise in a handler loses errors).
import tseslint from 'typescript-eslint';

const noKnex = { name: 'knex', message: 'Queries belong in a src/db repository (a transaction handle is `Transaction` from src/db).' };

/** Imports of these src/ folders, from anywhere below src/. */
const below = (...folders) => ({
  regex: `^(\\.\\./)+(src/)?(${folders.join('|')})(/|$)`,
  message: `This layer may not import ${folders.map((f) => `src/${f}`).join(', ')} (docs/architecture.md).`,
});

const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'crypto', 'child_process', 'net', 'http', 'https', 'stream', 'events', 'util', 'timers'];

export default tseslint.config(
  { ignores: ['node_modules/**', '.hangar/**', 'dist/**', 'client/dist/**', 'eslint.config.mjs', '.dependency-cruiser.cjs'] },
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
    // SQL lives in src/db repositories: nothing else holds a knex handle, not even by type.
    files: ['src/**/*.ts'],
    ignores: ['src/db/**', 'src/domain/**', 'src/services/**'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { paths: [noKnex] }] },
  },
  {
    // Use cases sit below HTTP: they raise domain errors and never see a request. Nor do they
    // load the worker's code (an API process never does).
    files: ['src/services/**/*.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { paths: [noKnex], patterns: [below('http', 'worker')] }] },
  },
  {
    // The core holds each use case both processes run (the API's services and the worker's
    // activities): repositories, events, sealed values and domain rules, with no HTTP, no
    // Temporal and no access to either process's own layer. Workflow types only.
    files: ['src/core/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [noKnex, { name: '@temporalio/activity', message: 'The core knows no Temporal; an activity maps its errors.' }],
          patterns: [
            below('services', 'http', 'temporal', 'worker'),
            { regex: '^(\\.\\./)+activities(/|$)', message: 'The core is below the activities (docs/architecture.md).' },
            { regex: '^(\\.\\./)+workflows/', message: 'The core imports workflow types only.', allowTypeImports: true },
          ],
        },
      ],
    },
  },
  {
    // Repositories run SQL for whoever calls them; they know nothing of the layers above.
    files: ['src/db/**/*.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [below('core', 'services', 'http', 'temporal', 'worker')] }] },
  },
  {
    // The domain is pure rules: no database, no HTTP, no use cases, no Temporal.
    files: ['src/domain/**/*.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { paths: [noKnex], patterns: [below('db', 'core', 'services', 'http', 'temporal', 'worker')] }] },
  },
  {
    // The configuration reads the environment for every process; it sits below what it
    // configures, so it never imports the sandbox, the database, the core, use cases, HTTP or
    // Temporal (what they share with it lives in src/config or src/domain).
    files: ['src/config/**/*.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { paths: [noKnex], patterns: [below('sandbox', 'db', 'core', 'services', 'http', 'temporal', 'worker')] }] },
  },
  {
    // The MCP server is a client of the HTTP API: it reaches data only through the API's routes,
    // so every tool call passes the same authentication and tenant checks as any other caller.
    files: ['src/mcp/**/*.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { paths: [noKnex], patterns: [below('db', 'services', 'http', 'temporal')] }] },
  },
  {
    // The user commands are a client like any other: the typed client and their own files,
    // never the server's code (what a key may do is the server's decision, over HTTP).
    files: ['src/cli/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [noKnex],
          patterns: [{ regex: '^\\.\\./(?!\\.\\./client/src$)', message: 'The CLI imports only the typed client (client/src) and src/cli (docs/architecture.md).' }],
        },
      ],
    },
  },
  {
    // The worker side never calls the API's use cases or its HTTP layer.
    files: ['activities/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [noKnex],
          patterns: [{ regex: '^(\\.\\./)+src/(services|http)(/|$)', message: 'Activities use domain, db, sandbox, agents and integrations, never src/services or src/http.' }],
        },
      ],
    },
  },
  {
    // What the activity groups share that is not an activity (a workspace's setup from its
    // environment, the workspace records the worker writes) is worker code like them.
    files: ['src/worker/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [noKnex],
          patterns: [
            below('services', 'http'),
            { regex: '^(\\.\\./)+activities(/|$)', message: 'src/worker is below the activity groups that use it (docs/architecture.md).' },
          ],
        },
      ],
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
            { regex: '^(\\.\\./)+src/(?!domain/cron$)', message: 'Workflows may not import src/ (but the pure cron module).' },
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
  {
    // Mocha loads its configuration and reporters before tsx is registered: plain CommonJS,
    // linted without types.
    files: ['test/support/*.cjs', '.mocharc.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { ...tseslint.configs.disableTypeChecked.languageOptions, sourceType: 'commonjs' },
  },
  {
    // The web console is browser code served as it is (no build step): plain ES modules, linted
    // without type information (they are outside the TypeScript project).
    files: ['console/**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { ...tseslint.configs.disableTypeChecked.languageOptions, sourceType: 'module' },
  },
);
