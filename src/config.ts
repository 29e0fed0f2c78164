/**
 * The one typed configuration every process reads. `loadConfig` is pure: it takes an
 * environment map, validates it, and throws a ConfigError that names the bad variable.
 */
import { hostname } from 'node:os';
import { join } from 'node:path';
import { DOCKER_HOST_NAME } from './sandbox/dockerHost';
import type { AgentId } from './agents/catalog';
import type { LogLevel } from './logger';
import type { S3Settings } from './storage/s3Store';

export interface Config {
  port: number;
  host: string;
  /** Unset means: embedded database (only the dev process accepts that). */
  databaseUrl: string | undefined;
  databaseSchema: string | undefined;
  temporalAddress: string | undefined;
  temporalNamespace: string;
  taskQueue: string;
  sandboxImage: string;
  sandboxPoolSize: number;
  sandboxMemoryBytes: number;
  sandboxNanoCpus: number;
  sandboxPidsLimit: number;
  sandboxNetworkMode: string;
  /** Labels this process's sandboxes; one per live worker sharing a Docker engine. */
  sandboxOwner: string;
  hookTimeoutMs: number;
  /** Ready workspaces kept per enabled warm pool (interop §2.12 documents 5). */
  warmPoolSize: number;
  /** Replaces every coding agent's executable (tests: the image's hangar-test-agent). */
  agentExecutable: string | undefined;
  /** A turn whose agent prints nothing this long is stopped (a stalled provider). */
  agentIdleTimeoutMs: number;
  /** Caps a workspace's memory below its size's (small machines). */
  workspaceMemoryCapBytes: number | undefined;
  /** Inactivity before an active workspace sleeps, unless the replica sets its own. */
  workspaceIdleMs: number;
  /** How long a workspace sleeps before it is archived. */
  workspaceArchiveAfterMs: number;
  /** Workspace workflows continue as new past this many history events. */
  workspaceHistoryLimit: number;
  /** How long a legacy create (no X-Api-Version) waits for the workspace. */
  legacyCreateTimeoutMs: number;
  /** Active key first; older keys stay for decryption during a rotation. */
  encryptionKeys: EncryptionKey[];
  bodyLimitBytes: number;
  logLevel: LogLevel;
  publicBaseUrl: string | undefined;
  /**
   * Hangar's API as a workspace reaches it: its agents' AI gateway and `HANGAR_API_URL` inside
   * it. Defaults to the public URL, else the Docker host at PORT.
   */
  workspaceApiUrl: string;
  dataDir: string;
  /** Model catalog providers (`GET {url}/v1/models`, `GET {url}/api/v1/models`); unset: built-in lists only. */
  sourceABaseUrl: string | undefined;
  sourceBBaseUrl: string | undefined;
  /** How long a fetched catalog is served before a background refresh. */
  modelCatalogTtlMs: number;
  modelProviderTimeoutMs: number;
  workerShutdownGraceMs: number;
  automationSweepMs: number;
  /** Code hosting: webhook verification and the Checks API (see docs/operations.md). */
  github: {
    webhookSecret?: string;
    apiUrl: string;
    appId?: string;
    privateKeyPem?: string;
    token?: string;
  };
  /** GitLab: webhook verification, and the REST API (`HANGAR_GITLAB_API_URL`, `HANGAR_GITLAB_TOKEN`) Hangar answers issues and merge requests with. */
  gitlab: { webhookToken?: string; apiUrl: string; token?: string };
  /** Linear's GraphQL endpoint (`HANGAR_LINEAR_API_URL`), where issue comments are posted. */
  linear: { apiUrl: string };
  /**
   * The bot's name on code hosting (`HANGAR_BOT_NAME`, default `hangar`): `@hangar` in an issue
   * or pull request starts or reaches its workspace, `/hangar …` on a pull request is a command.
   */
  botName: string;
  /**
   * Internal networks and names a user-chosen URL (webhook_url, plugin servers) may reach
   * (`HANGAR_OUTBOUND_ALLOW`: comma-separated CIDRs, addresses and host names). Link-local and
   * unspecified addresses are never reachable.
   */
  outboundAllow: string[];
  /** The AI gateway's upstream per agent (`HANGAR_AGENT_N_BASE_URL`), without a trailing slash. */
  agentBaseUrls: Record<AgentId, string>;
  /** Published client releases: `manifest.json` and its files (docs/operations.md, "Releases"). */
  releasesDir: string;
  /** Blob storage in an S3-compatible bucket (`HANGAR_S3_BUCKET`); unset: files under `dataDir`. */
  s3: S3Settings | undefined;
  /** Media: the largest upload, and signed links' default and longest lifetimes. */
  media: { maxBytes: number; linkDefaultSeconds: number; linkMaxSeconds: number };
  /** `HANGAR_PREVIEW_DOMAIN`: previews answer at `{port}-{token}.{domain}` (wildcard DNS); unset: path form only. */
  previewDomain: string | undefined;
  /** Slack's Web API (`HANGAR_SLACK_API_URL`, default https://slack.com/api): tests point it at a local fake. */
  slack: { apiUrl: string };
  /** `REDIS_URL`: presence shared by every API process; unset: kept in this process (one-process `npm start`). */
  redisUrl: string | undefined;
  /** `HANGAR_REDIS_PREFIX` (default `hangar:`): every Redis key starts with it, so deployments and test runs can share a Redis. */
  redisPrefix: string;
  /** `HANGAR_PRESENCE_TTL_SECONDS` (default 30): a member without a heartbeat this long is gone. */
  presenceTtlMs: number;
}

export interface EncryptionKey {
  id: string;
  key: Buffer;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^-?\d+$/.test(raw)) throw new ConfigError(`${name} must be an integer, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

function httpUrl(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name];
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`${name} must be an http(s) URL`);
  return raw.replace(/\/+$/, '');
}

/** An AI gateway upstream: an http(s) base URL without query or fragment (request paths are appended to it). */
function upstreamUrl(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const url = httpUrl(env, name);
  if (url === undefined) return fallback;
  const parsed = new URL(url);
  if (parsed.search || parsed.hash) throw new ConfigError(`${name} must be a base URL without a query or fragment`);
  return url;
}

/** `HANGAR_ENCRYPTION_KEYS=id1:base64key,id2:base64key` — each key 32 bytes (AES-256). */
export function parseEncryptionKeys(raw: string | undefined): EncryptionKey[] {
  if (!raw) return [];
  return raw.split(',').map((entry) => {
    const sep = entry.indexOf(':');
    const id = entry.slice(0, sep).trim();
    const key = Buffer.from(entry.slice(sep + 1).trim(), 'base64');
    if (sep <= 0 || !/^[A-Za-z0-9_-]{1,32}$/.test(id)) {
      throw new ConfigError('HANGAR_ENCRYPTION_KEYS entries must look like <id>:<base64 key>');
    }
    if (key.length !== 32) throw new ConfigError(`HANGAR_ENCRYPTION_KEYS key "${id}" must decode to 32 bytes`);
    return { id, key };
  });
}

const LOG_LEVELS: LogLevel[] = ['debug', 'info', 'warn', 'error'];

export function loadConfig(env: NodeJS.ProcessEnv, defaults: { sandboxImage?: string } = {}): Config {
  const logLevel = (env.LOG_LEVEL ?? 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const databaseSchema = env.DATABASE_SCHEMA || undefined;
  if (databaseSchema && !/^[a-z_][a-z0-9_]{0,62}$/.test(databaseSchema)) {
    throw new ConfigError('DATABASE_SCHEMA must be a lower-case SQL identifier');
  }
  return {
    port: int(env, 'PORT', 8080, 0, 65535),
    host: env.HOST || '0.0.0.0',
    databaseUrl: env.DATABASE_URL || undefined,
    databaseSchema,
    temporalAddress: env.TEMPORAL_ADDRESS || undefined,
    temporalNamespace: env.TEMPORAL_NAMESPACE || 'default',
    taskQueue: env.HANGAR_TASK_QUEUE || 'hangar',
    sandboxImage: env.HANGAR_SANDBOX_IMAGE || defaults.sandboxImage || 'hangar-sandbox:latest',
    sandboxPoolSize: int(env, 'HANGAR_SANDBOX_POOL_SIZE', 2, 0, 64),
    sandboxMemoryBytes: int(env, 'HANGAR_SANDBOX_MEMORY_MB', 1024, 64, 65536) * 1024 * 1024,
    sandboxNanoCpus: int(env, 'HANGAR_SANDBOX_MILLICPUS', 1000, 100, 64000) * 1_000_000,
    sandboxPidsLimit: int(env, 'HANGAR_SANDBOX_PIDS_LIMIT', 256, 16, 32768),
    sandboxNetworkMode: env.HANGAR_SANDBOX_NETWORK || 'bridge',
    sandboxOwner: env.HANGAR_SANDBOX_OWNER || hostname(),
    hookTimeoutMs: int(env, 'HANGAR_HOOK_TIMEOUT_MS', 90_000, 1000, 900_000),
    warmPoolSize: int(env, 'HANGAR_WARM_POOL_SIZE', 5, 0, 50),
    agentExecutable: env.HANGAR_AGENT_EXECUTABLE || undefined,
    agentIdleTimeoutMs: int(env, 'HANGAR_AGENT_IDLE_TIMEOUT_SECONDS', 900, 1, 86400) * 1000,
    workspaceMemoryCapBytes: env.HANGAR_WORKSPACE_MEMORY_CAP_MB ? int(env, 'HANGAR_WORKSPACE_MEMORY_CAP_MB', 0, 64, 1_048_576) * 1024 * 1024 : undefined,
    workspaceIdleMs: int(env, 'HANGAR_WORKSPACE_IDLE_SECONDS', 3600, 1, 30 * 86400) * 1000,
    workspaceArchiveAfterMs: int(env, 'HANGAR_WORKSPACE_ARCHIVE_AFTER_SECONDS', 7 * 86400, 1, 365 * 86400) * 1000,
    workspaceHistoryLimit: int(env, 'HANGAR_WORKSPACE_HISTORY_LIMIT', 10_000, 50, 50_000),
    legacyCreateTimeoutMs: int(env, 'HANGAR_LEGACY_CREATE_TIMEOUT_SECONDS', 600, 1, 3600) * 1000,
    encryptionKeys: parseEncryptionKeys(env.HANGAR_ENCRYPTION_KEYS),
    bodyLimitBytes: int(env, 'HANGAR_BODY_LIMIT_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024),
    logLevel,
    publicBaseUrl: env.HANGAR_PUBLIC_URL || undefined,
    workspaceApiUrl: (httpUrl(env, 'HANGAR_WORKSPACE_API_URL') ?? env.HANGAR_PUBLIC_URL ?? `http://${DOCKER_HOST_NAME}:${int(env, 'PORT', 8080, 0, 65535)}`).replace(/\/+$/, ''),
    dataDir: env.HANGAR_DATA_DIR || '.hangar',
    sourceABaseUrl: httpUrl(env, 'HANGAR_SOURCE_A_URL'),
    sourceBBaseUrl: httpUrl(env, 'HANGAR_SOURCE_B_URL'),
    modelCatalogTtlMs: int(env, 'HANGAR_MODEL_CATALOG_TTL_MS', 300_000, 1000, 86_400_000),
    modelProviderTimeoutMs: int(env, 'HANGAR_MODEL_PROVIDER_TIMEOUT_MS', 5000, 100, 60_000),
    workerShutdownGraceMs: int(env, 'HANGAR_WORKER_SHUTDOWN_GRACE_SECONDS', 30, 0, 3600) * 1000,
    automationSweepMs: int(env, 'HANGAR_AUTOMATION_SWEEP_SECONDS', 30, 1, 3600) * 1000,
    github: {
      webhookSecret: env.HANGAR_GITHUB_WEBHOOK_SECRET || undefined,
      apiUrl: httpUrl(env, 'HANGAR_GITHUB_API_URL') ?? 'https://api.github.com',
      appId: env.HANGAR_GITHUB_APP_ID || undefined,
      // PEM text; `\n` escapes are accepted so the key fits in one environment line.
      privateKeyPem: env.HANGAR_GITHUB_APP_PRIVATE_KEY ? env.HANGAR_GITHUB_APP_PRIVATE_KEY.replace(/\\n/g, '\n') : undefined,
      token: env.HANGAR_GITHUB_TOKEN || undefined,
    },
    gitlab: {
      webhookToken: env.HANGAR_GITLAB_WEBHOOK_TOKEN || undefined,
      apiUrl: (httpUrl(env, 'HANGAR_GITLAB_API_URL') ?? 'https://gitlab.com/api/v4').replace(/\/+$/, ''),
      token: env.HANGAR_GITLAB_TOKEN || undefined,
    },
    linear: { apiUrl: httpUrl(env, 'HANGAR_LINEAR_API_URL') ?? 'https://api.linear.app/graphql' },
    botName: botName(env.HANGAR_BOT_NAME),
    outboundAllow: (env.HANGAR_OUTBOUND_ALLOW ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    agentBaseUrls: {
      agent_1: upstreamUrl(env, 'HANGAR_AGENT_1_BASE_URL', 'https://api.anthropic.com'),
      agent_2: upstreamUrl(env, 'HANGAR_AGENT_2_BASE_URL', 'https://api.openai.com'),
      agent_3: upstreamUrl(env, 'HANGAR_AGENT_3_BASE_URL', 'https://api.cursor.com'),
      agent_4: upstreamUrl(env, 'HANGAR_AGENT_4_BASE_URL', 'https://openrouter.ai/api'),
      agent_5: upstreamUrl(env, 'HANGAR_AGENT_5_BASE_URL', 'https://openrouter.ai/api'),
    },
    releasesDir: env.HANGAR_RELEASES_DIR || join(env.HANGAR_DATA_DIR || '.hangar', 'releases'),
    s3: s3Settings(env),
    media: mediaSettings(env),
    previewDomain: previewDomain(env.HANGAR_PREVIEW_DOMAIN),
    slack: { apiUrl: httpUrl(env, 'HANGAR_SLACK_API_URL') ?? 'https://slack.com/api' },
    ...redisSettings(env),
  };
}

function redisSettings(env: NodeJS.ProcessEnv): Pick<Config, 'redisUrl' | 'redisPrefix' | 'presenceTtlMs'> {
  const url = env.REDIS_URL || undefined;
  if (url) {
    let protocol = '';
    try {
      protocol = new URL(url).protocol;
    } catch {
      // reported below
    }
    if (protocol !== 'redis:' && protocol !== 'rediss:') throw new ConfigError('REDIS_URL must be a redis:// or rediss:// URL');
  }
  const prefix = env.HANGAR_REDIS_PREFIX ?? 'hangar:';
  if (!/^[A-Za-z0-9_.:-]{1,64}$/.test(prefix)) throw new ConfigError('HANGAR_REDIS_PREFIX must be 1 to 64 letters, digits, or . _ : -');
  return { redisUrl: url, redisPrefix: prefix, presenceTtlMs: int(env, 'HANGAR_PRESENCE_TTL_SECONDS', 30, 1, 3600) * 1000 };
}

function s3Settings(env: NodeJS.ProcessEnv): S3Settings | undefined {
  const bucket = env.HANGAR_S3_BUCKET;
  if (!bucket) return undefined;
  const accessKeyId = env.HANGAR_S3_ACCESS_KEY_ID || undefined;
  const secretAccessKey = env.HANGAR_S3_SECRET_ACCESS_KEY || undefined;
  if (!accessKeyId !== !secretAccessKey) throw new ConfigError('HANGAR_S3_ACCESS_KEY_ID and HANGAR_S3_SECRET_ACCESS_KEY go together');
  const pathStyle = env.HANGAR_S3_FORCE_PATH_STYLE ?? '';
  if (!['', 'true', 'false', '1', '0'].includes(pathStyle)) throw new ConfigError('HANGAR_S3_FORCE_PATH_STYLE must be true or false');
  return {
    bucket,
    region: env.HANGAR_S3_REGION || 'us-east-1',
    endpoint: httpUrl(env, 'HANGAR_S3_ENDPOINT'),
    forcePathStyle: pathStyle === 'true' || pathStyle === '1',
    accessKeyId,
    secretAccessKey,
    prefix: env.HANGAR_S3_PREFIX || undefined,
  };
}

function mediaSettings(env: NodeJS.ProcessEnv): Config['media'] {
  const linkMaxSeconds = int(env, 'HANGAR_MEDIA_LINK_MAX_SECONDS', 7 * 86400, 60, 30 * 86400);
  const linkDefaultSeconds = int(env, 'HANGAR_MEDIA_LINK_SECONDS', 900, 10, 30 * 86400);
  if (linkDefaultSeconds > linkMaxSeconds) throw new ConfigError('HANGAR_MEDIA_LINK_SECONDS must not exceed HANGAR_MEDIA_LINK_MAX_SECONDS');
  return { maxBytes: int(env, 'HANGAR_MEDIA_MAX_BYTES', 100 * 1024 * 1024, 1, Number.MAX_SAFE_INTEGER), linkDefaultSeconds, linkMaxSeconds };
}

/** A DNS name (lower case, no scheme, port or wildcard) under which preview hosts live. */
function previewDomain(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  const domain = raw.trim().toLowerCase().replace(/\.$/, '');
  const label = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
  if (!new RegExp(`^${label}(?:\\.${label})+$`).test(domain) || domain.length > 200) {
    throw new ConfigError(`HANGAR_PREVIEW_DOMAIN must be a domain name such as preview.example.com (no scheme, port or *), got "${raw}"`);
  }
  return domain;
}

/** Processes that talk to a real database and cluster need these; dev fills them itself. */
export function requireProductionSettings(config: Config): void {
  if (!config.databaseUrl) throw new ConfigError('DATABASE_URL is required');
  if (!config.temporalAddress) throw new ConfigError('TEMPORAL_ADDRESS is required');
  if (config.encryptionKeys.length === 0) {
    throw new ConfigError('HANGAR_ENCRYPTION_KEYS is required (generate one with: hangar admin gen-encryption-key)');
  }
}

/** A login-like name: letters, digits, `-` and `_`, 1 to 39 characters; a leading `@` is dropped. */
function botName(value: string | undefined): string {
  const name = (value ?? '').trim().replace(/^@/, '') || 'hangar';
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]{0,38}$/.test(name)) throw new Error(`HANGAR_BOT_NAME must be a login-like name (letters, digits, - and _), not ${JSON.stringify(value)}`);
  return name;
}
