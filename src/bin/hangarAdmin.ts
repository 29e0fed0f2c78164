/**
 * `hangar admin ...` (dispatched by src/bin/hangar.ts): operator commands that write the
 * database directly. They use DATABASE_URL, or the embedded database of `npm start` (only
 * while it is not running: the embedded database allows one process at a time).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createAdmin } from '../admin';
import { ConfigError, loadConfig } from '../config';
import { generateEncryptionKey } from '../crypto/secretBox';
import { DEFAULT_ROTATION_BATCH } from '../services/encryptionRotation';
import { silentLogger } from '../logger';
import { migrate, openDatabase } from '../db/database';
import { egressPolicy, firewallScript } from '../sandbox/network/firewall';

const USAGE = `Usage: hangar admin <command> [options]

Commands:
  create-org --name NAME [--admin-email EMAIL] [--admin-name NAME]
      Create an organization with its Global environment, an org API key and an admin user
      with a personal API key.
  create-user --email EMAIL [--role member|admin] [--org ID]
      Add a user to an organization and issue their personal API key.
  create-key [--kind org|personal] [--user ID] [--name NAME] [--org ID]
      Issue an API key (personal keys need --user).
  add-repository --url URL [--default-branch BRANCH] [--name NAME] [--org ID]
      Connect a git repository to an organization.
  add-repository-set --name NAME --repository ID [--repository ID ...] [--description TEXT] [--org ID]
      Group connected repositories into a set.
  gen-encryption-key [--id ID]
      Print a value for HANGAR_ENCRYPTION_KEYS.
  firewall
      Print the shell script that installs the workspace egress rules (from this
      configuration) on the Docker engine's host, for HANGAR_NETWORK_ISOLATION=networks.
  rotate-encryption-key [--dry-run] [--batch-size N]
      Re-seal every secret at rest under the first key of HANGAR_ENCRYPTION_KEYS, bound to its
      row, and hash GitLab webhook tokens again under it, in batches of N (default
      ${DEFAULT_ROTATION_BATCH}) while the service runs. Give every
      API and worker process the new key in front first; once this reports nothing remaining,
      the old key can leave HANGAR_ENCRYPTION_KEYS. --dry-run only counts what is left.
      Exits 1 when values remain that cannot be opened.

--org defaults to the organization in .hangar/dev-credentials.json (the npm start seed).
The database is DATABASE_URL, or the embedded one of npm start when it is unset.
Output is JSON; keys are shown once.`;

/** The embedded database of a running `npm start` must not be opened twice. */
function assertEmbeddedFree(dataDir: string): void {
  const pidFile = join(dataDir, 'dev.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8'));
  try {
    process.kill(pid, 0);
  } catch {
    return; // stale: that process is gone
  }
  throw new Error(`npm start (pid ${pid}) is using the embedded database; stop it first, or set DATABASE_URL`);
}

/** The embedded database of npm start is sealed with the key it keeps in dev-secrets.json. */
function withDevKeys(env: NodeJS.ProcessEnv, dataDir: string): NodeJS.ProcessEnv {
  const path = join(dataDir, 'dev-secrets.json');
  if (env.HANGAR_ENCRYPTION_KEYS || env.DATABASE_URL || !existsSync(path)) return env;
  return { ...env, HANGAR_ENCRYPTION_KEYS: (JSON.parse(readFileSync(path, 'utf8')) as { encryption_keys: string }).encryption_keys };
}

function devOrganization(dataDir: string): string | undefined {
  const path = join(dataDir, 'dev-credentials.json');
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as { organization_id: string }).organization_id : undefined;
}

/** `hangar admin <command> ...`: `argv` starts after `admin`. */
export async function runAdminCommand(argv: string[]): Promise<number> {
  try {
    return await admin(argv);
  } catch (err) {
    const e = err as { code?: string; message?: string };
    const message = e.code === '23505' ? 'already exists (a unique value is taken)' : e.code === '22P02' ? 'an id is not a valid UUID' : e.message;
    process.stderr.write(`hangar: ${message}\n`);
    return 1;
  }
}

async function admin(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help' || rest.includes('--help')) {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  const { values } = parseArgs({
    args: rest,
    options: {
      name: { type: 'string' },
      'admin-email': { type: 'string' },
      'admin-name': { type: 'string' },
      email: { type: 'string' },
      role: { type: 'string' },
      kind: { type: 'string' },
      user: { type: 'string' },
      org: { type: 'string' },
      url: { type: 'string' },
      'default-branch': { type: 'string' },
      repository: { type: 'string', multiple: true },
      description: { type: 'string' },
      id: { type: 'string' },
      'dry-run': { type: 'boolean' },
      'batch-size': { type: 'string' },
    },
  });
  if (command === 'gen-encryption-key') {
    process.stdout.write(generateEncryptionKey(values.id ?? 'k1') + '\n');
    return 0;
  }
  if (command === 'firewall') {
    const { workspaceEgress } = loadConfig(process.env);
    process.stdout.write(firewallScript(await egressPolicy(workspaceEgress), workspaceEgress.hostPorts));
    return 0;
  }
  const need = (name: keyof typeof values): string => {
    const v = values[name];
    if (typeof v !== 'string' || v === '') throw new Error(`--${name} is required`);
    return v;
  };

  const dataDir = resolve(process.env.HANGAR_DATA_DIR || '.hangar');
  const config = loadConfig(withDevKeys(process.env, dataDir));
  const orgId = () => values.org ?? devOrganization(dataDir) ?? need('org');
  if (!config.databaseUrl) assertEmbeddedFree(dataDir);
  const database = await openDatabase(config, silentLogger, join(dataDir, 'pgdata'));
  try {
    await migrate(database, config);
    const admin = createAdmin(database.repos);
    let result: unknown;
    switch (command) {
      case 'create-org':
        result = await admin.createOrganization({ name: need('name'), adminEmail: values['admin-email'], adminName: values['admin-name'] });
        break;
      case 'create-user': {
        const role = values.role ?? 'member';
        if (role !== 'member' && role !== 'admin') throw new Error('--role must be member or admin');
        result = await admin.createUser({ organizationId: orgId(), email: need('email'), role });
        break;
      }
      case 'create-key': {
        const kind = values.kind ?? 'org';
        if (kind !== 'org' && kind !== 'personal') throw new Error('--kind must be org or personal');
        result = await admin.createKey({ organizationId: orgId(), kind, userId: values.user, name: values.name });
        break;
      }
      case 'add-repository':
        result = await admin.addRepository({ organizationId: orgId(), url: need('url'), name: values.name, defaultBranch: values['default-branch'] });
        break;
      case 'add-repository-set':
        result = await admin.addRepositorySet({
          organizationId: orgId(),
          name: need('name'),
          description: values.description,
          repositoryIds: values.repository ?? [],
        });
        break;
      case 'rotate-encryption-key': {
        if (config.encryptionKeys.length === 0) throw new ConfigError('HANGAR_ENCRYPTION_KEYS is required: the new key first, then the old ones');
        const batchSize = values['batch-size'] === undefined ? DEFAULT_ROTATION_BATCH : Number(values['batch-size']);
        if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 10_000) throw new Error('--batch-size must be an integer from 1 to 10000');
        const report = await admin.rotateEncryptionKey(config.encryptionKeys, { batchSize, dryRun: values['dry-run'] ?? false });
        process.stdout.write(JSON.stringify(report, null, 2) + '\n');
        if (report.dry_run || report.remaining === 0) return 0;
        process.stderr.write(`hangar: ${report.remaining} sealed values are not under key "${report.active_key}" (see "remaining" and "unreadable_ids"); keep their key configured\n`);
        return 1;
      }
      default:
        throw new Error(`unknown command "${command}"\n\n${USAGE}`);
    }
    process.stdout.write(JSON.stringify(result, null, 2) + '\n');
    return 0;
  } finally {
    await database.close();
  }
}
