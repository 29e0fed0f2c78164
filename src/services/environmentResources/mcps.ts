/**
 * MCP servers of an environment. Configs carry tokens (stdio `env`, http/sse `headers`), so
 * they are sealed at rest and returned in full only to callers who may read the environment.
 */
import type { McpRow, McpTransport, Patch } from '../../db/environmentResourcesRepository';
import { invalid, notFound } from '../../domain/errors';
import type { Actor } from '../../domain/actor';
import { conflictOn, found, iso, type ResourceContext } from './context';
import { checkedConfig, type McpConfig } from './mcpConfig';

/** Hangar's own MCP servers are injected under this prefix; user servers may not shadow them. */
export const RESERVED_MCP_PREFIX = 'hangar-';

export interface McpInput {
  name: string;
  transport: McpTransport;
  config: Record<string, unknown>;
}

export type McpPatch = Partial<McpInput>;

const duplicate = conflictOn({
  environment_mcps_environment_id_name_unique: 'An MCP server with this name already exists in this environment',
});

function checkedName(name: string): string {
  if (name.toLowerCase().startsWith(RESERVED_MCP_PREFIX)) {
    throw invalid('Invalid body', `body.name: the prefix "${RESERVED_MCP_PREFIX}" is reserved for Hangar's built-in servers`);
  }
  return name;
}

export function createMcpsService(ctx: ResourceContext) {
  const { repo, secretBox } = ctx;

  const serialize = (row: McpRow) => ({
    id: row.id,
    organization_id: row.organization_id,
    environment_id: row.environment_id,
    name: row.name,
    transport: row.transport,
    config: JSON.parse(secretBox.open(row.config_sealed)) as McpConfig,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  });
  const seal = (config: McpConfig) => secretBox.seal(JSON.stringify(config));

  return {
    list: (actor: Actor, environmentId: string) =>
      ctx.read(actor, environmentId, async (env, trx) => (await repo.mcps.list(env.id, trx)).map(serialize)),

    async create(actor: Actor, environmentId: string, input: McpInput) {
      const name = checkedName(input.name);
      const config = checkedConfig(input.transport, input.config);
      return ctx.write(actor, environmentId, async (env, trx) => {
        const row = await repo.mcps
          .insert({ organization_id: env.organization_id, environment_id: env.id, name, transport: input.transport, config_sealed: seal(config) }, trx)
          .catch(duplicate);
        return serialize(row);
      });
    },

    async update(actor: Actor, environmentId: string, id: string, input: McpPatch) {
      if (input.name !== undefined) checkedName(input.name);
      return ctx.write(actor, environmentId, async (env, trx) => {
        const current = found(await repo.mcps.find(env.organization_id, env.id, id, trx), 'MCP server');
        const transport = input.transport ?? current.transport;
        if (transport !== current.transport && input.config === undefined) {
          throw invalid(
            'Invalid body',
            `body.config: changing transport from ${current.transport} to ${transport} requires a new config in the same request`,
          );
        }
        const patch: Patch<McpRow> = {};
        if (input.name !== undefined) patch.name = input.name;
        if (input.transport !== undefined) patch.transport = input.transport;
        if (input.config !== undefined) patch.config_sealed = seal(checkedConfig(transport, input.config));
        const row = await repo.mcps.update(env.organization_id, env.id, id, patch, trx).catch(duplicate);
        return serialize(found(row, 'MCP server'));
      });
    },

    remove: (actor: Actor, environmentId: string, id: string) =>
      ctx.write(actor, environmentId, async (env, trx) => {
        if (!(await repo.mcps.delete(env.organization_id, env.id, id, trx))) throw notFound('MCP server');
      }),
  };
}
