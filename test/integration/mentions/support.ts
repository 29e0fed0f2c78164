/** Shared fixtures for the code-hosting mention tests: organizations with a connected repository, and what to wait on. */
import { randomUUID } from 'node:crypto';
import { harness } from '../../support/harness';
import { as, newOrg } from '../../support/http';
import { until } from '../../support/wait';

export const db = () => harness().database.db;

/** An organization with a repository connected at `https://{host}/{fullName}`. */
export async function orgWithRepository(name: string, host = 'github.com') {
  const org = await newOrg(name);
  const fullName = `acme-${randomUUID().slice(0, 8)}/${name}`;
  const repo = await harness().admin.addRepository({ organizationId: org.organization_id, url: `https://${host}/${fullName}` });
  return { org, api: as(org.org_api_key), adminApi: as(org.admin.personal_api_key), fullName, repo };
}

/** The thread's row once the core bound it to a workspace. */
export async function boundThread(organizationId: string, provider: string, threadKey: string) {
  return until(
    `thread ${threadKey} to have a workspace`,
    async () => {
      const row = await db()('integration_threads').where({ organization_id: organizationId, provider, thread_key: threadKey }).first();
      return row?.replica_id ? row : undefined;
    },
    120_000,
    200,
  );
}

export async function statusOf(replicaId: string): Promise<string | undefined> {
  return (await db()('replicas').where({ id: replicaId }).first('status'))?.status;
}

/** The workspace's messages that finished (the agent's turn ran), oldest first. */
export async function finishedMessages(replicaId: string, count: number) {
  return until(
    `${count} finished turns in ${replicaId}`,
    async () => {
      const rows = await db()('replica_messages').where({ replica_id: replicaId }).orderBy('created_at');
      const done = rows.filter((r: { status: string }) => r.status === 'completed' || r.status === 'failed');
      return done.length >= count ? rows : undefined;
    },
    180_000,
    250,
  );
}

/** Whether the core recorded a thread delivery (the receiver dispatched it) for the organization. */
export async function threadDeliveryRecorded(provider: string, organizationId: string, deliveryId: string): Promise<boolean> {
  const row = await db()('code_hosting_deliveries').where({ provider: `thread:${provider}` }).andWhere('delivery_id', 'like', `${organizationId}.%${deliveryId}%`).first();
  return row !== undefined;
}
