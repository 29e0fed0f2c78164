import { AGENT_IDS, type AgentId } from '../agents/catalog';
import { agentId } from './credentials';
import { type BodyOf, dateTime, nullableUuid, object } from './common';

const modelId = { type: ['string', 'null'], minLength: 1, maxLength: 200, pattern: '^\\S+$' } as const;

export const settingsSchema = object(
  {
    default_coding_agent: agentId,
    default_models: object(
      Object.fromEntries(AGENT_IDS.map((a) => [a, { type: ['string', 'null'] }])),
      [...AGENT_IDS],
    ),
    default_environment_id: nullableUuid,
    auto_responder_allowlist: object({ logins: { type: 'array', items: { type: 'string' } }, repository_ids: { type: 'array', items: { type: 'string', format: 'uuid' } } }, ['logins', 'repository_ids']),
    ci_failure_response: { type: 'boolean' },
    updated_at: { anyOf: [dateTime, { type: 'null' }], description: 'null until the settings are first changed' },
  },
  ['default_coding_agent', 'default_models', 'default_environment_id', 'auto_responder_allowlist', 'ci_failure_response', 'updated_at'],
);

export const settingsEnvelope = object({ settings: settingsSchema }, ['settings']);

export const updateSettingsBody = {
  ...object({
    default_coding_agent: { ...agentId, description: 'agent_1 unless set' },
    default_models: {
      ...object(Object.fromEntries(AGENT_IDS.map((a) => [a, modelId])) as Record<AgentId, typeof modelId>),
      description: 'Merged: agents left out keep their default; null clears one. The agent must accept the model.',
    },
    default_environment_id: { ...nullableUuid, description: 'A team environment of the organization, or null' },
    auto_responder_allowlist: {
      ...object({
        logins: { type: 'array', maxItems: 500, items: { type: 'string', pattern: '^@?[A-Za-z0-9][A-Za-z0-9_.\\[\\]-]{0,99}$' }, description: 'GitHub/GitLab logins, compared without case' },
        repository_ids: { type: 'array', maxItems: 500, items: { type: 'string', format: 'uuid' }, description: "The organization's connected repositories" },
      }),
      minProperties: 1,
      description: 'Issues opened by these logins, or in these repositories, start a workspace without mentioning the bot. A list given replaces the stored one.',
    },
    ci_failure_response: { type: 'boolean', description: "Send a failed check run or pipeline on a workspace's own pull/merge request to its agent (default true)" },
  }),
  minProperties: 1,
} as const;

export type UpdateSettingsInput = BodyOf<typeof updateSettingsBody>;
