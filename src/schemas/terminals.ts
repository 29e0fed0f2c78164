/** Terminal sessions (interop §5): camelCase bodies, bounds from ARCHITECTURE.md "Terminal input". */
import { TERMINAL_LIMITS } from '../terminals/types';
import { type BodyOf, dateTime, type JsonSchema, object, uuid } from './common';

const cols = { type: 'integer', minimum: TERMINAL_LIMITS.minCols, maximum: TERMINAL_LIMITS.maxCols } as const;
const rows = { type: 'integer', minimum: TERMINAL_LIMITS.minRows, maximum: TERMINAL_LIMITS.maxRows } as const;
const counter = { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER } as const;

export const workspaceParams = object({ workspaceId: uuid }, ['workspaceId']);
export const sessionParams = object({ workspaceId: uuid, sessionId: uuid }, ['workspaceId', 'sessionId']);

export const terminalSizeBody = object({ cols, rows }, ['cols', 'rows']);

export const terminalInputBody = object(
  {
    data: { type: 'string', maxLength: TERMINAL_LIMITS.maxInputChars },
    generation: { ...counter, description: "The client's counter; a higher one resets input ordering, an older one is 409" },
    sequence: { ...counter, description: 'Zero-based batch number within the generation; batches apply in this order' },
  },
  ['data', 'generation', 'sequence'],
);

export const terminalSessionSchema: JsonSchema = {
  type: 'object',
  required: ['id', 'title', 'createdAt', 'exited'],
  properties: {
    id: uuid,
    title: { type: 'string' },
    createdAt: dateTime,
    exited: { type: 'boolean' },
    exitCode: { type: 'integer', description: 'Present once the shell has exited with a known status' },
  },
};

export const terminalSessionList = object({ sessions: { type: 'array', items: terminalSessionSchema } }, ['sessions']);
export const terminalSessionEnvelope = object({ session: terminalSessionSchema }, ['session']);

export type TerminalSize = BodyOf<typeof terminalSizeBody>;
export type TerminalInput = BodyOf<typeof terminalInputBody>;
