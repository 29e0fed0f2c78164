/** Inbound automation webhooks: the custom trigger (path token) and the code-hosting receivers' answers. */
import { object } from './common';

export const customWebhookParams = object({ token: { type: 'string', minLength: 1, maxLength: 200 } }, ['token']);

export const acceptedSchema = object({ accepted: { type: 'boolean', const: true } }, ['accepted']);

export const codeHostingAnswer = object(
  {
    accepted: { type: 'boolean', const: true },
    matched: { type: 'integer', description: 'Automations the event was recorded for' },
    duplicate: { type: 'boolean', description: 'The delivery id (or, for GitHub, the same signed body under another id) was seen before; nothing was recorded again' },
    ignored: { type: 'string', description: 'Why the delivery triggers nothing' },
  },
  ['accepted', 'matched', 'duplicate'],
);
