/**
 * MCP servers of an environment. Configs carry tokens (stdio `env`, http/sse `headers`), so
 * they are sealed at rest and returned in full only to callers who may read the environment.
 */
import { randomUUID } from 'node:crypto';
import { sealedField } from '../../crypto/sealedFields';
import type { McpRow, Patch } from '../../db/environmentResourcesRepository';
import { invalid } from '../../domain/errors';
import type { Actor } from '../../domain/actor';
import type { McpInput, McpPatch } from '../../schemas/environmentResources';
import { conflictOn, scopedResource, updatableView, type ResourceContext } from './context';
import { checkedConfig, type McpConfig } from './mcpConfig';

/** Hangar's own MCP servers are injected under this prefix; user servers may not shadow them. */
export const RESERVED_MCP_PREFIX = 'hangar-';

/** The bodies' own types, derived from their schemas (src/schemas/environmentResources.ts). */
export type { McpInput, McpPatch };

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
  const configField = (id: string) => sealedField('environment_mcps', 'config_sealed', id);

  const mcps = scopedResource(ctx, repo.mcps, {
    what: 'MCP server',
    duplicate,
    serialize: (row: McpRow) =>
      updatableView(row, { name: row.name, transport: row.transport, config: JSON.parse(secretBox.open(row.config_sealed, configField(row.id))) as McpConfig }),
  });
  const seal = (id: string, config: McpConfig) => secretBox.seal(JSON.stringify(config), configField(id));

  return {
    list: mcps.list,

    async create(actor: Actor, environmentId: string, input: McpInput) {
      const name = checkedName(input.name);
      const config = checkedConfig(input.transport, input.config);
      const id = randomUUID();
      return ctx.write(actor, environmentId, (env, trx) => mcps.insert(env, { id, name, transport: input.transport, config_sealed: seal(id, config) }, trx));
    },

    async update(actor: Actor, environmentId: string, id: string, input: McpPatch) {
      if (input.name !== undefined) checkedName(input.name);
      return ctx.write(actor, environmentId, async (env, trx) => {
        const current = await mcps.current(env, id, trx);
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
        if (input.config !== undefined) patch.config_sealed = seal(current.id, checkedConfig(transport, input.config));
        return mcps.update(env, id, patch, trx);
      });
    },

    remove: mcps.remove,
  };
}
