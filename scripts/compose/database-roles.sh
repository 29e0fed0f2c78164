#!/bin/sh
# docker-compose.yml's `database-roles` step, on every `up` before Temporal's schema step: Temporal
# gets a role of its own (`temporal`, no superuser, CREATEDB for its two databases) with
# TEMPORAL_DB_PASSWORD, owns its databases and everything in them (a deployment from before
# this step, or a restore made with --no-owner, had them owned by `hangar`), and is the only
# role besides the superuser that may connect to them; Hangar's database refuses it. Harmless to
# repeat. Runs with PGHOST, PGUSER (the superuser, `hangar`) and PGPASSWORD set.
set -eu
: "${TEMPORAL_DB_PASSWORD:?TEMPORAL_DB_PASSWORD is required}"
until pg_isready -q; do sleep 1; done

psql -v ON_ERROR_STOP=1 -q -d postgres -v pw="$TEMPORAL_DB_PASSWORD" <<'SQL'
SELECT 'CREATE ROLE temporal LOGIN CREATEDB' WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'temporal') \gexec
ALTER ROLE temporal WITH LOGIN CREATEDB NOSUPERUSER NOCREATEROLE PASSWORD :'pw';
REVOKE CONNECT ON DATABASE hangar FROM PUBLIC;
SQL

for db in temporal temporal_visibility; do
  exists="$(psql -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$db'")"
  [ -n "$exists" ] || continue
  psql -v ON_ERROR_STOP=1 -q -d postgres -c "ALTER DATABASE $db OWNER TO temporal" -c "REVOKE CONNECT ON DATABASE $db FROM PUBLIC" -c "GRANT CONNECT ON DATABASE $db TO temporal"
  # What another role made in it (ALTER TABLE takes a table's own sequences along).
  psql -v ON_ERROR_STOP=1 -q -d "$db" <<'SQL'
SELECT format('ALTER TABLE %I.%I OWNER TO temporal', schemaname, tablename) FROM pg_tables WHERE schemaname = 'public' AND tableowner <> 'temporal' \gexec
SELECT format('ALTER SEQUENCE %I.%I OWNER TO temporal', schemaname, sequencename) FROM pg_sequences WHERE schemaname = 'public' AND sequenceowner <> 'temporal' \gexec
SELECT format('ALTER VIEW %I.%I OWNER TO temporal', schemaname, viewname) FROM pg_views WHERE schemaname = 'public' AND viewowner <> 'temporal' \gexec
SQL
done
echo "database-roles: Temporal's role and databases are in place"
