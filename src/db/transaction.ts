/**
 * Transactions for code above `src/db`: a use case that writes through several repositories
 * runs them in one `transact` call and passes the handle to each method (every repository
 * method takes an optional transaction). Only this file and the repositories see knex.
 */
import type { Knex } from 'knex';

export type Transaction = Knex.Transaction;

export function createTransactor(knex: Knex) {
  return {
    transact<T>(fn: (trx: Transaction) => Promise<T>): Promise<T> {
      return knex.transaction(fn);
    },
  };
}

export type Transactor = ReturnType<typeof createTransactor>;
