/** The Linear receiver's answer. */
import { object } from './common';

export const linearAnswer = object(
  {
    accepted: { type: 'boolean', const: true },
    routed: { enum: ['message', 'close', null], description: "What the delivery became for the issue's workspace" },
    duplicate: { type: 'boolean', description: 'The Linear-Delivery id was seen before; nothing was done again' },
    ignored: { type: 'string', description: 'Why the delivery does nothing' },
  },
  ['accepted', 'routed', 'duplicate'],
);
