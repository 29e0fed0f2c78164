/**
 * A replica row with a sealed engine secret, written straight to the database as the API writes
 * one (no container, no workflow): enough for what checks a workspace's credentials, the AI
 * gateway and the engine-secret routes.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { sealedField } from '../../src/crypto/sealedFields';
import { createSecretBox } from '../../src/crypto/secretBox';
import { hashEngineSecret } from '../../src/domain/replicas';
import { gatewayKey } from '../../src/gateway';
import { harness } from './harness';

export interface WorkspaceRow {
  id: string;
  /** Its AI gateway key. */
  key: string;
  engineSecret: string;
}

/** `userId` makes it a member's workspace; its agent is `agent` (agent_1), with a chat of each agent in `chats`. */
export async function insertWorkspaceRow(organizationId: string, options: { userId?: string | null; agent?: string; chats?: string[] } = {}): Promise<WorkspaceRow> {
  const id = randomUUID();
  const engineSecret = randomBytes(32).toString('base64url');
  await harness().database.db('replicas').insert({
    id,
    organization_id: organizationId,
    user_id: options.userId ?? null,
    name: `gateway-${id.slice(0, 8)}`,
    status: 'active',
    coding_agent: options.agent ?? 'agent_1',
    engine_secret_hash: hashEngineSecret(engineSecret),
    engine_secret_sealed: createSecretBox(harness().config.encryptionKeys).seal(engineSecret, sealedField('replicas', 'engine_secret_sealed', id)),
  });
  for (const provider of options.chats ?? []) await insertChatRow(id, provider);
  return { id, key: gatewayKey(id, engineSecret), engineSecret };
}

/** A chat of `provider` in the replica; its id. */
export async function insertChatRow(replicaId: string, provider: string): Promise<string> {
  const id = randomUUID();
  await harness().database.db('replica_chats').insert({ id, replica_id: replicaId, provider, title: `${provider} chat` });
  return id;
}
