import { describeAgent } from './scenario';

// pi has no MCP support of its own: the environment's MCP servers do not reach it (docs/decisions/workspaces.md, "Coding-agent CLIs in workspaces").
describeAgent({
  agent: 'agent_5',
  cli: 'pi',
  model: 'qwen/qwen3-coder',
  eventTypes: ['agent_5-message_end', 'agent_5-session', 'agent_5-tool_execution_start', 'agent_5-agent_end'],
  configFile: '/home/hangar/.pi/agent/models.json',
  mcp: false,
});
