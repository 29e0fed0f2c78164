/**
 * Who sent a GitLab delivery, decided from `X-Gitlab-Token` alone, before the body is read.
 *
 * - An organization's GitLab connection: the token's keyed hash (`src/crypto/lookupHashes.ts`,
 *   one per configured key) is looked up in `connections.webhook_token_hash`, then the row's
 *   own sealed token is opened and compared in constant time (a hash copied into another row
 *   does not open as that row's token). The delivery may reach that organization, and only its
 *   own connected repositories.
 * - The deployment's `HANGAR_GITLAB_WEBHOOK_TOKEN`, compared in constant time: the way a
 *   single-organization deployment ran before connections. It is known to every organization
 *   that set up hooks with it, so with more than one organization it routes nothing.
 *
 * Anything else is the same 401. A miss costs one indexed query whatever the token looks like.
 */
import { GITLAB_WEBHOOK_TOKEN_PURPOSE, type LookupHashes } from '../../crypto/lookupHashes';
import { sealedField } from '../../crypto/sealedFields';
import type { SecretBox } from '../../crypto/secretBox';
import type { ConnectionsRepository } from '../../db/connectionsRepository';
import type { IdentityRepository } from '../../db/identityRepository';
import { DomainError } from '../../domain/errors';
import { verifyGitlabToken } from '../../integrations/gitlab/events';
import type { Logger } from '../../logger';

/** The organizations a verified delivery may reach (normally one). */
export type GitlabSender =
  | { kind: 'connection'; organizations: Array<{ organizationId: string; connectionId: string }> }
  | { kind: 'deployment'; organizations: Array<{ organizationId: string; connectionId: null }> };

/** Longer than any token worth hashing: refused as it is. */
const MAX_TOKEN_CHARS = 4096;

const refused = (details: string) => new DomainError('unauthenticated', 'Invalid webhook token', details);

export function createGitlabSenders(deps: {
  connections: Pick<ConnectionsRepository, 'findGitlabByTokenHashes'>;
  identity: Pick<IdentityRepository, 'soleOrganization'>;
  secretBox: SecretBox;
  lookupHashes: LookupHashes;
  /** `HANGAR_GITLAB_WEBHOOK_TOKEN`: honoured only while the deployment has one organization. */
  deploymentToken?: string;
  logger: Logger;
}) {
  const { logger } = deps;

  function storedToken(row: { id: string; secrets_sealed: string }): string | null {
    try {
      const secrets = JSON.parse(deps.secretBox.open(row.secrets_sealed, sealedField('connections', 'secrets_sealed', row.id))) as { webhook_token?: unknown };
      return typeof secrets.webhook_token === 'string' && secrets.webhook_token ? secrets.webhook_token : null;
    } catch (err) {
      logger.error('a gitlab connection has unreadable secrets', { connectionId: row.id, err });
      return null;
    }
  }

  return {
    async resolve(token: string | undefined): Promise<GitlabSender> {
      if (typeof token !== 'string' || token === '' || token.length > MAX_TOKEN_CHARS) throw refused('X-Gitlab-Token is missing');
      const rows = await deps.connections.findGitlabByTokenHashes(deps.lookupHashes.candidates(GITLAB_WEBHOOK_TOKEN_PURPOSE, token));
      const matched = rows.filter((row) => {
        const stored = storedToken(row);
        return stored !== null && verifyGitlabToken(stored, token);
      });
      if (matched.length > 0) return { kind: 'connection', organizations: matched.map((row) => ({ organizationId: row.organization_id, connectionId: row.id })) };

      if (deps.deploymentToken && verifyGitlabToken(deps.deploymentToken, token)) {
        const sole = await deps.identity.soleOrganization();
        if (sole) return { kind: 'deployment', organizations: [{ organizationId: sole, connectionId: null }] };
        logger.warn(
          'a GitLab delivery carried HANGAR_GITLAB_WEBHOOK_TOKEN, which routes nothing while the deployment has more than one organization: ' +
            "give each organization a GitLab connection (POST /v1/connections, provider gitlab) and its own hooks' token",
        );
        throw refused('the deployment-wide GitLab token is not accepted while the deployment has more than one organization; use your organization\'s GitLab connection token');
      }
      throw refused('X-Gitlab-Token matches no GitLab connection');
    },
  };
}

export type GitlabSenders = ReturnType<typeof createGitlabSenders>;
