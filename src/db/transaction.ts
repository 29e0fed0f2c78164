/**
 * The transaction handle code above `src/db` passes between repository methods (every method
 * takes an optional one); `Repositories.transact` opens it. Only `src/db` sees knex itself.
 */
import type { Knex } from 'knex';

export type Transaction = Knex.Transaction;

/** Runs `fn` once the transaction has committed (never when it rolls back). */
export function afterCommit(trx: Transaction, fn: () => unknown): void {
  trx.executionPromise.then(fn, () => undefined);
}
