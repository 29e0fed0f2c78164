/**
 * The coding-agent adapters: for each agent, its command line for one turn and the reading of
 * its JSON-lines stdout into history events. `adapterFor` makes a fresh adapter per turn.
 */
import { isAgentId, type AgentId } from '../catalog';
import { createAgent1Adapter } from './agent_1';
import { createAgent2Adapter } from './agent_2';
import { createAgent3Adapter } from './agent_3';
import { createAgent4Adapter } from './agent_4';
import { createAgent5Adapter } from './agent_5';
import type { AdapterOptions, AgentAdapter } from './types';

export type { AdapterOptions, AgentAdapter, AgentCommand, AgentEvent, AgentFile, AgentSettings, GatewayAccess, McpServer, ParsedLine, TurnRequest, TurnResult } from './types';
export { AGENT_1_MCP_CONFIG } from './agent_1';
export { AGENT_2_KEY_ENV } from './agent_2';
export { AGENT_4_KEY_ENV } from './agent_4';
export { AGENT_5_KEY_ENV, AGENT_5_MODELS_FILE } from './agent_5';
export { MAX_ARGUMENT_PROMPT_BYTES } from './shared';

const FACTORIES: Record<AgentId, (opts: AdapterOptions) => AgentAdapter> = {
  agent_1: createAgent1Adapter,
  agent_2: createAgent2Adapter,
  agent_3: createAgent3Adapter,
  agent_4: createAgent4Adapter,
  agent_5: createAgent5Adapter,
};

export function adapterFor(agent: AgentId, opts: AdapterOptions = {}): AgentAdapter {
  if (!isAgentId(agent)) throw new Error(`Unknown coding agent ${JSON.stringify(agent)}`);
  return FACTORIES[agent](opts);
}
