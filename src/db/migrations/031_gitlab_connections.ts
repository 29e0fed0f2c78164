import type { Knex } from 'knex';

/**
 * GitLab becomes an organization connection, and code-hosting identities are keyed by the
 * provider's user id (issue 23).
 *
 * - `connections.provider` admits `gitlab`. A GitLab connection's webhook token is found by
 *   `webhook_token_hash`, a keyed hash (HMAC under a key derived from the encryption key named
 *   by `webhook_token_key_id`), so a delivery's `X-Gitlab-Token` selects its connection with
 *   one indexed lookup, before the body is read and without opening anyone's secrets. Not
 *   unique: two organizations that chose the same token would learn nothing from a refusal.
 * - `user_connections` rows of GitHub and GitLab were keyed by login. A login can be renamed and
 *   then registered by someone else, and nothing in a stored login says which account it was,
 *   so such a row cannot be turned into the account's immutable id: they are deleted. Members
 *   are linked again by id (an admin, `POST /v1/user/connections` with the numeric user id).
 *   Threads keep the member they were started for (`integration_threads.user_id`).
 */
export async function up(knex: Knex): Promise<void> {
  await replaceProviderCheck(knex, ['slack', 'linear', 'sentry', 'gitlab']);
  await knex.schema.alterTable('connections', (t) => {
    t.text('webhook_token_hash');
    t.text('webhook_token_key_id');
    t.index(['webhook_token_hash'], 'connections_webhook_token_hash');
  });
  await knex('user_connections').whereIn('provider', ['github', 'gitlab']).delete();
}

export async function down(knex: Knex): Promise<void> {
  await knex('connections').where({ provider: 'gitlab' }).delete();
  await knex.schema.alterTable('connections', (t) => {
    t.dropIndex(['webhook_token_hash'], 'connections_webhook_token_hash');
    t.dropColumn('webhook_token_hash');
    t.dropColumn('webhook_token_key_id');
  });
  await replaceProviderCheck(knex, ['slack', 'linear', 'sentry']);
}

/** 017 named no constraint: the one on `provider` is found by its definition. */
async function replaceProviderCheck(knex: Knex, providers: string[]): Promise<void> {
  const { rows } = await knex.raw(
    `SELECT conname FROM pg_constraint WHERE conrelid = 'connections'::regclass AND contype = 'c' AND pg_get_constraintdef(oid) LIKE '%provider%'`,
  );
  for (const { conname } of rows as Array<{ conname: string }>) await knex.raw('ALTER TABLE connections DROP CONSTRAINT ??', [conname]);
  // DDL takes no bind parameters; the names are this file's constants.
  await knex.raw(`ALTER TABLE connections ADD CONSTRAINT connections_provider_check CHECK (provider IN (${providers.map((p) => `'${p}'`).join(', ')}))`);
}
