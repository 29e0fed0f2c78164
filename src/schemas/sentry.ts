/** The Sentry receiver's answer. */
import { object } from './common';

export const sentryAnswer = object(
  {
    accepted: { type: 'boolean', const: true },
    matched: { type: 'integer', description: 'Automations the event was recorded for' },
    duplicate: { type: 'boolean', description: 'The Request-ID was seen before; nothing was recorded again' },
    ignored: { type: 'string', description: 'Why the delivery triggers nothing' },
  },
  ['accepted', 'matched', 'duplicate'],
);
