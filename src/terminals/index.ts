/** Terminal sessions: worker-held TTYs reached by the API over the event bus. */
export { createTerminalManager, type TerminalManager, type TerminalManagerOptions } from './manager';
export { createTerminalClient, type TerminalClient, type TerminalClientOptions } from './client';
export { TERMINAL_LIMITS, type OpenTty, type Tty, type TtyOptions } from './types';
