/**
 * Connections (`/v1/connections`): an organization's Slack workspace, Linear workspace, Sentry
 * organization and GitLab hooks, whose secrets are sealed at rest and never answered; and
 * members' linked identities (`/v1/user/connections`). Only admins manage connections and link
 * an identity by hand — a member's own Slack or Linear identity links itself when the provider
 * reports the same verified email — because a link decides whose workspace and credentials a
 * chat message uses. GitHub and GitLab identities are their accounts' numeric ids, never logins.
 */
import { randomUUID } from 'node:crypto';
import { GITLAB_WEBHOOK_TOKEN_PURPOSE, type LookupHashes } from '../crypto/lookupHashes';
import { sealedField } from '../crypto/sealedFields';
import type { SecretBox } from '../crypto/secretBox';
import type { Repositories } from '../db';
import type { ConnectionProvider, ConnectionRow, IdentityProvider, TokenHash, UserConnectionRow } from '../db/connectionsRepository';
import { isUniqueViolation } from '../db/errors';
import type { Actor } from '../domain/actor';
import { conflict, forbidden, invalid, notFound } from '../domain/errors';
import type { OutboundPolicy } from '../integrations/outbound/addressGuard';

/** The secrets each provider's app needs; others are refused. */
const REQUIRED_SECRETS: Record<ConnectionProvider, string[]> = {
  slack: ['bot_token', 'signing_secret'],
  linear: ['access_token', 'webhook_secret'],
  sentry: ['client_secret'],
  gitlab: ['webhook_token', 'api_token'],
};
const REQUIRED_SETTINGS: Record<ConnectionProvider, string[]> = { slack: [], linear: ['app_user_id'], sentry: [], gitlab: [] };
/** Settings only one provider reads; the others are refused there. */
const OWN_SETTINGS: Partial<Record<string, ConnectionProvider>> = { instance_url: 'gitlab' };

/** GitHub and GitLab accounts are named by their numeric ids: logins can be renamed and taken by someone else. */
const NUMERIC_ID = /^[1-9][0-9]{0,19}$/;
const numericIdentity = (provider: IdentityProvider) => provider === 'github' || provider === 'gitlab';

export interface ConnectionInput {
  provider: ConnectionProvider;
  external_id: string;
  name: string;
  secrets: Record<string, string>;
  settings?: Record<string, string>;
}

function checkFields(provider: ConnectionProvider, secrets: Record<string, string>, settings: Record<string, unknown>): void {
  for (const key of Object.keys(secrets)) {
    if (!REQUIRED_SECRETS[provider].includes(key)) throw invalid('Invalid body', `body.secrets.${key}: not a ${provider} secret (${REQUIRED_SECRETS[provider].join(', ')})`);
  }
  for (const key of REQUIRED_SECRETS[provider]) if (!secrets[key]) throw invalid('Invalid body', `body.secrets.${key}: is required for ${provider}`);
  for (const key of REQUIRED_SETTINGS[provider]) if (!settings[key]) throw invalid('Invalid body', `body.settings.${key}: is required for ${provider}`);
  for (const key of Object.keys(settings)) {
    const owner = OWN_SETTINGS[key];
    if (owner && owner !== provider) throw invalid('Invalid body', `body.settings.${key}: is a ${owner} setting`);
  }
}

/** A GitLab instance's base URL: http(s), no credentials, query or fragment; kept without a trailing slash. */
function instanceUrl(raw: unknown): string | null {
  if (raw === undefined) return null;
  let url: URL;
  try {
    url = new URL(String(raw));
  } catch {
    throw invalid('Invalid body', 'body.settings.instance_url: must be a URL such as https://gitlab.example.com');
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password || url.search || url.hash) {
    throw invalid('Invalid body', 'body.settings.instance_url: must be an http(s) URL without credentials, query or fragment');
  }
  return url.href.replace(/\/+$/, '');
}

const requireAdmin = (actor: Actor, what: string) => {
  if (!actor.isAdmin) throw forbidden('Only organization admins can manage connections', what);
};

export function createConnectionsService(deps: {
  repos: Pick<Repositories, 'connections' | 'identity'>;
  secretBox: SecretBox;
  lookupHashes: LookupHashes;
  /** Where the worker may send a GitLab connection's answers (its `instance_url`). */
  outbound: Pick<OutboundPolicy, 'checkUrl'>;
}) {
  const { connections } = deps.repos;

  /** The keyed hash a GitLab delivery's token is found by; null columns for other providers. */
  const tokenHash = (provider: ConnectionProvider, secrets: Record<string, string>): TokenHash => {
    if (provider !== 'gitlab' || !secrets.webhook_token) return { webhook_token_hash: null, webhook_token_key_id: null };
    const { hash, keyId } = deps.lookupHashes.current(GITLAB_WEBHOOK_TOKEN_PURPOSE, secrets.webhook_token);
    return { webhook_token_hash: hash, webhook_token_key_id: keyId };
  };

  /** Settings as stored: a GitLab instance URL normalised and checked against the outbound policy. */
  async function checkedSettings(provider: ConnectionProvider, settings: Record<string, string>): Promise<Record<string, string>> {
    if (provider !== 'gitlab' || settings.instance_url === undefined) return settings;
    const url = instanceUrl(settings.instance_url)!;
    const refused = await deps.outbound.checkUrl(url);
    if (refused) throw invalid('Invalid body', `body.settings.instance_url: ${refused}`);
    return { ...settings, instance_url: url };
  }

  const serialize = (row: ConnectionRow & { secrets_sealed?: string }, secretsSet: string[]) => ({
    id: row.id,
    provider: row.provider,
    external_id: row.external_id,
    name: row.name,
    settings: row.settings ?? {},
    secrets_set: secretsSet,
    created_by: row.created_by,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  });
  const secretsField = (id: string) => sealedField('connections', 'secrets_sealed', id);
  const openSecrets = (row: { id: string; secrets_sealed: string }) => JSON.parse(deps.secretBox.open(row.secrets_sealed, secretsField(row.id))) as Record<string, string>;
  const secretNames = (row: { id: string; secrets_sealed: string }): string[] => Object.keys(openSecrets(row)).sort();

  /** Another organization's connection is not found, like a missing one. */
  async function sealedOf(actor: Actor, id: string) {
    const sealed = await connections.findSealed(id);
    if (!sealed || sealed.organization_id !== actor.organizationId) throw notFound('Connection');
    return sealed;
  }

  const serializeIdentity = (row: UserConnectionRow) => ({ ...row, created_at: row.created_at.toISOString() });

  return {
    async list(actor: Actor) {
      const rows = await connections.list(actor.organizationId);
      return Promise.all(rows.map(async (row) => serialize(row, secretNames(await sealedOf(actor, row.id)))));
    },

    async get(actor: Actor, id: string) {
      const sealed = await sealedOf(actor, id);
      return serialize(sealed, secretNames(sealed));
    },

    async create(actor: Actor, input: ConnectionInput) {
      requireAdmin(actor, 'an admin connects Slack, Linear, Sentry or GitLab for the organization');
      checkFields(input.provider, input.secrets, input.settings ?? {});
      const settings = await checkedSettings(input.provider, input.settings ?? {});
      try {
        const id = randomUUID();
        const row = await connections.insert({
          id,
          organization_id: actor.organizationId,
          provider: input.provider,
          external_id: input.external_id.trim(),
          name: input.name.trim(),
          secrets_sealed: deps.secretBox.seal(JSON.stringify(input.secrets), secretsField(id)),
          settings,
          created_by: actor.userId,
          ...tokenHash(input.provider, input.secrets),
        });
        return serialize(row, Object.keys(input.secrets).sort());
      } catch (err) {
        if (isUniqueViolation(err, 'connections_organization_provider_unique')) throw conflict(`The organization already has a ${input.provider} connection`, 'update or delete it instead');
        if (isUniqueViolation(err, 'connections_provider_external_unique')) throw conflict(`This ${input.provider} workspace is already connected`, 'one external workspace belongs to one organization');
        throw err;
      }
    },

    /** `secrets` are merged into the stored ones (send only what changes); `settings` replace. */
    async update(actor: Actor, id: string, patch: { name?: string; secrets?: Record<string, string>; settings?: Record<string, string> }) {
      requireAdmin(actor, 'an admin changes connections');
      const sealed = await sealedOf(actor, id);
      const secrets = { ...openSecrets(sealed), ...(patch.secrets ?? {}) };
      checkFields(sealed.provider, secrets, patch.settings ?? sealed.settings);
      const row = await connections.update(actor.organizationId, id, {
        name: patch.name?.trim(),
        settings: patch.settings ? await checkedSettings(sealed.provider, patch.settings) : undefined,
        ...(patch.secrets ? { secrets_sealed: deps.secretBox.seal(JSON.stringify(secrets), secretsField(id)), ...tokenHash(sealed.provider, secrets) } : {}),
      });
      if (!row) throw notFound('Connection');
      return serialize(row, Object.keys(secrets).sort());
    },

    async remove(actor: Actor, id: string) {
      requireAdmin(actor, 'an admin disconnects Slack, Linear, Sentry or GitLab');
      if (!(await connections.delete(actor.organizationId, id))) throw notFound('Connection');
    },

    // --- Members' identities ----------------------------------------------------------------

    /** A member's own links; an org key (or an admin with `all`) sees every member's. */
    async listIdentities(actor: Actor) {
      const rows = await connections.listIdentities(actor.organizationId, actor.keyKind === 'org' ? null : actor.userId);
      return rows.map(serializeIdentity);
    },

    async link(actor: Actor, input: { provider: IdentityProvider; external_user_id: string; external_name?: string; user_id?: string }) {
      if (!actor.isAdmin) {
        throw forbidden('Only organization admins link identities by hand', 'your own identity is linked when the provider reports the same verified email as your account');
      }
      const userId = input.user_id ?? actor.userId;
      if (!userId) throw invalid('Invalid body', 'body.user_id: is required with an organization key');
      const externalUserId = input.external_user_id.trim();
      if (numericIdentity(input.provider) && !NUMERIC_ID.test(externalUserId)) {
        throw invalid('Invalid body', `body.external_user_id: a ${input.provider} identity is the account's numeric user id (a login can be renamed and taken by someone else); put the login in external_name`);
      }
      const user = await deps.repos.identity.findUser(actor.organizationId, userId);
      if (!user) throw notFound('User');
      try {
        const row = await connections.link({
          organization_id: actor.organizationId,
          user_id: user.id,
          provider: input.provider,
          external_user_id: externalUserId,
          external_name: input.external_name?.trim() ?? null,
          email: null,
          linked_via: 'explicit',
        });
        return serializeIdentity(row);
      } catch (err) {
        if (isUniqueViolation(err, 'user_connections_identity_unique')) throw conflict(`This ${input.provider} identity is already linked to a member`);
        if (isUniqueViolation(err, 'user_connections_user_provider_unique')) throw conflict(`This member already has a linked ${input.provider} identity`, 'unlink it first');
        throw err;
      }
    },

    /** A member unlinks their own identity; an admin any member's. */
    async unlink(actor: Actor, id: string) {
      const row = await connections.findIdentity(actor.organizationId, id);
      if (!row || (!actor.isAdmin && row.user_id !== actor.userId)) throw notFound('Connection');
      await connections.unlink(actor.organizationId, id, null);
    },
  };
}

export type ConnectionsService = ReturnType<typeof createConnectionsService>;
