/**
 * The one typed configuration every process reads. `loadConfig` is pure: it takes an
 * environment map, validates it, and throws a ConfigError that names the bad variable.
 */
import { hostname } from 'node:os';
import { join } from 'node:path';
import { DOCKER_HOST_NAME } from './domain/dockerHost';
import { parseVolumeSettings } from './sandbox/workspace/volumes';
import type { WorkspaceVolumeSettings } from './domain/workspaceVolumes';
import { DEFAULT_PREVIEW_DOMAIN, hostName } from './domain/previews';
import type { AgentId } from './agents/catalog';
import type { LogLevel } from './logger';
import type { S3Settings } from './storage/s3Store';
import type { BucketPolicy } from './limits/tokenBucket';
import type { TracingSettings } from './tracing';

export interface Config {
  port: number;
  host: string;
  /** Unset means: embedded database (only the dev process accepts that). */
  databaseUrl: string | undefined;
  databaseSchema: string | undefined;
  temporalAddress: string | undefined;
  temporalNamespace: string;
  /**
   * `HANGAR_TEMPORAL_SEARCH_ATTRIBUTES`: `on` (default) sets Hangar's search attributes and memo
   * on every workflow, and the API and worker refuse to start when the namespace lacks them;
   * `off` for a cluster where they cannot be registered.
   */
  temporalSearchAttributes: boolean;
  taskQueue: string;
  sandboxImage: string;
  sandboxPoolSize: number;
  sandboxMemoryBytes: number;
  sandboxNanoCpus: number;
  sandboxPidsLimit: number;
  sandboxNetworkMode: string;
  /**
   * `HANGAR_NETWORK_ISOLATION`: `enforce` (default) puts each organization's workspaces, and the
   * hook sandboxes, on networks of their own and installs the egress rules on the engine's host
   * (the worker refuses to start when it cannot); `networks` only the networks (the operator
   * installs `hangar admin firewall`'s rules on a remote engine's host); `off` the default bridge.
   */
  networkIsolation: 'enforce' | 'networks' | 'off';
  /**
   * What containers may reach: `HANGAR_WORKSPACE_EGRESS` `public` (default: the internet, not
   * internal ranges) or `allowlist` (only `allow`); `HANGAR_WORKSPACE_EGRESS_ALLOW`: IPv4 CIDRs,
   * addresses and host names reachable even inside internal ranges, each optionally with `:port`
   * (that TCP port only); `HANGAR_WORKSPACE_HOST_PORTS`:
   * host ports containers may reach (default the port of HANGAR_WORKSPACE_API_URL when it is the host's).
   */
  workspaceEgress: { mode: 'public' | 'allowlist'; allow: string[]; hostPorts: number[] };
  /** `HANGAR_WORKSPACE_SUBNETS` (default 10.213.0.0/16) carved into `/HANGAR_WORKSPACE_SUBNET_PREFIX` (default 26). */
  workspaceSubnets: { pool: string; prefixLength: number };
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
  /** Ordinary JSON bodies (`HANGAR_BODY_LIMIT_BYTES`, 1 MiB). */
  bodyLimitBytes: number;
  /** Bodies of the operations that carry a message's images (`HANGAR_MESSAGE_BODY_LIMIT_BYTES`, 32 MiB). */
  messageBodyLimitBytes: number;
  /** GitHub and GitLab deliveries (`HANGAR_CODE_HOSTING_BODY_LIMIT_BYTES`, 25 MiB: GitHub's documented cap). */
  codeHostingBodyLimitBytes: number;
  /** Webhook bodies read at once before their signature is verified (`HANGAR_MAX_UNVERIFIED_BODIES`, 64); past it, 503. */
  maxUnverifiedBodies: number;
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
  /**
   * Several worker hosts (docs/operations.md, "Several worker hosts"). `HANGAR_WORKER_HOST_ID`
   * (default the machine's host name): this worker's Docker host, whose own task queue
   * (`{taskQueue}@{hostId}`) carries the work on its containers. Workers on one engine share it.
   */
  workerHostId: string;
  /** `HANGAR_HOST_MAX_WORKSPACES` (default 0: no limit): running workspaces and warm-pool entries placement puts on this host. */
  hostMaxWorkspaces: number | null;
  /**
   * `HANGAR_HOST_TIMEOUT_SECONDS` (default 300): how long a container activity waits for its
   * host's worker to pick it up before the workspace goes to `error` (the host is taken as
   * lost), and how long a host that stopped heartbeating is still offered new workspaces.
   */
  hostTimeoutMs: number;
  /**
   * `HANGAR_WORKSPACE_VOLUME_DRIVER` (default `local`), `HANGAR_WORKSPACE_VOLUME_OPTIONS` (JSON
   * driver options, `{name}` the volume's name) and `HANGAR_WORKSPACE_VOLUMES_SHARED` (default
   * false): where workspace homes live, and whether every host opens the same storage (then a
   * lost host's workspaces are re-provisioned on another host).
   */
  workspaceVolumes: WorkspaceVolumeSettings;
  automationSweepMs: number;
  /**
   * `HANGAR_WORKSPACE_RECONCILE_SECONDS` (default 30): how often a worker checks that its host's
   * active workspaces have a running container (it also checks at once on an engine event).
   */
  workspaceReconcileMs: number;
  /**
   * `HANGAR_ENGINE_LOST_SECONDS` (default 120): a Docker engine unreachable this long has its
   * active workspaces asked to restart, which ends them in `error` while it stays away.
   */
  engineLostMs: number;
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
  /**
   * `HANGAR_PREVIEW_DOMAIN` (default `localhost`): previews answer at `{port}-{token}.{domain}` on
   * the API's listener, each on an origin of its own (wildcard DNS; `*.localhost` needs none).
   */
  previewDomain: string;
  /**
   * `HANGAR_PREVIEW_PORT` (unset: off), `HANGAR_PREVIEW_HOST` (default `HOST`), `HANGAR_PREVIEW_URL`
   * (default: Hangar's base URL on that port): the path form `/preview/{token}/`, on a listener of
   * its own, never the API's origin.
   */
  previewListener: { port: number; host: string; url: string | undefined } | null;
  /** Which form preview URLs take: `host` with a domain set or no listener, else `path` (on the listener). */
  previewUrls: 'host' | 'path';
  /**
   * Previews on other hosts (docs/operations.md, "Several worker hosts"). `HANGAR_WORKER_RELAY_PORT`
   * (unset: off) and `HANGAR_WORKER_RELAY_HOST` (default 0.0.0.0): the worker's preview relay;
   * `HANGAR_WORKER_RELAY_URL`: where API processes reach it, advertised in `worker_hosts`.
   */
  previewRelay: { port: number; host: string; url: string } | null;
  /**
   * `HANGAR_PREVIEW_DIAL` (API): `auto` (default) goes through the relay of the workspace's host
   * when it has one, else straight to the container; `relay` never dials a container itself (a
   * host without a relay answers 502).
   */
  previewDial: 'auto' | 'relay';
  /** Slack's Web API (`HANGAR_SLACK_API_URL`, default https://slack.com/api): tests point it at a local fake. */
  slack: { apiUrl: string };
  /** `REDIS_URL`: presence shared by every API process; unset: kept in this process (one-process `npm start`). */
  redisUrl: string | undefined;
  /** `HANGAR_REDIS_PREFIX` (default `hangar:`): every Redis key starts with it, so deployments and test runs can share a Redis. */
  redisPrefix: string;
  /** `HANGAR_PRESENCE_TTL_SECONDS` (default 30): a member without a heartbeat this long is gone. */
  presenceTtlMs: number;
  /** Event streams an API process holds open at once, and what it buffers for a client that reads slowly. */
  streams: StreamLimits;
  /**
   * Prometheus metrics (docs/operations.md, "Metrics"). `HANGAR_METRICS_TOKEN`: the API serves
   * `/metrics` only when it is set, and then only with `Authorization: Bearer <token>` (the
   * worker's endpoint requires it too). `HANGAR_WORKER_METRICS_PORT` (default 9464, 0: off) and
   * `HANGAR_WORKER_METRICS_HOST` (default 0.0.0.0): the worker's endpoint, started by its entry
   * point. `HANGAR_TEMPORAL_METRICS_ADDRESS` (host:port, unset: off): the Temporal SDK's own worker metrics.
   */
  metrics: { token: string | undefined; workerPort: number; workerHost: string; temporalAddress: string | undefined };
  /** Token-bucket request limits per API key and per client address; null with `HANGAR_RATE_LIMIT=off`. */
  rateLimit: RateLimitSettings | null;
  /**
   * Verified API keys kept in memory (`HANGAR_API_KEY_CACHE_SECONDS`, default 60, 0: none) and how
   * many (`HANGAR_API_KEY_CACHE_SIZE`, default 10,000). Revocations reach every process at once;
   * the lifetime bounds only changes made behind the API's back (SQL by hand).
   */
  apiKeyCache: { ttlMs: number; maxEntries: number };
  /**
   * OpenTelemetry traces over OTLP/HTTP (docs/operations.md, "Traces"), read from the standard
   * variables: on when `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (the full URL) or
   * `OTEL_EXPORTER_OTLP_ENDPOINT` (a base that `/v1/traces` is appended to) is set, null (off)
   * otherwise and with `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none`. Also
   * `OTEL_SERVICE_NAME`, `OTEL_EXPORTER_OTLP_(TRACES_)HEADERS` and `OTEL_RESOURCE_ATTRIBUTES`
   * (`key=value,…`). Only `http/json` is spoken (`OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL`).
   */
  tracing: TracingSettings | null;
}

/** docs/decisions.md, "Event stream caps and backpressure". */
export interface StreamLimits {
  /** `HANGAR_STREAMS_PER_KEY` (default 100): open streams of one API key, per API process. */
  perKey: number;
  /** `HANGAR_STREAMS_PER_ORGANIZATION` (default 500): open streams of one organization's keys, per API process. */
  perOrganization: number;
  /** `HANGAR_STREAMS_PER_PROCESS` (default 2000): open streams of one API process. */
  perProcess: number;
  /** `HANGAR_STREAM_BUFFER_KB` (default 256): unsent bytes a stream may hold for a client that does not read. */
  bufferBytes: number;
}

export interface RateLimitSettings {
  /** Per API key, and per workspace for its engine-secret and AI gateway calls (`HANGAR_RATE_LIMIT_KEY_BURST`, `…_KEY_PER_SECOND`). */
  key: BucketPolicy;
  /** Per client address, for requests without a credential (webhooks, signed links, docs) and failed authentications (`…_IP_BURST`, `…_IP_PER_SECOND`). */
  ip: BucketPolicy;
  /** Tokens a failed authentication (any 401) takes from its address's bucket (`HANGAR_RATE_LIMIT_FAILED_AUTH_COST`). */
  failedAuthCost: number;
  /** Proxies of the operator's in front of the API that append to X-Forwarded-For (`HANGAR_RATE_LIMIT_PROXY_HOPS`, default 0). */
  proxyHops: number;
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

function oneOf<T extends string>(env: NodeJS.ProcessEnv, name: string, values: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(values as readonly string[]).includes(raw)) throw new ConfigError(`${name} must be one of ${values.join(', ')}, got "${raw}"`);
  return raw as T;
}

/**
 * A host id names a task queue and a bus channel: a short name of letters, digits, dots,
 * dashes and underscores. A machine's host name qualifies; an FQDN is cut at its first dot
 * only when it is too long.
 */
function hostId(env: NodeJS.ProcessEnv): string {
  const raw = env.HANGAR_WORKER_HOST_ID;
  if (raw !== undefined && raw !== '') {
    if (!HOST_ID.test(raw)) throw new ConfigError(`HANGAR_WORKER_HOST_ID must be 1-63 letters, digits, ".", "-" or "_", starting with a letter or digit, got "${raw}"`);
    return raw;
  }
  const name = hostname();
  if (HOST_ID.test(name)) return name;
  const short = name.split('.')[0]!.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 63);
  if (!HOST_ID.test(short)) throw new ConfigError(`this machine's host name "${name}" is not a usable host id: set HANGAR_WORKER_HOST_ID`);
  return short;
}

function workspaceVolumes(env: NodeJS.ProcessEnv): WorkspaceVolumeSettings {
  const parsed = parseVolumeSettings({ driver: env.HANGAR_WORKSPACE_VOLUME_DRIVER, options: env.HANGAR_WORKSPACE_VOLUME_OPTIONS, shared: env.HANGAR_WORKSPACE_VOLUMES_SHARED });
  if (typeof parsed === 'string') throw new ConfigError(parsed);
  return parsed;
}

const HOST_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

const list = (raw: string | undefined) => (raw ?? '').split(',').map((s) => s.trim()).filter(Boolean);

/** The host ports workspaces reach: the listed ones, else the API's own port when workspaces reach it on the host. */
function hostPorts(env: NodeJS.ProcessEnv): number[] {
  if (env.HANGAR_WORKSPACE_HOST_PORTS !== undefined && env.HANGAR_WORKSPACE_HOST_PORTS !== '') {
    return list(env.HANGAR_WORKSPACE_HOST_PORTS).map((p) => {
      if (!/^\d+$/.test(p) || Number(p) < 1 || Number(p) > 65535) throw new ConfigError(`HANGAR_WORKSPACE_HOST_PORTS must list ports 1-65535, got "${p}"`);
      return Number(p);
    });
  }
  const apiUrl = httpUrl(env, 'HANGAR_WORKSPACE_API_URL') ?? env.HANGAR_PUBLIC_URL;
  if (!apiUrl) return [int(env, 'PORT', 8080, 0, 65535)].filter((port) => port > 0);
  const url = new URL(apiUrl);
  if (url.hostname !== DOCKER_HOST_NAME) return [];
  return [Number(url.port || (url.protocol === 'https:' ? 443 : 80))];
}

/** A positive decimal number (`0.5`, `20`). */
function decimal(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+(\.\d+)?$/.test(raw)) throw new ConfigError(`${name} must be a number, got "${raw}"`);
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
    temporalSearchAttributes: oneOf(env, 'HANGAR_TEMPORAL_SEARCH_ATTRIBUTES', ['on', 'off'] as const, 'on') === 'on',
    taskQueue: env.HANGAR_TASK_QUEUE || 'hangar',
    sandboxImage: env.HANGAR_SANDBOX_IMAGE || defaults.sandboxImage || 'hangar-sandbox:latest',
    sandboxPoolSize: int(env, 'HANGAR_SANDBOX_POOL_SIZE', 2, 0, 64),
    sandboxMemoryBytes: int(env, 'HANGAR_SANDBOX_MEMORY_MB', 1024, 64, 65536) * 1024 * 1024,
    sandboxNanoCpus: int(env, 'HANGAR_SANDBOX_MILLICPUS', 1000, 100, 64000) * 1_000_000,
    sandboxPidsLimit: int(env, 'HANGAR_SANDBOX_PIDS_LIMIT', 256, 16, 32768),
    sandboxNetworkMode: env.HANGAR_SANDBOX_NETWORK || 'bridge',
    networkIsolation: oneOf(env, 'HANGAR_NETWORK_ISOLATION', ['enforce', 'networks', 'off'] as const, 'enforce'),
    workspaceEgress: {
      mode: oneOf(env, 'HANGAR_WORKSPACE_EGRESS', ['public', 'allowlist'] as const, 'public'),
      allow: list(env.HANGAR_WORKSPACE_EGRESS_ALLOW),
      hostPorts: hostPorts(env),
    },
    workspaceSubnets: {
      pool: env.HANGAR_WORKSPACE_SUBNETS || '10.213.0.0/16',
      prefixLength: int(env, 'HANGAR_WORKSPACE_SUBNET_PREFIX', 26, 16, 29),
    },
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
    messageBodyLimitBytes: int(env, 'HANGAR_MESSAGE_BODY_LIMIT_BYTES', 32 * 1024 * 1024, 1024, 256 * 1024 * 1024),
    codeHostingBodyLimitBytes: int(env, 'HANGAR_CODE_HOSTING_BODY_LIMIT_BYTES', 25 * 1024 * 1024, 1024, 256 * 1024 * 1024),
    maxUnverifiedBodies: int(env, 'HANGAR_MAX_UNVERIFIED_BODIES', 64, 1, 100_000),
    logLevel,
    publicBaseUrl: env.HANGAR_PUBLIC_URL || undefined,
    workspaceApiUrl: (httpUrl(env, 'HANGAR_WORKSPACE_API_URL') ?? (env.HANGAR_PUBLIC_URL || undefined) ?? `http://${DOCKER_HOST_NAME}:${int(env, 'PORT', 8080, 0, 65535)}`).replace(/\/+$/, ''),
    dataDir: env.HANGAR_DATA_DIR || '.hangar',
    sourceABaseUrl: httpUrl(env, 'HANGAR_SOURCE_A_URL'),
    sourceBBaseUrl: httpUrl(env, 'HANGAR_SOURCE_B_URL'),
    modelCatalogTtlMs: int(env, 'HANGAR_MODEL_CATALOG_TTL_MS', 300_000, 1000, 86_400_000),
    modelProviderTimeoutMs: int(env, 'HANGAR_MODEL_PROVIDER_TIMEOUT_MS', 5000, 100, 60_000),
    workerShutdownGraceMs: int(env, 'HANGAR_WORKER_SHUTDOWN_GRACE_SECONDS', 30, 0, 3600) * 1000,
    workerHostId: hostId(env),
    hostMaxWorkspaces: int(env, 'HANGAR_HOST_MAX_WORKSPACES', 0, 0, 100_000) || null,
    hostTimeoutMs: int(env, 'HANGAR_HOST_TIMEOUT_SECONDS', 300, 3, 86_400) * 1000,
    workspaceVolumes: workspaceVolumes(env),
    automationSweepMs: int(env, 'HANGAR_AUTOMATION_SWEEP_SECONDS', 30, 1, 3600) * 1000,
    workspaceReconcileMs: int(env, 'HANGAR_WORKSPACE_RECONCILE_SECONDS', 30, 1, 3600) * 1000,
    engineLostMs: int(env, 'HANGAR_ENGINE_LOST_SECONDS', 120, 5, 86_400) * 1000,
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
    outboundAllow: list(env.HANGAR_OUTBOUND_ALLOW),
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
    ...previewOrigins(env),
    previewRelay: previewRelay(env),
    previewDial: oneOf(env, 'HANGAR_PREVIEW_DIAL', ['auto', 'relay'] as const, 'auto'),
    slack: { apiUrl: httpUrl(env, 'HANGAR_SLACK_API_URL') ?? 'https://slack.com/api' },
    ...redisSettings(env),
    streams: {
      perKey: int(env, 'HANGAR_STREAMS_PER_KEY', 100, 1, 1_000_000),
      perOrganization: int(env, 'HANGAR_STREAMS_PER_ORGANIZATION', 500, 1, 1_000_000),
      perProcess: int(env, 'HANGAR_STREAMS_PER_PROCESS', 2000, 1, 1_000_000),
      bufferBytes: int(env, 'HANGAR_STREAM_BUFFER_KB', 256, 16, 65_536) * 1024,
    },
    metrics: metricsSettings(env),
    rateLimit: rateLimitSettings(env),
    apiKeyCache: {
      ttlMs: int(env, 'HANGAR_API_KEY_CACHE_SECONDS', 60, 0, 86_400) * 1000,
      maxEntries: int(env, 'HANGAR_API_KEY_CACHE_SIZE', 10_000, 1, 10_000_000),
    },
    tracing: tracingSettings(env),
  };
}

/** The OTLP trace exporter's settings, by the OpenTelemetry specification's variable names and precedence. */
function tracingSettings(env: NodeJS.ProcessEnv): TracingSettings | null {
  if ((env.OTEL_SDK_DISABLED ?? '').trim().toLowerCase() === 'true') return null;
  const exporter = (env.OTEL_TRACES_EXPORTER || 'otlp').trim().toLowerCase();
  if (exporter === 'none') return null;
  if (exporter !== 'otlp') throw new ConfigError(`OTEL_TRACES_EXPORTER must be otlp or none, got "${exporter}"`);
  const signalEndpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ? otlpUrl(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') : undefined;
  const baseEndpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT ? otlpUrl(env, 'OTEL_EXPORTER_OTLP_ENDPOINT') : undefined;
  // The signal's own URL is used as it is; the base gets the traces path appended.
  const endpoint = signalEndpoint ?? (baseEndpoint === undefined ? undefined : `${baseEndpoint.replace(/\/+$/, '')}/v1/traces`);
  if (endpoint === undefined) return null;
  for (const name of ['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', 'OTEL_EXPORTER_OTLP_PROTOCOL']) {
    const protocol = env[name]?.trim();
    if (protocol && protocol !== 'http/json') throw new ConfigError(`${name} must be http/json (Hangar exports OTLP over HTTP as JSON), got "${protocol}"`);
  }
  const headersName = env.OTEL_EXPORTER_OTLP_TRACES_HEADERS ? 'OTEL_EXPORTER_OTLP_TRACES_HEADERS' : 'OTEL_EXPORTER_OTLP_HEADERS';
  return {
    endpoint,
    serviceName: env.OTEL_SERVICE_NAME?.trim() || undefined,
    headers: keyValueList(env, headersName),
    resourceAttributes: keyValueList(env, 'OTEL_RESOURCE_ATTRIBUTES'),
  };
}

function otlpUrl(env: NodeJS.ProcessEnv, name: string): string {
  const raw = env[name]!.trim();
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`${name} must be an http(s) URL, got "${raw}"`);
  return raw;
}

/** The OpenTelemetry `key1=value1,key2=value2` form, values percent-encoded (W3C Baggage). The values may be credentials: never quoted back. */
function keyValueList(env: NodeJS.ProcessEnv, name: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of (env[name] ?? '').split(',')) {
    if (!entry.trim()) continue;
    const sep = entry.indexOf('=');
    const key = entry.slice(0, sep).trim();
    if (sep <= 0 || !key) throw new ConfigError(`${name} must be a list of key=value pairs separated by commas`);
    try {
      out[key] = decodeURIComponent(entry.slice(sep + 1).trim());
    } catch {
      throw new ConfigError(`${name}: the value of ${key} is not valid percent-encoding`);
    }
  }
  return out;
}

function metricsSettings(env: NodeJS.ProcessEnv): Config['metrics'] {
  const token = env.HANGAR_METRICS_TOKEN || undefined;
  if (token !== undefined && !/^[\x21-\x7e]{16,256}$/.test(token)) {
    throw new ConfigError('HANGAR_METRICS_TOKEN must be 16 to 256 printable characters without spaces (e.g. openssl rand -hex 32)');
  }
  const temporalAddress = env.HANGAR_TEMPORAL_METRICS_ADDRESS || undefined;
  if (temporalAddress !== undefined) {
    const port = /^(?:\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(temporalAddress)?.[1];
    if (!port || Number(port) < 1 || Number(port) > 65535) throw new ConfigError(`HANGAR_TEMPORAL_METRICS_ADDRESS must be host:port (e.g. 0.0.0.0:9465), got "${temporalAddress}"`);
  }
  return {
    token,
    workerPort: int(env, 'HANGAR_WORKER_METRICS_PORT', 9464, 0, 65535),
    workerHost: env.HANGAR_WORKER_METRICS_HOST || '0.0.0.0',
    temporalAddress,
  };
}

/**
 * Generous by default: a key may burst 1,000 requests and keep up 100 a second; an address
 * 1,000 and 50 a second, where each failed authentication costs 10 (so about 100 wrong keys
 * in a row, then 5 a second).
 */
function rateLimitSettings(env: NodeJS.ProcessEnv): RateLimitSettings | null {
  const switch_ = (env.HANGAR_RATE_LIMIT ?? 'on').trim().toLowerCase();
  if (!['on', 'off', 'true', 'false', '1', '0', ''].includes(switch_)) throw new ConfigError('HANGAR_RATE_LIMIT must be on or off');
  if (['off', 'false', '0'].includes(switch_)) return null;
  const ip = { burst: int(env, 'HANGAR_RATE_LIMIT_IP_BURST', 1000, 1, 1_000_000), perSecond: decimal(env, 'HANGAR_RATE_LIMIT_IP_PER_SECOND', 50, 0.001, 1_000_000) };
  const failedAuthCost = int(env, 'HANGAR_RATE_LIMIT_FAILED_AUTH_COST', 10, 1, 1_000_000);
  if (failedAuthCost > ip.burst) throw new ConfigError('HANGAR_RATE_LIMIT_FAILED_AUTH_COST must not exceed HANGAR_RATE_LIMIT_IP_BURST');
  return {
    key: { burst: int(env, 'HANGAR_RATE_LIMIT_KEY_BURST', 1000, 1, 1_000_000), perSecond: decimal(env, 'HANGAR_RATE_LIMIT_KEY_PER_SECOND', 100, 0.001, 1_000_000) },
    ip,
    failedAuthCost,
    proxyHops: int(env, 'HANGAR_RATE_LIMIT_PROXY_HOPS', 0, 0, 10),
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
  if (domain === DEFAULT_PREVIEW_DOMAIN) return domain;
  const label = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
  if (!new RegExp(`^${label}(?:\\.${label})+$`).test(domain) || domain.length > 200) {
    throw new ConfigError(`HANGAR_PREVIEW_DOMAIN must be a domain name such as preview.example.com (no scheme, port or *), got "${raw}"`);
  }
  return domain;
}

/**
 * Where previews answer (docs/decisions.md, "Preview origins"): never on the API's origin. The
 * host form under `HANGAR_PREVIEW_DOMAIN`, else under `localhost`; the path form only on a
 * listener of its own, and answers name it when no domain is set.
 */
function previewOrigins(env: NodeJS.ProcessEnv): Pick<Config, 'previewDomain' | 'previewListener' | 'previewUrls'> {
  const domain = previewDomain(env.HANGAR_PREVIEW_DOMAIN);
  const publicUrl = httpUrl(env, 'HANGAR_PUBLIC_URL');
  if (domain && publicUrl && hostName(new URL(publicUrl).host).endsWith(`.${domain}`)) {
    throw new ConfigError(`HANGAR_PUBLIC_URL must not lie under HANGAR_PREVIEW_DOMAIN (${domain}): every host there is a preview's`);
  }
  const hasPort = env.HANGAR_PREVIEW_PORT !== undefined && env.HANGAR_PREVIEW_PORT !== '';
  if (!hasPort && (env.HANGAR_PREVIEW_URL || env.HANGAR_PREVIEW_HOST)) throw new ConfigError('HANGAR_PREVIEW_URL and HANGAR_PREVIEW_HOST need HANGAR_PREVIEW_PORT (the path-form listener)');
  let listener: Config['previewListener'] = null;
  if (hasPort) {
    const port = int(env, 'HANGAR_PREVIEW_PORT', 0, 1, 65535);
    if (port === int(env, 'PORT', 8080, 0, 65535)) throw new ConfigError('HANGAR_PREVIEW_PORT must differ from PORT: previews never share the API\'s origin');
    const url = httpUrl(env, 'HANGAR_PREVIEW_URL');
    if (url && publicUrl && new URL(url).origin === new URL(publicUrl).origin) {
      throw new ConfigError('HANGAR_PREVIEW_URL must be an origin of its own (another host or port than HANGAR_PUBLIC_URL): previews never share the API\'s origin');
    }
    listener = { port, host: env.HANGAR_PREVIEW_HOST || env.HOST || '0.0.0.0', url };
  }
  return { previewDomain: domain ?? DEFAULT_PREVIEW_DOMAIN, previewListener: listener, previewUrls: listener && !domain ? 'path' : 'host' };
}

/**
 * The worker's preview relay: a port and the URL API processes reach it at go together (the
 * bind address is rarely the address others dial: a container's 0.0.0.0 behind its service name).
 */
function previewRelay(env: NodeJS.ProcessEnv): Config['previewRelay'] {
  const hasPort = env.HANGAR_WORKER_RELAY_PORT !== undefined && env.HANGAR_WORKER_RELAY_PORT !== '';
  const rawUrl = env.HANGAR_WORKER_RELAY_URL || undefined;
  if (!hasPort && !rawUrl) return null;
  if (!hasPort) throw new ConfigError('HANGAR_WORKER_RELAY_URL needs HANGAR_WORKER_RELAY_PORT (the port the relay listens on)');
  const port = int(env, 'HANGAR_WORKER_RELAY_PORT', 0, 1, 65535);
  if (!rawUrl) throw new ConfigError('HANGAR_WORKER_RELAY_PORT needs HANGAR_WORKER_RELAY_URL: the http(s) address API processes reach this relay at, e.g. http://worker-1:9470');
  const url = httpUrl(env, 'HANGAR_WORKER_RELAY_URL')!;
  const parsed = new URL(url);
  if ((parsed.pathname !== '/' && parsed.pathname !== '') || parsed.search || parsed.hash || parsed.username || parsed.password) {
    throw new ConfigError(`HANGAR_WORKER_RELAY_URL must be an origin (scheme, host and port only), got "${rawUrl}"`);
  }
  return { port, host: env.HANGAR_WORKER_RELAY_HOST || '0.0.0.0', url: parsed.origin };
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
