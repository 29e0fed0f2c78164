// Lint holds the layering of docs/architecture.md: knex only in src/db; activities and workflows
// never reach into the API (src/services, src/http); the domain is pure; and workflow code stays
// deterministic, importing only @temporalio/workflow, its own files, pure src/domain modules and
// types. Everything gets the type-aware basics (no floating promises: an unawaited promise in a
// handler loses errors).
import tseslint from 'typescript-eslint';

// Activities still reading environment resolution from src/services (it moves to src/domain).
const stillImportingServices = ['activities/hooks.ts', 'activities/workspace.ts', 'activities/workspaceSetup.ts'];

// Files whose SQL has not moved into src/db yet (issue 9 is moving them area by area); the list
// only shrinks. A file leaves it once it holds no knex handle.
const stillHoldingKnex = [
  'activities/agentTurns.ts',
  'activities/automationChecks.ts',
  'activities/automationCleanup.ts',
  'activities/automationEvents.ts',
  'activities/automationRuns.ts',
  'activities/automationSchedule.ts',
  'activities/hooks.ts',
  'activities/workspace.ts',
  'activities/workspaceSetup.ts',
  'src/admin/index.ts',
  'src/events/replicaEvents.ts',
  'src/http/routes/index.ts',
  'src/http/routes/replicas.ts',
  'src/http/routes/terminals.ts',
  'src/services/automations/inbox.ts',
  'src/services/automations/index.ts',
  'src/services/automations/intake.ts',
  'src/services/automations/references.ts',
  'src/services/credentials.ts',
  'src/services/environmentResources/context.ts',
  'src/services/environmentResources/files.ts',
  'src/services/environmentResources/index.ts',
  'src/services/environmentResources/variables.ts',
  'src/services/environments.ts',
  'src/services/hooks.ts',
  'src/services/identity.ts',
  'src/services/index.ts',
  'src/services/modelCatalog/index.ts',
  'src/services/organizationSettings.ts',
  'src/services/replicaActivity/chatRows.ts',
  'src/services/replicaActivity/chats.ts',
  'src/services/replicaActivity/eventFeed.ts',
  'src/services/replicaActivity/eventWatermark.ts',
  'src/services/replicaActivity/history.ts',
  'src/services/replicaActivity/index.ts',
  'src/services/replicaActivity/queue.ts',
  'src/services/replicas/access.ts',
  'src/services/replicas/index.ts',
  'src/services/resolution.ts',
  'src/services/userAccount.ts',
  'src/terminals/manager.ts',
  'src/terminals/repository.ts',
  'src/terminals/service.ts',
];

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
    // SQL lives in src/db repositories: nothing else holds a knex handle, not even by type.
    files: ['src/**/*.ts', 'activities/**/*.ts', 'workflows/**/*.ts'],
    ignores: ['src/db/**', ...stillHoldingKnex],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [{ name: 'knex', message: 'Queries belong in a src/db repository (a transaction handle is `Transaction` from src/db/transaction).' }] },
      ],
    },
  },
  {
    // The worker side never calls the API's use cases or its HTTP layer.
    files: ['activities/**/*.ts'],
    ignores: stillImportingServices,
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [],
          patterns: [{ regex: '^(\\.\\./)+src/(services|http)(/|$)', message: 'Activities use domain, db, sandbox, agents and integrations, never src/services or src/http.' }],
        },
      ],
    },
  },
  {
    files: ['activities/**/*.ts'],
    ignores: [...stillImportingServices, ...stillHoldingKnex],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'knex', message: 'Queries belong in a src/db repository.' }],
          patterns: [{ regex: '^(\\.\\./)+src/(services|http)(/|$)', message: 'Activities use domain, db, sandbox, agents and integrations, never src/services or src/http.' }],
        },
      ],
    },
  },
  {
    // The domain is pure rules: no database, no HTTP, no use cases.
    files: ['src/domain/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'knex', message: 'The domain is pure: it receives repositories, it does not query.' }],
          patterns: [{ regex: '^\\.\\./(services|http|temporal)(/|$)', message: 'The domain depends on nothing above it.' }],
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
);
