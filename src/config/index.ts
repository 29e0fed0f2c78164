/**
 * The one typed configuration every process reads. `loadConfig` is pure but for the files a
 * `_FILE` variable names: it takes an environment map, reads it through the declared variables
 * (src/config/schema.ts; one file per concept beside this one) and throws a ConfigError that
 * names each bad variable.
 */
import { automations } from './automations';
import { database } from './database';
import { encryption } from './encryption';
import { gateway } from './gateway';
import { http } from './http';
import { integrations } from './integrations';
import { limits } from './limits';
import { network } from './network';
import { presence } from './presence';
import { previews } from './previews';
import { sandbox } from './sandbox';
import { ConfigError, type ConfigDefaults, type Env, type Reader, type Schema, type Section, type Variable } from './schema';
import { storage } from './storage';
import { telemetry } from './telemetry';
import { temporal } from './temporal';
import { workers } from './workers';
import { workspaces } from './workspaces';

export { ConfigError } from './schema';
export type { ConfigDefaults, Variable } from './schema';
export { parseEncryptionKeys, type EncryptionKey } from './encryption';
export type { RateLimitSettings, StreamLimits } from './limits';

/** Every concept's part, in the order the docs list them. */
export const sections = [
  http,
  database,
  temporal,
  encryption,
  workspaces,
  workers,
  previews,
  sandbox,
  network,
  gateway,
  automations,
  integrations,
  storage,
  presence,
  limits,
  telemetry,
] as const;

type Part<T> = T extends Section<Schema, Schema, infer C> ? C : never;

/** The configuration: what each concept's part builds from its variables. */
export interface Config
  extends Part<typeof http>,
    Part<typeof database>,
    Part<typeof temporal>,
    Part<typeof encryption>,
    Part<typeof workspaces>,
    Part<typeof workers>,
    Part<typeof previews>,
    Part<typeof sandbox>,
    Part<typeof network>,
    Part<typeof gateway>,
    Part<typeof automations>,
    Part<typeof integrations>,
    Part<typeof storage>,
    Part<typeof presence>,
    Part<typeof limits>,
    Part<typeof telemetry> {}

/** Every variable, by name: each declared by exactly one section. */
export const variables: Readonly<Record<string, Variable<unknown>>> = (() => {
  const all: Record<string, Variable<unknown>> = {};
  for (const part of sections) {
    for (const [name, variable] of Object.entries(part.variables as Schema)) {
      if (all[name]) throw new Error(`${name} is declared twice (${part.title})`);
      all[name] = variable;
    }
  }
  for (const part of sections) {
    for (const [name, variable] of Object.entries(part.borrowed as Schema)) {
      if (all[name] !== variable) throw new Error(`${part.title} reads ${name}, which no section declares as it`);
    }
  }
  return all;
})();

/** Reads `env` through the declared variables, each parsed once, when a section first reads it. */
function reader(env: Env): Reader<Schema> {
  const values = new Map<string, unknown>();
  return {
    get(name) {
      if (!values.has(name)) {
        const variable = variables[name];
        if (!variable) throw new Error(`${name} is not a declared variable`);
        values.set(name, variable.parse(env[name], name));
      }
      return values.get(name);
    },
    isSet: (name) => env[name] !== undefined && env[name] !== '',
  };
}

/**
 * Builds every concept's part, so one start names the first bad variable (or pair of variables
 * wrong together) of every concept at once, a message a line. `defaults` are what the calling
 * process knows better than a constant (the dev process: the sandbox image in package.json).
 */
export function loadConfig(env: Env, defaults: ConfigDefaults = {}): Config {
  const read = reader(env);
  const config: Record<string, unknown> = {};
  const problems = new Set<string>();
  for (const part of sections) {
    try {
      Object.assign(config, (part.build as (read: Reader<Schema>, defaults: ConfigDefaults) => object)(read, defaults));
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      problems.add(err.message);
    }
  }
  if (problems.size > 0) throw new ConfigError([...problems].join('\n'));
  return config as unknown as Config;
}

/** Processes that talk to a real database and cluster need these; dev fills them itself. */
export function requireProductionSettings(config: Config): void {
  if (!config.databaseUrl) throw new ConfigError('DATABASE_URL is required');
  if (!config.temporalAddress) throw new ConfigError('TEMPORAL_ADDRESS is required');
  if (config.encryptionKeys.length === 0) {
    throw new ConfigError('HANGAR_ENCRYPTION_KEYS is required (generate one with: hangar admin gen-encryption-key)');
  }
}
