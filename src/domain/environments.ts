/** Who may use an environment. */
import type { Actor } from './actor';
import { forbidden, notFound } from './errors';

/**
 * An environment of the actor's organization (the caller looked it up there): a personal one
 * is its owner's alone; an org key reaching for one is 403, another member's is 404.
 */
export function checkEnvironmentAccess<E extends { user_id: string | null }>(actor: Actor, row: E | null): E {
  if (!row) throw notFound('Environment');
  if (row.user_id !== null) {
    if (actor.keyKind === 'org') throw forbidden('Organization API keys cannot access personal environments');
    if (row.user_id !== actor.userId) throw notFound('Environment');
  }
  return row;
}
