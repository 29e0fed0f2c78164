/** Warm and start hooks of an environment, its warm pool and the pool's workspaces. */
import { type JsonSchema, object } from './common';
import { environmentIdParam } from './environments';

/** The longest hook script a save or test takes. */
export const HOOK_MAX_CHARS = 65_536;

export const hookParams = object({ environmentId: environmentIdParam }, ['environmentId']);
export const hookContentBody = object({ content: { type: 'string', maxLength: HOOK_MAX_CHARS } }, ['content']);

const hookRecord = {
  type: ['object', 'null'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    organization_id: { type: 'string', format: 'uuid' },
    environment_id: { type: 'string', format: 'uuid' },
    version: { type: 'integer' },
    content: { type: 'string' },
    is_active: { type: 'boolean' },
    created_at: { type: 'string', format: 'date-time' },
  },
};
const testResult = object(
  { exit_code: { type: 'integer' }, output: { type: 'string' }, timed_out: { type: 'boolean' } },
  ['exit_code', 'output', 'timed_out'],
);
const warmPool = { type: ['object', 'null'], description: 'WarmPoolConfigWithStats' };

/** Each kind's answers: the active hook (and the warm-pool settings), a saved one, a saved and tested one. */
export const hookAnswers: Record<'warm' | 'start', { get: JsonSchema; saved: JsonSchema; savedAndTested: JsonSchema }> = {
  warm: {
    get: object({ warm_hook: hookRecord, warm_pool: warmPool }),
    saved: object({ warm_hook: hookRecord }),
    savedAndTested: object({ warm_hook: hookRecord, test: testResult }),
  },
  start: {
    get: object({ start_hook: hookRecord }),
    saved: object({ start_hook: hookRecord }),
    savedAndTested: object({ start_hook: hookRecord, test: testResult }),
  },
};
export const hookTestAnswer = object({ test: testResult }, ['test']);

export const warmPoolBody = object({ enabled: { type: 'boolean' } }, ['enabled']);
export const warmPoolAnswer = object({ warm_pool: warmPool }, ['warm_pool']);

export const warmPoolWorkspacesParams = object({ configId: { type: 'string', format: 'uuid' } }, ['configId']);
export const warmPoolWorkspacesAnswer = object({ workspaces: { type: 'array', items: { type: 'object' } } }, ['workspaces']);
