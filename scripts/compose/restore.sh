#!/usr/bin/env bash
# Restores a backup that scripts/compose/backup.sh took into a deployment with empty volumes (a
# new machine, or after `docker compose down -v`), then starts it (docs/operations.md, "Backup
# and restore"). Set the same HANGAR_ENCRYPTION_KEYS as the backup's deployment first: without
# them no stored secret opens. POSTGRES_PASSWORD may be new.
#
# Usage: scripts/compose/restore.sh DIR       (run where you run compose, with its variables set)
# Env:   COMPOSE   the compose command and its flags (default: docker compose -p hangar)
set -euo pipefail
dir="${1:?usage: restore.sh DIR}"
read -r -a compose <<<"${COMPOSE:-docker compose -p hangar}"
for f in hangar.dump temporal.dump temporal_visibility.dump hangar-data.tar; do
  [ -s "$dir/$f" ] || { echo "restore: $dir/$f is missing" >&2; exit 1; }
done

"${compose[@]}" up -d --no-deps postgres
until "${compose[@]}" exec -T postgres pg_isready -q -U hangar; do sleep 1; done
for db in hangar temporal temporal_visibility; do
  if [ -n "$("${compose[@]}" exec -T postgres psql -U hangar -d postgres -tAc "select 1 from pg_database where datname = '$db'")" ]; then
    tables="$("${compose[@]}" exec -T postgres psql -U hangar -d "$db" -tAc "select count(*) from pg_tables where schemaname = 'public'")"
    [ "$tables" = 0 ] || { echo "restore: database $db is not empty; restore into empty volumes (docker compose down -v)" >&2; exit 1; }
  else
    "${compose[@]}" exec -T postgres createdb -U hangar "$db"
  fi
  "${compose[@]}" exec -T postgres pg_restore -U hangar --no-owner --exit-on-error -d "$db" <"$dir/$db.dump"
done
"${compose[@]}" run --rm --no-deps -T -u 0 --entrypoint tar api -C /var/lib/hangar -xpf - <"$dir/hangar-data.tar"
"${compose[@]}" up -d
echo "restore: $dir restored; the services are starting"
