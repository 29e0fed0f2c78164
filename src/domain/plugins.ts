/**
 * Plugin rules that need no I/O: which installs a workspace gets (its owner's own install of a
 * slug replaces the organization's), the name a plugin's MCP server has in an agent's config,
 * and which integrations (interop §4.2 `integrations`) a workspace has.
 */

export const PLUGIN_KINDS = ['native', 'http', 'stdio'] as const;
export type PluginKind = (typeof PLUGIN_KINDS)[number];

/** The integrations the replica's environment block reports (interop §4.2). */
export const INTEGRATIONS = ['github', 'gitlab', 'linear', 'slack', 'google'] as const;
export type Integration = (typeof INTEGRATIONS)[number];

/** `org`: installed by an admin for every member; `user`: a member's own. */
export type PluginScope = 'org' | 'user';

export const PLUGIN_SLUG_PATTERN = '^[a-z0-9][a-z0-9_-]{0,55}$';

/** What precedence needs of an install. */
export interface PluginInstallRef {
  id: string;
  user_id: string | null;
  slug: string;
  enabled: boolean;
}

export const scopeOf = (install: { user_id: string | null }): PluginScope => (install.user_id === null ? 'org' : 'user');

/**
 * Hangar's reserved prefix (environment MCP servers may not use it), so a plugin's server
 * never collides with one the environment defines.
 */
export const pluginServerName = (slug: string) => `hangar-${slug}`;

/**
 * The installs a workspace owned by `ownerUserId` gets, by slug: the organization's, with the
 * owner's own install of a slug in its place. A disabled install counts as absent, so a member
 * who switches theirs off gets the organization's again. Another member's installs never
 * apply; a workspace without an owner (made with an organization key) gets the organization's.
 */
export function effectivePlugins<T extends PluginInstallRef>(installs: readonly T[], ownerUserId: string | null): T[] {
  const bySlug = new Map<string, T>();
  for (const install of installs) {
    if (!install.enabled || install.user_id !== null) continue;
    bySlug.set(install.slug, install);
  }
  if (ownerUserId !== null) {
    for (const install of installs) {
      if (install.enabled && install.user_id === ownerUserId) bySlug.set(install.slug, install);
    }
  }
  return [...bySlug.values()].sort((a, b) => a.slug.localeCompare(b.slug));
}

export type CodeHost = 'github' | 'gitlab';

/**
 * The code host of a repository URL (web, `git@host:` or `ssh://`): GitHub at github.com or at
 * the web host of the deployment's GitHub API (GitHub Enterprise), GitLab at gitlab.com or a
 * host named `gitlab.…`; null for anything else (a local `file://` remote).
 */
export function codeHostOf(url: string, githubWebHost: string | null = null): CodeHost | null {
  const host = hostOf(url);
  if (!host) return null;
  if (host === 'github.com' || (githubWebHost !== null && host === githubWebHost)) return 'github';
  if (host === 'gitlab.com' || host.startsWith('gitlab.')) return 'gitlab';
  return null;
}

function hostOf(url: string): string | null {
  const scp = /^[A-Za-z0-9._-]+@([A-Za-z0-9.-]+):/.exec(url.trim());
  if (scp) return scp[1]!.toLowerCase();
  try {
    const parsed = new URL(url.trim());
    return parsed.protocol === 'file:' ? null : parsed.hostname.toLowerCase() || null;
  } catch {
    return null;
  }
}

/**
 * The web host behind a GitHub API base: `api.github.com` is github.com's; GitHub Enterprise
 * serves its API under `/api/v3` on the web host itself.
 */
export function githubWebHost(apiUrl: string): string | null {
  try {
    const host = new URL(apiUrl).hostname.toLowerCase();
    return host === 'api.github.com' ? 'github.com' : host;
  } catch {
    return null;
  }
}

export interface IntegrationFacts {
  /** The code hosts of the workspace's repositories. */
  repositoryHosts: readonly CodeHost[];
  /** Whether the deployment holds API credentials for each code host. */
  codeHostCredentials: Record<CodeHost, boolean>;
  /** The organization's connections (Slack workspace, Linear workspace). */
  connections: { slack: boolean; linear: boolean };
  /** What the workspace's plugins provide (only plugins that can work now). */
  provided: readonly Integration[];
}

/**
 * An integration is available when something in the workspace can act on it: a code host when
 * the workspace has its repositories and the deployment can call its API, Slack and Linear when
 * the organization is connected to them, and any of them when a plugin provides it.
 */
export function integrationsOf(facts: IntegrationFacts): Record<Integration, boolean> {
  const provided = new Set(facts.provided);
  const codeHost = (host: CodeHost) => (facts.repositoryHosts.includes(host) && facts.codeHostCredentials[host]) || provided.has(host);
  return {
    github: codeHost('github'),
    gitlab: codeHost('gitlab'),
    linear: facts.connections.linear || provided.has('linear'),
    slack: facts.connections.slack || provided.has('slack'),
    google: provided.has('google'),
  };
}
