/**
 * Answers checked against the original service's own response schemas (its OpenAPI 2.0.0,
 * the parts in test/fixtures/original-openapi/schemas.json), as an existing client of the
 * original would read them: required fields present, types and enums as documented.
 */
import { expect } from 'chai';
import { harness } from '../../support/harness';
import { as, newOrg, request } from '../../support/http';
import { expectShape, originalSchemas } from '../../support/originalShapes';
import { sseData } from '../../support/sse';
import { until } from '../../support/wait';
import { CUSTOM } from '../automations/support';
import { slackOrg } from '../slack/support';

const V = { 'X-Api-Version': '2026-05-17' };

/** The event types of the original's `EngineEvent`; `replica.status.changed` is Hangar's own. */
const ORIGINAL_EVENTS = new Set(
  ((originalSchemas.EngineEvent as { oneOf: Array<{ title: string }> }).oneOf ?? []).map((e) => e.title),
);

describe('answers in the original service’s documented shapes', function () {
  this.timeout(120_000);

  it('environment skills, the start-hook save, and the Error body', async () => {
    const { org_api_key: key } = await newOrg('shapes-env');
    const api = as(key);
    const env = (await api.post('/v1/environments', { name: 'shapes' })).body.environment;
    const skill = await api.post(`/v1/environments/${env.id}/skills`, { name: 'Code Review', slug: 'code-review', source: 'github:devflow/skills/code-review' });
    expectShape('EnvironmentSkillResponse', skill.body);
    expectShape('ListEnvironmentSkillsResponse', (await api.get(`/v1/environments/${env.id}/skills`)).body);

    const saved = await api.post(`/v1/environments/${env.id}/start-hooks/save`, { content: 'echo ready' });
    expect(saved.status).to.equal(201);
    expectShape('SaveStartHookResponse', saved.body);
    const cleared = await api.post(`/v1/environments/${env.id}/start-hooks/save`, { content: '' });
    expect(cleared.status).to.equal(201);
    expectShape('SaveStartHookResponse', cleared.body);

    const missing = await api.get('/v1/environments/00000000-0000-4000-8000-000000000000/skills');
    expect(missing.status).to.equal(404);
    expectShape('Error', missing.body);
  });

  it('a replica with its environment block, hook logs, chats and events stream', async () => {
    const { org_api_key: key } = await newOrg('shapes-replica');
    const api = as(key);
    const env = (await api.post('/v1/environments', { name: 'shapes-hooked' })).body.environment;
    await api.post(`/v1/environments/${env.id}/start-hooks/save`, { content: 'echo prepared' });
    const created = await request('POST', '/v1/replica', { key, headers: V, body: { name: 'shapes', message: 'hello', environment_id: env.id } });
    expect(created.status).to.equal(201);
    const id = created.body.replica.id as string;
    await until('the replica to be active', async () => (await harness().database.db('replicas').where({ id }).first('status')).status === 'active', 90_000);

    expectShape('GetReplicaResponse', (await api.get(`/v1/replica/${id}?include=environment`)).body);
    const hooks = (await api.get(`/v1/replica/${id}/hooks`)).body;
    expect(hooks.start_hooks.logs).to.have.length(1);
    expectShape('HooksResponse', hooks);

    // The stream's events of the kinds the original documents, in its EngineEvent shapes.
    const stream = await fetch(`${harness().baseUrl}/v1/replica/${id}/events?after=0`, { headers: { authorization: `Bearer ${key}` } });
    const seen: string[] = [];
    for await (const event of sseData<{ type: string }>(stream)) {
      seen.push(event.type);
      if (ORIGINAL_EVENTS.has(event.type)) expectShape('EngineEvent', event);
      if (event.type === 'chat.turn.completed') break;
    }
    for (const type of ['chat.created', 'hooks.started', 'hooks.completed', 'chat.turn.started', 'chat.turn.delta', 'chat.updated']) expect(seen).to.include(type);

    const chat = await api.post(`/v1/replica/${id}/chats`, { provider: 'agent_1', title: 'second' });
    expect(chat.status).to.equal(201);
    expectShape('ReplicaChat', chat.body);

    const workspaceChat = await api.post(`/v1/workspaces/${id}/chats`, { provider: 'agent_2', title: 'third' });
    expectShape('CreateWorkspaceChatResponse', workspaceChat.body);
    expectShape('SlashCommandsResponse', (await api.get(`/v1/replica/${id}/chats/${chat.body.id}/slash-commands`)).body);
    expectShape('SendWorkspaceChatMessageResponse', (await api.post(`/v1/workspaces/${id}/chats/${chat.body.id}/messages`, { message: 'more' })).body);
    expectShape('SendDeferredWorkspaceMessageResponse', (await api.post(`/v1/workspaces/${id}/messages/deferred`, { message: 'later', provider: 'agent_1' })).body);
    expect((await api.delete(`/v1/replica/${id}/chats/${workspaceChat.body.chat.id}`)).status).to.equal(200);
    const listed = (await api.get(`/v1/workspaces/${id}/chats`)).body;
    expectShape('WorkspaceChatListResponse', listed);
    expect(listed.deletedChats.map((c: { id: string }) => c.id)).to.include(workspaceChat.body.chat.id);
  });

  it("an automation's executions and a Slack thread attached to its workspace", async () => {
    const { org, api } = await slackOrg('shapes-slack');
    const env = (await harness().database.db('environments').where({ organization_id: org.organization_id, is_global: true }).first('id')).id as string;
    const automation = (await api.post('/v1/automations', { name: 'shapes', prompt: 'hello', environment_id: env, triggers: [CUSTOM] })).body.automation;
    const fired = await api.post(`/v1/automations/${automation.id}/trigger`, { payload: { ticket: 'ENG-1' } });
    expect(fired.status, JSON.stringify(fired.body)).to.equal(200);
    const workspaceId = await until('the execution to have its workspace', async () => (await harness().database.db('automation_executions').where({ id: fired.body.execution_id }).first('workspace_id'))?.workspace_id as string | undefined, 60_000);
    try {
      expectShape('ListAutomationExecutionsResponse', (await api.get(`/v1/automations/${automation.id}/executions`)).body);

      const attached = await api.post('/v1/slack/threads/attach', { channel_id: 'C0SHAPES1', thread_ts: '1700000000.000100', workspace_id: workspaceId });
      expect(attached.status, JSON.stringify(attached.body)).to.equal(200);
      expectShape('SlackThreadAttachResponse', attached.body);
    } finally {
      await api.delete(`/v1/replica/${workspaceId}`);
    }
  });
});
