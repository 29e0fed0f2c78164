#!/bin/sh
# PostgreSQL's start in Hangar's postgres image, as the official image does it: on an empty data
# directory, initdb with POSTGRES_USER as the superuser (password POSTGRES_PASSWORD, scram
# everywhere but the local socket) and POSTGRES_DB created; then the server, as postgres,
# listening on every address.
set -eu

if [ "${1:-postgres}" != postgres ]; then exec "$@"; fi
: "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is required}"
user="${POSTGRES_USER:-postgres}"
db="${POSTGRES_DB:-$user}"
data="${PGDATA:-/var/lib/postgresql/data}"
as_postgres() { setpriv --reuid=postgres --regid=postgres --init-groups "$@"; }

mkdir -p "$data" /var/run/postgresql
chown postgres:postgres "$data" /var/run/postgresql
chmod 700 "$data"

if [ ! -s "$data/PG_VERSION" ]; then
  pwfile="$(mktemp)"
  printf '%s\n' "$POSTGRES_PASSWORD" >"$pwfile"
  chown postgres "$pwfile"
  as_postgres initdb -D "$data" --username="$user" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 --encoding=UTF8 >/dev/null
  rm -f "$pwfile"
  printf "\nlisten_addresses = '*'\n" >>"$data/postgresql.conf"
  printf 'host all all all scram-sha-256\n' >>"$data/pg_hba.conf"
  if [ "$db" != postgres ]; then
    # A server on the local socket only, while the first database is made.
    as_postgres pg_ctl -D "$data" -o "-c listen_addresses=''" -w start >/dev/null
    as_postgres psql -v ON_ERROR_STOP=1 -q -U "$user" -d postgres -c "CREATE DATABASE \"$(printf '%s' "$db" | sed 's/"/""/g')\""
    as_postgres pg_ctl -D "$data" -m fast -w stop >/dev/null
  fi
  echo "postgres-entrypoint: initialised $data (superuser $user, database $db)"
fi
shift || true
exec setpriv --reuid=postgres --regid=postgres --init-groups postgres -D "$data" "$@"
