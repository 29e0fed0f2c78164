import { describeAgent } from './scenario';

describeAgent({
  agent: 'agent_2',
  cli: 'Codex',
  model: 'agent_2-large',
  eventTypes: ['response_item', 'event_msg'],
  configFile: '/home/hangar/.codex/config.toml',
  mcp: true,
});
