/**
 * Linear's `ThreadAdapter` (worker side): Hangar answers in an issue's comments as the app user
 * of the organization's Linear connection, with the connection's sealed `{access_token}`.
 */
import { sealedField } from '../../crypto/sealedFields';
import type { SecretBox } from '../../crypto/secretBox';
import type { ConnectionsRepository } from '../../db/connectionsRepository';
import type { Logger } from '../../logger';
import type { ThreadAdapter, ThreadAuthor, ThreadBinding, ThreadReply, ThreadRouting } from '../threads/types';
import { createLinearClient, LinearApiError, type LinearClient } from './api';

/** Linear accepts long comments; an agent's answer beyond this is cut (the workspace keeps it whole). */
const MAX_COMMENT = 60_000;

export function acknowledgementText(routing: ThreadRouting): string {
  return `Working on this in Hangar workspace \`${routing.replicaId}\`. I'll reply here when the agent is done; comment on this issue to tell it more.`;
}

/** The comment that carries an agent turn's answer: its text, any pull requests, or why it failed. */
export function replyText(reply: ThreadReply): string {
  const parts: string[] = [];
  const said = reply.text.trim();
  if (!reply.ok) parts.push(`The agent's turn failed: ${reply.error ?? 'unknown error'}`);
  if (said) parts.push(said.length > MAX_COMMENT ? `${said.slice(0, MAX_COMMENT)}\n\n…(cut; the whole answer is in the workspace)` : said);
  const links = reply.pullRequestUrls.filter((url) => !said.includes(url));
  if (links.length) parts.push(['Pull requests:', ...links.map((url) => `- ${url}`)].join('\n'));
  if (!parts.length) parts.push('The agent finished without a message.');
  return parts.join('\n\n');
}

/** Errors worth retrying: no answer, Linear's 5xx, rate limits. */
const transient = (err: unknown) => err instanceof LinearApiError && (err.status === 0 || err.status >= 500 || err.status === 429 || err.code === 'RATELIMITED');

export function createLinearThreadAdapter(deps: {
  connections: Pick<ConnectionsRepository, 'findSealed'>;
  secretBox: SecretBox;
  apiUrl: string;
  logger: Logger;
}): ThreadAdapter {
  async function client(binding: Pick<ThreadBinding, 'connectionId'>): Promise<LinearClient> {
    const connection = binding.connectionId ? await deps.connections.findSealed(binding.connectionId) : null;
    if (!connection || connection.provider !== 'linear') throw new Error('the Linear connection of this thread is gone');
    const secrets = JSON.parse(deps.secretBox.open(connection.secrets_sealed, sealedField('connections', 'secrets_sealed', connection.id))) as { access_token?: unknown };
    if (typeof secrets.access_token !== 'string' || !secrets.access_token) throw new Error('the Linear connection has no access_token');
    return createLinearClient({ apiUrl: deps.apiUrl, token: secrets.access_token });
  }

  const issueOf = (binding: ThreadBinding) => (typeof binding.reference.issueId === 'string' ? binding.reference.issueId : binding.threadKey);

  return {
    provider: 'linear',

    async acknowledge(binding, routing) {
      // Follow-ups reach a workspace that already said it is on it.
      if (!routing.created) return;
      await (await client(binding)).createComment(issueOf(binding), acknowledgementText(routing));
    },

    async reply(binding, reply) {
      await (await client(binding)).createComment(issueOf(binding), replyText(reply));
    },

    async authorEmail(binding, author: ThreadAuthor) {
      try {
        return await (await client(binding)).userEmail(author.externalId);
      } catch (err) {
        if (transient(err)) throw err;
        deps.logger.warn('could not read a Linear user\'s email', { err, organizationId: binding.organizationId });
        return null;
      }
    },
  };
}
