/**
 * What an install request may hold, checked and sealed: a native plugin must be one this
 * deployment serves and takes neither config nor secret; an http plugin's config is its URL
 * and non-secret headers, its secret goes apart (sealed, sent by Hangar only); a stdio plugin
 * runs in the container and so may not carry a secret at all.
 */
import { randomUUID } from 'node:crypto';
import { sealedField } from '../../crypto/sealedFields';
import type { SecretBox } from '../../crypto/secretBox';
import type { PluginInstallRow, SecretType } from '../../db/pluginsRepository';
import { secretProblem } from '../../domain/credentialSecrets';
import { invalid } from '../../domain/errors';
import { scopeOf } from '../../domain/plugins';
import { nativePlugin } from '../../integrations/plugins/catalog';
import type { NativeCapabilities } from '../../integrations/plugins/native';
import { isBlockedAddress } from '../../integrations/plugins/proxy';
import { checkedConfig, type RemoteConfig, type StdioConfig } from '../environmentResources/mcpConfig';
import type { InstallPluginInput, PluginSecretInput, UpdatePluginInput } from '../../schemas/plugins';

/** The bodies' own types, derived from their schemas (src/schemas/plugins.ts). */
export type { InstallPluginInput, PluginSecretInput, UpdatePluginInput };

/**
 * Headers the proxy sets or passes itself (the protocol's, the transport's, the secret's
 * default place); a config may not set them.
 */
const RESERVED_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'host',
  'accept',
  'accept-encoding',
  'content-type',
  'content-length',
  'transfer-encoding',
  'connection',
  'mcp-session-id',
  'mcp-protocol-version',
  'last-event-id',
  'x-workspace-id',
]);

export const STDIO_SECRET_REFUSAL =
  'a stdio plugin runs inside the workspace container, where no plugin secret may go; serve the MCP server over HTTP and install it with kind "http": Hangar keeps the secret and adds it when it forwards the workspace\'s requests';

function checkHttpConfig(config: unknown, secretHeader: string | null): RemoteConfig {
  const checked = checkedConfig('http', config) as RemoteConfig;
  const url = new URL(checked.url);
  if (url.username || url.password) throw invalid('Invalid body', 'body.config.url: put credentials in body.secret, not in the URL');
  if (isBlockedAddress(url.hostname.replace(/^\[|\]$/g, ''))) throw invalid('Invalid body', 'body.config.url: link-local and unspecified addresses are not allowed');
  for (const name of Object.keys(checked.headers)) {
    const lower = name.toLowerCase();
    if (lower === 'authorization' || lower === 'proxy-authorization') throw invalid('Invalid body', `body.config.headers.${name}: credentials go in body.secret, which is sealed and never shown`);
    if (RESERVED_HEADERS.has(lower)) throw invalid('Invalid body', `body.config.headers.${name}: Hangar sets this header itself`);
    if (secretHeader !== null && lower === secretHeader.toLowerCase()) throw invalid('Invalid body', `body.config.headers.${name}: the secret is sent in this header`);
  }
  return checked;
}

function checkSecret(secret: PluginSecretInput): { type: SecretType; header: string } {
  const problem = secretProblem(secret.value);
  if (problem) throw invalid('Invalid body', `body.secret.value: ${problem}`);
  const header = secret.header ?? 'Authorization';
  const lower = header.toLowerCase();
  if (secret.type === 'oauth_token' && lower !== 'authorization') throw invalid('Invalid body', 'body.secret.header: an OAuth token goes in Authorization as a bearer token');
  if (lower !== 'authorization' && RESERVED_HEADERS.has(lower)) throw invalid('Invalid body', `body.secret.header: ${header} is set by Hangar itself`);
  return { type: secret.type, header: lower === 'authorization' ? 'Authorization' : header };
}

const configField = (id: string) => sealedField('plugin_installs', 'config_sealed', id);
const secretField = (id: string) => sealedField('plugin_installs', 'secret_sealed', id);

/** The columns of a new install (its id too), checked and sealed. */
export function prepareInstall(input: InstallPluginInput, secretBox: SecretBox, capabilities: NativeCapabilities) {
  const id = randomUUID();
  const enabled = input.enabled ?? true;
  if (input.kind === 'native') {
    const plugin = nativePlugin(input.slug);
    if (!plugin) throw invalid('Invalid body', `body.slug: Hangar has no native plugin "${input.slug}"; GET /v1/plugins/catalog lists them`);
    if (input.config !== undefined) throw invalid('Invalid body', 'body.config: a native plugin takes no config');
    if (input.secret !== undefined) throw invalid('Invalid body', "body.secret: a native plugin uses the deployment's own credentials and takes no secret");
    if (input.provides !== undefined && input.provides !== plugin.provides) throw invalid('Invalid body', `body.provides: the ${plugin.slug} plugin provides ${plugin.provides}`);
    const reason = plugin.unavailableReason(capabilities);
    if (reason) throw invalid('Plugin not available', `the ${plugin.slug} plugin cannot work here: ${reason}`);
    return { id, slug: input.slug, name: input.name ?? plugin.name, kind: input.kind, provides: plugin.provides, enabled, config_sealed: null, secret_sealed: null, secret_type: null, secret_header: null };
  }
  if (input.config === undefined) throw invalid('Invalid body', `body.config: is required for a${input.kind === 'http' ? 'n' : ''} ${input.kind} plugin`);
  const common = { id, slug: input.slug, name: input.name ?? input.slug, kind: input.kind, provides: input.provides ?? null, enabled };
  if (input.kind === 'stdio') {
    if (input.secret !== undefined) throw invalid('Invalid body', `body.secret: ${STDIO_SECRET_REFUSAL}`);
    const config = checkedConfig('stdio', input.config) as StdioConfig;
    return { ...common, config_sealed: secretBox.seal(JSON.stringify(config), configField(id)), secret_sealed: null, secret_type: null, secret_header: null };
  }
  const secret = input.secret ? checkSecret(input.secret) : null;
  const config = checkHttpConfig(input.config, secret?.header ?? null);
  return {
    ...common,
    config_sealed: secretBox.seal(JSON.stringify(config), configField(id)),
    secret_sealed: input.secret ? secretBox.seal(input.secret.value, secretField(id)) : null,
    secret_type: secret?.type ?? null,
    secret_header: secret?.header ?? null,
  };
}

/** Whether a PATCH's http config points the install at another URL than the one its secret was given for. */
function movesUrl(row: PluginInstallRow, config: Record<string, unknown> | undefined, secretBox: SecretBox): boolean {
  if (row.kind !== 'http' || config === undefined || !row.config_sealed) return false;
  const current = (JSON.parse(secretBox.open(row.config_sealed, configField(row.id))) as { url?: unknown }).url;
  const next = config.url;
  if (typeof current !== 'string' || typeof next !== 'string') return true;
  try {
    return new URL(current).href !== new URL(next).href;
  } catch {
    return true;
  }
}

/**
 * The columns a PATCH changes, checked against the install it changes. A secret was given for
 * the server at the install's URL: a PATCH that moves the URL drops it unless it sets one
 * itself, so an edit of the URL never sends the old secret to another server.
 */
export function prepareUpdate(row: PluginInstallRow, input: UpdatePluginInput, secretBox: SecretBox) {
  const changes: Partial<PluginInstallRow> = {};
  const secretInput = input.secret === undefined && row.secret_sealed !== null && movesUrl(row, input.config, secretBox) ? null : input.secret;
  if (input.name !== undefined) changes.name = input.name;
  if (input.enabled !== undefined) changes.enabled = input.enabled;
  if (input.provides !== undefined && input.provides !== row.provides) {
    if (row.kind === 'native') throw invalid('Invalid body', `body.provides: the ${row.slug} plugin provides ${row.provides}`);
    changes.provides = input.provides;
  }
  if (row.kind === 'native' && input.config !== undefined) throw invalid('Invalid body', 'body.config: a native plugin takes no config');
  if (secretInput !== undefined && secretInput !== null) {
    if (row.kind === 'stdio') throw invalid('Invalid body', `body.secret: ${STDIO_SECRET_REFUSAL}`);
    if (row.kind === 'native') throw invalid('Invalid body', "body.secret: a native plugin uses the deployment's own credentials and takes no secret");
    const secret = checkSecret(secretInput);
    Object.assign(changes, { secret_sealed: secretBox.seal(secretInput.value, secretField(row.id)), secret_type: secret.type, secret_header: secret.header });
  } else if (secretInput === null) {
    Object.assign(changes, { secret_sealed: null, secret_type: null, secret_header: null });
  }
  const secretHeader = changes.secret_header !== undefined ? changes.secret_header : row.secret_header;
  if (input.config !== undefined) {
    const config = row.kind === 'stdio' ? checkedConfig('stdio', input.config) : checkHttpConfig(input.config, secretHeader);
    changes.config_sealed = secretBox.seal(JSON.stringify(config), configField(row.id));
  } else if (row.kind === 'http' && secretHeader !== null && secretHeader !== row.secret_header) {
    // A new secret header must not collide with the headers the config already has.
    checkHttpConfig(JSON.parse(secretBox.open(row.config_sealed!, configField(row.id))), secretHeader);
  }
  return changes;
}

/** A member's view of an install: its config (nothing secret by contract) and which secret is set, never the secret. */
export function serializePlugin(row: PluginInstallRow, secretBox: SecretBox) {
  return {
    id: row.id,
    organization_id: row.organization_id,
    user_id: row.user_id,
    scope: scopeOf(row),
    slug: row.slug,
    name: row.name,
    kind: row.kind,
    provides: row.provides,
    enabled: row.enabled,
    config: row.config_sealed ? (JSON.parse(secretBox.open(row.config_sealed, configField(row.id))) as Record<string, unknown>) : null,
    secret: row.secret_type ? { type: row.secret_type, header: row.secret_header ?? 'Authorization' } : null,
    created_by: row.created_by,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export type PluginView = ReturnType<typeof serializePlugin>;
