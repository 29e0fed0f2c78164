import { AGENT_IDS } from '../agents/catalog';
import type { JsonSchema } from '../http/route';
import { agentId } from './credentials';
import { dateTime, nullableUuid, object } from './common';

const modelId: JsonSchema = { type: ['string', 'null'], minLength: 1, maxLength: 200, pattern: '^\\S+$' };

export const settingsSchema = object(
  {
    default_coding_agent: agentId,
    default_models: object(
      Object.fromEntries(AGENT_IDS.map((a) => [a, { type: ['string', 'null'] }])),
      [...AGENT_IDS],
    ),
    default_environment_id: nullableUuid,
    updated_at: { anyOf: [dateTime, { type: 'null' }], description: 'null until the settings are first changed' },
  },
  ['default_coding_agent', 'default_models', 'default_environment_id', 'updated_at'],
);

export const settingsEnvelope = object({ settings: settingsSchema }, ['settings']);

export const updateSettingsBody: JsonSchema = {
  ...object({
    default_coding_agent: { ...agentId, description: 'agent_1 unless set' },
    default_models: {
      ...object(Object.fromEntries(AGENT_IDS.map((a) => [a, modelId]))),
      description: 'Merged: agents left out keep their default; null clears one. The agent must accept the model.',
    },
    default_environment_id: { ...nullableUuid, description: 'A team environment of the organization, or null' },
  }),
  minProperties: 1,
};
