/**
 * What a workspace gets of the plugins: the organization's installs with its owner's own in
 * their place (`effectivePlugins`), the integrations that makes available (the replica's
 * environment block), and Hangar's endpoint for them
 * (`/v1/workspaces/{id}/plugins/{installId}/mcp`): the workspace's engine secret opens it, for
 * that workspace's plugins only; a native plugin is served there, a third-party one forwarded
 * to its server with the plugin's secret added, so the secret never enters the container.
 */
import { CANONICAL_UUID } from '../../domain/inputHygiene';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sealedField } from '../../crypto/sealedFields';
import type { SecretBox } from '../../crypto/secretBox';
import type { Repositories } from '../../db';
import type { PluginInstallRow } from '../../db/pluginsRepository';
import type { ReplicaRow } from '../../db/replicasRepository';
import type { Actor } from '../../domain/actor';
import { notFound, unauthenticated } from '../../domain/errors';
import { codeHostOf, effectivePlugins, integrationsOf, pluginServerName, scopeOf, type CodeHost, type Integration } from '../../domain/plugins';
import { hashEngineSecret } from '../../domain/replicas';
import { normaliseRepositoryUrl } from '../../integrations/codeHosting/events';
import type { GithubIssuesClient } from '../../integrations/github/issues';
import { nativePlugin } from '../../integrations/plugins/catalog';
import type { NativeCapabilities, NativePlugin } from '../../integrations/plugins/native';
import { serveNativePlugin } from '../../integrations/plugins/nativeServer';
import type { McpProxy, McpProxyAnswer, McpProxyRequest } from '../../integrations/plugins/proxy';
import type { Logger } from '../../logger';
import { accessReplica } from '../replicas/access';

export interface WorkspacePluginsDeps {
  repos: Pick<Repositories, 'plugins' | 'replicas' | 'connections' | 'codeRepositories'>;
  secretBox: SecretBox;
  capabilities: NativeCapabilities;
  /** Whether the deployment can call each code host's API (`config.github`, …). */
  codeHostCredentials: Record<CodeHost, boolean>;
  /** GitHub's web host for the configured API (github.com, or a GitHub Enterprise host). */
  githubWebHost: string | null;
  github: GithubIssuesClient | null;
  proxy: McpProxy;
  logger: Logger;
}

/** One of a workspace's plugins, as the workspace and the environment block show it. */
export interface WorkspacePluginView {
  id: string;
  slug: string;
  name: string;
  scope: 'org' | 'user';
  kind: PluginInstallRow['kind'];
  provides: Integration | null;
  mcp_server: string;
}

/** What the plugin endpoint does with a request it let through. */
export type PluginEndpoint =
  | { kind: 'native'; serve(req: IncomingMessage, res: ServerResponse): Promise<void> }
  | { kind: 'http'; forward(req: McpProxyRequest): Promise<McpProxyAnswer> };

const ENGINE_REFUSAL = 'send the workspace\'s engine secret as a bearer token with X-Workspace-Id';

/** `owner/name` of a GitHub repository URL, at github.com or the deployment's GitHub Enterprise host. */
function githubFullName(url: string, webHost: string | null): string | null {
  if (codeHostOf(url, webHost) !== 'github') return null;
  const normalised = normaliseRepositoryUrl(url);
  const parts = normalised ? new URL(normalised).pathname.split('/').filter(Boolean) : [];
  return parts.length === 2 ? `${parts[0]}/${parts[1]}` : null;
}

function sameHash(a: string, b: string): boolean {
  const x = createHash('sha256').update(a).digest();
  const y = createHash('sha256').update(b).digest();
  return timingSafeEqual(x, y);
}

export function createWorkspacePlugins(deps: WorkspacePluginsDeps) {
  const { repos, secretBox } = deps;

  /** A native plugin this deployment can serve now; null for third-party installs or one it cannot. */
  const servedNative = (row: PluginInstallRow): NativePlugin | null => {
    const plugin = row.kind === 'native' ? nativePlugin(row.slug) : null;
    return plugin && plugin.unavailableReason(deps.capabilities) === null ? plugin : null;
  };

  async function pluginsOf(row: Pick<ReplicaRow, 'organization_id' | 'user_id'>): Promise<PluginInstallRow[]> {
    const installs = await repos.plugins.forWorkspace(row.organization_id, row.user_id);
    return effectivePlugins(installs, row.user_id);
  }

  const view = (row: PluginInstallRow): WorkspacePluginView => ({
    id: row.id,
    slug: row.slug,
    name: row.name,
    scope: scopeOf(row),
    kind: row.kind,
    provides: row.provides,
    mcp_server: pluginServerName(row.slug),
  });

  /** The engine secret's workspace, or 401; another workspace's path is 404. */
  async function engineWorkspace(pathWorkspaceId: string, headerWorkspaceId: string, authorization: string): Promise<ReplicaRow> {
    const secret = /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
    if (!secret || !CANONICAL_UUID.test(headerWorkspaceId)) throw unauthenticated(ENGINE_REFUSAL);
    const row = await repos.replicas.findLive(headerWorkspaceId);
    if (!row || !sameHash(row.engine_secret_hash, hashEngineSecret(secret))) throw unauthenticated(ENGINE_REFUSAL);
    if (row.id.toLowerCase() !== pathWorkspaceId.toLowerCase()) throw notFound('Replica');
    return row;
  }

  async function githubRepositories(organizationId: string): Promise<string[]> {
    const rows = await repos.codeRepositories.list(organizationId);
    const names = rows.map((r) => githubFullName(r.url, deps.githubWebHost)).filter((n): n is string => n !== null);
    return [...new Set(names)];
  }

  return {
    /** The plugins a workspace gets (API key with access to it, or its own engine secret). */
    async workspacePlugins(actor: Actor, workspaceId: string) {
      if (actor.keyId.startsWith('engine:') && actor.keyId !== `engine:${workspaceId}`) throw notFound('Replica');
      const row = await accessReplica(repos.replicas, actor, workspaceId);
      return { plugins: (await pluginsOf(row)).map(view) };
    },

    /** The environment block's `integrations` and `plugins` of a workspace. */
    async environmentIntegrations(row: ReplicaRow): Promise<{ integrations: Record<Integration, boolean>; plugins: WorkspacePluginView[] }> {
      const [plugins, slack, linear] = await Promise.all([
        pluginsOf(row),
        repos.connections.findByProvider(row.organization_id, 'slack'),
        repos.connections.findByProvider(row.organization_id, 'linear'),
      ]);
      // A native plugin the deployment can no longer serve provides nothing.
      const provided = plugins.filter((p) => p.provides !== null && (p.kind !== 'native' || servedNative(p))).map((p) => p.provides!);
      const repositoryHosts = row.repositories.map((r) => codeHostOf(r.url, deps.githubWebHost)).filter((h): h is CodeHost => h !== null);
      const integrations = integrationsOf({ repositoryHosts, codeHostCredentials: deps.codeHostCredentials, connections: { slack: !!slack, linear: !!linear }, provided });
      return { integrations, plugins: plugins.map(view) };
    },

    /**
     * Opens the plugin endpoint for one request: 401 without the engine secret of the workspace
     * named in X-Workspace-Id, 404 for another workspace's path or a plugin the workspace does
     * not get (another member's, one its owner's replaced, a stdio one, which runs in the container).
     */
    async openEndpoint(workspaceId: string, installId: string, headerWorkspaceId: string, authorization: string): Promise<PluginEndpoint> {
      const replica = await engineWorkspace(workspaceId, headerWorkspaceId, authorization);
      const install = (await pluginsOf(replica)).find((p) => p.id === installId.toLowerCase());
      if (!install || install.kind === 'stdio') throw notFound('Plugin');
      if (install.kind === 'native') {
        const plugin = servedNative(install);
        if (!plugin) throw notFound('Plugin', `the ${install.slug} plugin cannot be served by this deployment`);
        return {
          kind: 'native',
          serve: (req, res) => {
            const abort = new AbortController();
            res.once('close', () => abort.abort());
            const ctx = {
              organizationId: replica.organization_id,
              workspaceId: replica.id,
              githubRepositories: () => githubRepositories(replica.organization_id),
              github: deps.github,
              signal: abort.signal,
            };
            return serveNativePlugin(plugin, ctx, req, res, deps.logger);
          },
        };
      }
      const config = JSON.parse(secretBox.open(install.config_sealed!, sealedField('plugin_installs', 'config_sealed', install.id))) as { url: string; headers: Record<string, string> };
      const headers = { ...config.headers };
      if (install.secret_sealed) {
        const secret = secretBox.open(install.secret_sealed, sealedField('plugin_installs', 'secret_sealed', install.id));
        const header = install.secret_header ?? 'Authorization';
        headers[header.toLowerCase()] = header.toLowerCase() === 'authorization' ? `Bearer ${secret}` : secret;
      }
      return {
        kind: 'http',
        forward: async (req) => {
          const answer = await deps.proxy.forward({ url: config.url, headers }, req);
          if (!answer.ok) deps.logger.warn('a plugin server was unreachable', { workspaceId: replica.id, plugin: install.slug, reason: answer.reason });
          return answer;
        },
      };
    },
  };
}
