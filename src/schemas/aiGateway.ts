/** The AI gateway's front: its path names the agent and the provider's own path. */
import { object } from './common';

export const gatewayParams = object(
  {
    agent: { type: 'string', description: '`agent_1` … `agent_5`' },
    path: { type: 'string', description: "The provider's path, e.g. `v1/messages` (any number of segments); the query string passes too" },
  },
  ['agent', 'path'],
);
