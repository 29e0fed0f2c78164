/**
 * MCP server configs per transport. The request schemas already check a config sent beside
 * its `transport`; a PATCH that sends `config` alone must fit the server's current
 * transport, which only the service knows, so the same schemas are compiled here too.
 */
import Ajv, { type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import type { McpTransport } from '../../db/environmentResourcesRepository';
import { invalid } from '../../domain/errors';
import { remoteConfigSchema, stdioConfigSchema } from '../../schemas/environmentResources';

export interface StdioConfig {
  command: string;
  args: string[];
  env: Record<string, string>;
}

export interface RemoteConfig {
  url: string;
  headers: Record<string, string>;
}

export type McpConfig = StdioConfig | RemoteConfig;

const ajv = new Ajv({ allErrors: false, strict: true });
addFormats(ajv);
const validators = { stdio: ajv.compile(stdioConfigSchema), remote: ajv.compile(remoteConfigSchema) };

function describe(error: ErrorObject): string {
  const path = ['body', 'config', ...error.instancePath.split('/').filter(Boolean)].join('.');
  if (error.propertyName !== undefined) return `${path}: property name ${JSON.stringify(error.propertyName)} ${error.message ?? 'is invalid'}`;
  if (error.keyword === 'additionalProperties') return `${path}.${(error.params as { additionalProperty: string }).additionalProperty}: unknown field`;
  if (error.keyword === 'required') return `${path}.${(error.params as { missingProperty: string }).missingProperty}: is required`;
  return `${path}: ${error.message ?? 'is invalid'}`;
}

const shapeOf = (transport: McpTransport) => (transport === 'stdio' ? '{command, args[], env{}}' : '{url, headers{}}');

/** Checks `config` against `transport` and fills the optional members, so reads are complete. */
export function checkedConfig(transport: McpTransport, config: unknown): McpConfig {
  const validate = transport === 'stdio' ? validators.stdio : validators.remote;
  if (!validate(config)) {
    throw invalid('Invalid body', `${describe(validate.errors![0]!)} (a ${transport} server's config is ${shapeOf(transport)})`);
  }
  if (transport === 'stdio') {
    const c = config as Partial<StdioConfig> & { command: string };
    const checked = { command: c.command, args: c.args ?? [], env: c.env ?? {} };
    // A process's command line and environment cannot carry NUL bytes.
    const strings: Array<[string, string]> = [
      ['command', checked.command],
      ...checked.args.map((arg, i): [string, string] => [`args.${i}`, arg]),
      ...Object.entries(checked.env).map(([name, value]): [string, string] => [`env.${name}`, value]),
    ];
    const nul = strings.find(([, value]) => value.includes('\0'));
    if (nul) throw invalid('Invalid body', `body.config.${nul[0]}: must not contain NUL characters`);
    return checked;
  }
  const c = config as Partial<RemoteConfig> & { url: string };
  return { url: c.url, headers: c.headers ?? {} };
}
