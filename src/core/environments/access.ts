/**
 * Which environment an actor may start a workspace in or read: the `global` alias is the
 * organization's Global environment (made on first use); another organization's or another
 * member's environment is 404, and an organization key reaching for a personal one 403.
 */
import type { Repositories, Transaction } from '../../db';
import type { EnvironmentRow } from '../../db/environmentsRepository';
import type { Actor } from '../../domain/actor';
import { checkEnvironmentAccess } from '../../domain/environments';

export const GLOBAL_ALIAS = 'global';

export async function accessEnvironment(
  environments: Repositories['environments'],
  actor: Actor,
  id: string,
  trx?: Transaction,
): Promise<EnvironmentRow> {
  if (id === GLOBAL_ALIAS) return environments.ensureGlobal(actor.organizationId, trx);
  return checkEnvironmentAccess(actor, await environments.find(actor.organizationId, id, trx));
}
