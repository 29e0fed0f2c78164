/** Following one warm-pool workspace. */
import { object } from './common';

export const warmPoolWorkspaceParams = object({ workspaceId: { type: 'string', format: 'uuid' } }, ['workspaceId']);
