#!/bin/sh
# The Temporal server in Hangar's temporal image: the services SERVICES names (colon- or
# comma-separated: frontend, history, matching, worker; all four when unset), bound to this
# container's address unless BIND_ON_IP says otherwise, as Temporal's own image starts them.
# Any other command runs as given (temporal-sql-tool and temporal for the setup steps).
set -eu
if [ $# -gt 0 ]; then exec "$@"; fi

if [ -z "${BIND_ON_IP:-}" ]; then
  BIND_ON_IP="$(hostname -i 2>/dev/null | awk '{ print $1 }')"
fi
export BIND_ON_IP
# Other services reach this one at the address it binds, or at its own when it binds every one.
if [ -z "${TEMPORAL_BROADCAST_ADDRESS:-}" ]; then
  case "$BIND_ON_IP" in
    0.0.0.0|::) TEMPORAL_BROADCAST_ADDRESS="$(hostname -i | awk '{ print $1 }')" ;;
    *) TEMPORAL_BROADCAST_ADDRESS="$BIND_ON_IP" ;;
  esac
fi
export TEMPORAL_BROADCAST_ADDRESS

flags=""
for service in $(printf '%s' "${SERVICES:-frontend:history:matching:worker}" | tr ':,' '  '); do
  flags="$flags --service=$service"
done
# shellcheck disable=SC2086  # one flag per service
# Authorization is the network's job here: the frontend is reachable only on the deployment's own network.
exec temporal-server --root /etc/temporal --config config --env config --allow-no-auth start $flags
