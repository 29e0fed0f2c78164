import { describeAgent } from './scenario';

describeAgent({
  agent: 'agent_1',
  cli: 'Claude Code',
  model: 'agent_1-large',
  eventTypes: ['agent_1-assistant', 'agent_1-system', 'agent_1-user', 'agent_1-result'],
  configFile: '/home/hangar/.hangar/agent_1/mcp.json',
  mcp: true,
  slashCommand: '/compact',
});
