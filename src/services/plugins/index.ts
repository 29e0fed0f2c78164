/**
 * Plugins: installs for the whole organization (admins change them, every member reads them)
 * and each member's own (`/v1/user/plugins`, personal keys only; another member's install is
 * not found), the native catalog, and what a workspace gets of them (`./workspace.ts`).
 */
import { createOutboundPolicy } from '../../integrations/outbound/addressGuard';
import type { Config } from '../../config';
import type { SecretBox } from '../../crypto/secretBox';
import type { Repositories } from '../../db';
import { isUniqueViolation } from '../../db/errors';
import type { PluginOwner } from '../../db/pluginsRepository';
import type { Actor } from '../../domain/actor';
import { conflict, forbidden, notFound } from '../../domain/errors';
import { githubWebHost } from '../../domain/plugins';
import { createGithubApi } from '../../integrations/github/api';
import { createGithubIssuesClient } from '../../integrations/github/issues';
import { NATIVE_PLUGINS } from '../../integrations/plugins/catalog';
import type { NativeCapabilities } from '../../integrations/plugins/native';
import { createMcpProxy } from '../../integrations/plugins/proxy';
import type { Logger } from '../../logger';
import { prepareInstall, prepareUpdate, serializePlugin, type InstallPluginInput, type UpdatePluginInput } from './installs';
import { createWorkspacePlugins, type WorkspacePluginsDeps } from './workspace';

export type { InstallPluginInput, UpdatePluginInput } from './installs';
export type PluginsScope = 'org' | 'user';

export interface PluginsDeps extends WorkspacePluginsDeps {
  repos: WorkspacePluginsDeps['repos'] & Pick<Repositories, 'transact' | 'plugins'>;
  secretBox: SecretBox;
  capabilities: NativeCapabilities;
}

export function createPluginsService(deps: PluginsDeps) {
  const { secretBox, capabilities } = deps;
  const repo = deps.repos.plugins;

  /** The installs a scope's routes address; org keys have no personal installs. */
  function ownerOf(actor: Actor, scope: PluginsScope): PluginOwner {
    if (scope === 'org') return { organizationId: actor.organizationId, userId: null };
    if (!actor.userId) throw forbidden('Organization API keys have no personal plugins', 'use a personal API key for /v1/user/plugins');
    return { organizationId: actor.organizationId, userId: actor.userId };
  }

  function writableOwner(actor: Actor, scope: PluginsScope): PluginOwner {
    const owner = ownerOf(actor, scope);
    if (scope === 'org' && !actor.isAdmin) throw forbidden('Only organization admins can install or change organization plugins', 'a member installs a plugin for themselves at /v1/user/plugins');
    return owner;
  }

  const duplicate = (slug: string, scope: PluginsScope) =>
    conflict(`A plugin with slug "${slug}" is already installed ${scope === 'org' ? 'for the organization' : 'for you'}`, 'change it with PATCH, or delete it first');

  return {
    catalog() {
      return {
        plugins: NATIVE_PLUGINS.map((p) => {
          const reason = p.unavailableReason(capabilities);
          return {
            slug: p.slug,
            name: p.name,
            description: p.description,
            kind: 'native' as const,
            provides: p.provides,
            available: reason === null,
            unavailable_reason: reason,
            tools: p.tools.map((t) => ({ name: t.name, description: t.description })),
          };
        }),
      };
    },

    async list(actor: Actor, scope: PluginsScope) {
      const rows = await repo.list(ownerOf(actor, scope));
      return { plugins: rows.map((r) => serializePlugin(r, secretBox)) };
    },

    async get(actor: Actor, scope: PluginsScope, id: string) {
      const row = await repo.find(ownerOf(actor, scope), id);
      if (!row) throw notFound('Plugin');
      return { plugin: serializePlugin(row, secretBox) };
    },

    async install(actor: Actor, scope: PluginsScope, input: InstallPluginInput) {
      const owner = writableOwner(actor, scope);
      const write = prepareInstall(input, secretBox, capabilities);
      try {
        const row = await repo.insert(owner, { ...write, created_by: actor.userId });
        return { plugin: serializePlugin(row, secretBox) };
      } catch (err) {
        if (isUniqueViolation(err)) throw duplicate(input.slug, scope);
        throw err;
      }
    },

    async update(actor: Actor, scope: PluginsScope, id: string, input: UpdatePluginInput) {
      const owner = writableOwner(actor, scope);
      return deps.repos.transact(async (trx) => {
        // Locked, so a URL change sees a secret another PATCH is setting for the old URL (and drops it).
        const row = await repo.lock(owner, id, trx);
        if (!row) throw notFound('Plugin');
        const updated = await repo.update(owner, id, prepareUpdate(row, input, secretBox), trx);
        if (!updated) throw notFound('Plugin');
        return { plugin: serializePlugin(updated, secretBox) };
      });
    },

    async remove(actor: Actor, scope: PluginsScope, id: string) {
      if (!(await repo.delete(writableOwner(actor, scope), id))) throw notFound('Plugin');
      return { success: true as const };
    },

    ...createWorkspacePlugins(deps),

    /** Drops the idle connections to plugin servers (after the HTTP server stopped). */
    close: () => deps.proxy.close(),
  };
}

export type PluginsService = ReturnType<typeof createPluginsService>;

/** The plugins service as a deployment's config sets it up: its GitHub credentials serve the native `github` plugin. */
export function pluginsFromConfig(deps: { repos: PluginsDeps['repos']; secretBox: SecretBox; config: Pick<Config, 'github' | 'gitlab' | 'outboundAllow'>; logger: Logger }) {
  const { github, gitlab } = deps.config;
  const githubApi = createGithubApi({ apiUrl: github.apiUrl, appId: github.appId, privateKeyPem: github.privateKeyPem, token: github.token });
  return createPluginsService({
    repos: deps.repos,
    secretBox: deps.secretBox,
    capabilities: { github: githubApi.configured },
    // GitLab's token (HANGAR_GITLAB_TOKEN) is what Hangar answers in issues and merge requests with.
    codeHostCredentials: { github: githubApi.configured, gitlab: !!gitlab.token },
    githubWebHost: githubWebHost(github.apiUrl),
    github: githubApi.configured ? createGithubIssuesClient(githubApi) : null,
    proxy: createMcpProxy(createOutboundPolicy(deps.config.outboundAllow)),
    logger: deps.logger,
  });
}
