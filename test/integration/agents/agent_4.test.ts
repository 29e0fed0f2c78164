import { describeAgent } from './scenario';

describeAgent({
  agent: 'agent_4',
  cli: 'opencode',
  model: 'qwen/qwen3-coder',
  eventTypes: ['agent_4-tool_use', 'agent_4-step_start', 'agent_4-text', 'agent_4-step_finish'],
  configFile: '/home/hangar/.hangar/agent_4/instructions.md',
  mcp: true,
});
