/** PostgreSQL. */
import { section, text } from './schema';

export const database = section(
  'Database',
  {
    DATABASE_URL: text({
      type: 'PostgreSQL URL',
      shownDefault: 'embedded (dev only)',
      description: 'PostgreSQL; `npm start` uses PGlite without it, and the api and worker refuse to start without it',
    }),
    DATABASE_SCHEMA: text({
      pattern: /^[a-z_][a-z0-9_]{0,62}$/,
      expected: 'a lower-case SQL identifier',
      shownDefault: '`public`',
      description: "a schema of its own for Hangar's tables (created when missing, searched before `public`), so several deployments or test runs can share a database",
    }),
  },
  {},
  (read) => ({
    /** Unset means: embedded database (only the dev process accepts that). */
    databaseUrl: read.get('DATABASE_URL'),
    databaseSchema: read.get('DATABASE_SCHEMA'),
  }),
);
