/**
 * A workspace's plugins as MCP servers in its agent's config, read at every turn so an install
 * or an uninstall applies at the next message. A native or http plugin is Hangar's endpoint for
 * it, opened with the workspace's engine secret (already in the container's environment): the
 * plugin's own secret stays in Hangar, which adds it when it forwards. A stdio plugin, which
 * carries no secret, runs in the container as configured.
 */
import type { McpServer } from '../agents/adapters';
import { sealedField } from '../crypto/sealedFields';
import type { SecretBox } from '../crypto/secretBox';
import type { Repositories } from '../db';
import type { ReplicaRow } from '../db/replicasRepository';
import { effectivePlugins, pluginServerName } from '../domain/plugins';

export type PluginServerDeps = { repos: Pick<Repositories, 'plugins'>; secretBox: SecretBox; workspaceApiUrl: string };

/** Where a workspace reaches one of its plugins on Hangar. */
export const pluginEndpointUrl = (workspaceApiUrl: string, replicaId: string, installId: string) =>
  `${workspaceApiUrl.replace(/\/+$/, '')}/v1/workspaces/${replicaId}/plugins/${installId}/mcp`;

export async function pluginMcpServers(deps: PluginServerDeps, row: Pick<ReplicaRow, 'id' | 'organization_id' | 'user_id' | 'engine_secret_sealed'>): Promise<Record<string, McpServer>> {
  const plugins = effectivePlugins(await deps.repos.plugins.forWorkspace(row.organization_id, row.user_id), row.user_id);
  if (plugins.length === 0 || !row.engine_secret_sealed) return {};
  const engineSecret = deps.secretBox.open(row.engine_secret_sealed, sealedField('replicas', 'engine_secret_sealed', row.id));
  const servers: Record<string, McpServer> = {};
  for (const plugin of plugins) {
    if (plugin.kind === 'stdio') {
      const config = JSON.parse(deps.secretBox.open(plugin.config_sealed!, sealedField('plugin_installs', 'config_sealed', plugin.id))) as { command: string; args: string[]; env: Record<string, string> };
      servers[pluginServerName(plugin.slug)] = { transport: 'stdio', ...config };
    } else {
      servers[pluginServerName(plugin.slug)] = {
        transport: 'http',
        url: pluginEndpointUrl(deps.workspaceApiUrl, row.id, plugin.id),
        headers: { Authorization: `Bearer ${engineSecret}`, 'X-Workspace-Id': row.id },
      };
    }
  }
  return servers;
}
