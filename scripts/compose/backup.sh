#!/usr/bin/env bash
# Backs up a docker-compose.yml deployment into DIR (docs/operations.md, "Backup and restore"):
# Hangar's database, Temporal's two, and the blobs volume (media and canvas copies), taken while
# nothing writes to them: every service but PostgreSQL is stopped meanwhile and started again
# after. The encryption keys are not in DIR: keep HANGAR_ENCRYPTION_KEYS (and POSTGRES_PASSWORD,
# and the settings file) in your secret store, apart from the backup.
#
# Usage: scripts/compose/backup.sh DIR        (run where you run compose, with its variables set)
# Env:   COMPOSE   the compose command and its flags (default: docker compose -p hangar)
set -euo pipefail
dir="${1:?usage: backup.sh DIR}"
read -r -a compose <<<"${COMPOSE:-docker compose -p hangar}"
mkdir -p "$dir"

"${compose[@]}" stop
"${compose[@]}" up -d --no-deps postgres
until "${compose[@]}" exec -T postgres pg_isready -q -U hangar; do sleep 1; done
for db in hangar temporal temporal_visibility; do
  "${compose[@]}" exec -T postgres pg_dump -U hangar --format=custom "$db" >"$dir/$db.dump"
done
"${compose[@]}" run --rm --no-deps -T -u 0 --entrypoint tar api -C /var/lib/hangar -cf - . >"$dir/hangar-data.tar"
"${compose[@]}" up -d
echo "backup: $(cd "$dir" && ls | tr '\n' ' ')in $dir"
