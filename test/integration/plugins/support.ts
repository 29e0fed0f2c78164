/** Helpers of the plugin tests: a workspace that stays active, its agent's MCP config, and an MCP client through Hangar. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'chai';
import { AGENT_1_MCP_CONFIG } from '../../../src/agents/adapters';
import { execInContainer } from '../../support/containerExec';
import { harness } from '../../support/harness';
import { request } from '../../support/http';
import { until } from '../../support/wait';

export interface McpEntry {
  type: string;
  url: string;
  headers: Record<string, string>;
}

export const containerOf = (workspaceId: string) => `hangar-ws-${workspaceId}`;

/** A workspace whose first turn waits long (the suite's idle timeout is short), once its agent's files are written. */
export async function activeWorkspace(key: string, name: string): Promise<{ id: string; mcp: Record<string, McpEntry> }> {
  const created = await request('POST', '/v1/replica', { key, headers: { 'X-Api-Version': '2026-05-17' }, body: { name, coding_agent: 'agent_1', message: '!sleep 600000' } });
  expect(created.status, JSON.stringify(created.body)).to.equal(201);
  const id = created.body.replica.id as string;
  const text = await until(`the agent's MCP config in ${name}`, async () => {
    const row = await harness().database.db('replicas').where({ id }).first('status');
    if (row?.status !== 'active') return false;
    const out = await execInContainer(containerOf(id), `cat ${AGENT_1_MCP_CONFIG} 2>/dev/null`);
    return out.trim() ? out : false;
  }, 180_000, 250);
  return { id, mcp: (JSON.parse(text) as { mcpServers: Record<string, McpEntry> }).mcpServers };
}

/** The endpoint the container reaches at the Docker host's name, as the test process reaches it. */
export const fromHere = (url: string) => {
  const parsed = new URL(url);
  return new URL(parsed.pathname, harness().baseUrl);
};

/** An MCP SDK client connected through Hangar's plugin endpoint with the agent's own headers. */
export async function mcpClient(entry: McpEntry): Promise<Client> {
  const client = new Client({ name: 'plugin-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(fromHere(entry.url), { requestInit: { headers: entry.headers } }));
  return client;
}

export const textOf = (result: unknown) => ((result as { content: Array<{ type: string; text: string }> }).content[0]?.text ?? '');
