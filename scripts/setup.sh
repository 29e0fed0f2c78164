#!/usr/bin/env bash
# Finds or installs what Hangar needs on this machine, and records it in .hangar/toolchain.json:
#   temporal  the Temporal CLI (dev server for tests and `npm start`)
#   docker    a Docker engine that answers `docker info`
#   firewall  iptables on the engine's host, for the workspace egress rules the worker installs
#   image     the sandbox image, rebuilt only when its inputs changed (its test coding agent
#             is compiled with Go, installed with apt-get on Debian when missing)
#   postgres  PostgreSQL for the tests (--for test); `npm start` can use an embedded database
#   s3        versitygw, an S3-compatible server for the storage tests (--for test)
#   redis     Redis at 127.0.0.1:6379 for the presence tests (--for test); started, or
#             installed with apt-get on Debian, when it does not answer
#   engines   ip and nsenter for the tests' second engine host (--for test)
#   compose   docker compose or docker-compose for the deployment test (--for test); Debian's
#             docker-compose installed with apt-get when neither is there
#   chromium  headless Chromium for the web console's browser tests (--for test); installed
#             with apt-get on Debian when missing
# Idempotent; takes a couple of seconds when everything is there.
#
# Usage: setup.sh [--for test|dev]   (default: test when run as `npm test`, else dev)
# Env:   HANGAR_CACHE_DIR, TEMPORAL_CLI_PATH, HANGAR_SANDBOX_IMAGE, DOCKER_HOST,
#        HANGAR_DOCKERD_ARGS, HANGAR_DEBIAN_MIRROR, HANGAR_GO, HANGAR_CHROMIUM, DATABASE_URL, HANGAR_SETUP_SKIP_POSTGRES=1, HANGAR_S3_SERVER_PATH,
#        HANGAR_SETUP_NO_DOWNLOAD=1
#        (see docs/operations.md)
set -euo pipefail

repo="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
cache_dir="${HANGAR_CACHE_DIR:-${HOME:-$(cd ~ && pwd)}/.cache/hangar}"

purpose=""
while [ $# -gt 0 ]; do
  case "$1" in
    --for) purpose="${2:?setup: --for needs test or dev}"; shift 2 ;;
    --for=*) purpose="${1#--for=}"; shift ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) echo "setup: unknown argument: $1 (usage: setup.sh [--for test|dev])" >&2; exit 2 ;;
  esac
done
if [ -z "$purpose" ]; then
  if [ "${npm_lifecycle_event:-}" = test ]; then purpose="test"; else purpose="dev"; fi
fi
case "$purpose" in test|dev) ;; *) echo "setup: --for must be test or dev, got '$purpose'" >&2; exit 2 ;; esac

say() { printf 'setup: %-9s %s\n' "$1" "$2"; }
fail() { printf 'setup: %-9s ERROR: %s\n' "$1" "$2" >&2; exit 1; }
is_root() { [ "$(id -u)" -eq 0 ]; }
is_debian() { [ -f /etc/debian_version ] && command -v apt-get >/dev/null 2>&1; }
apt_install() {
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq "$@" >/dev/null 2>&1 \
    || { apt-get update -qq >/dev/null && apt-get install -y -qq "$@" >/dev/null; }
}

mkdir -p "$cache_dir"
# Two setups at once (parallel test runs, a developer and CI) wait for each other here.
exec 9>"$cache_dir/setup.lock"
if command -v flock >/dev/null 2>&1; then flock 9; fi

{ read -r temporal_version || true; read -r package_image || true; } < <(cd "$repo" && node -p \
  "const h = require('./package.json').hangar; h.temporalCliVersion + '\\n' + h.sandboxImage")
sandbox_image="${HANGAR_SANDBOX_IMAGE:-$package_image}"
if [ -z "${temporal_version:-}" ] || [ -z "${package_image:-}" ]; then
  fail setup "cannot read the hangar block (temporalCliVersion, sandboxImage) of $repo/package.json"
fi

# Go builds (the Temporal CLI, versitygw) run in the background while the engine and the image
# are set up; `finish_go_builds` waits for them before the record is written.
go_tool() {
  local go_bin="${HANGAR_GO:-$(command -v go || true)}"
  [ -z "$go_bin" ] && [ -x /usr/local/go/bin/go ] && go_bin=/usr/local/go/bin/go
  printf '%s' "$go_bin"
}
background_pids=()
background_names=()
# go_install_background NAME PACKAGE@VERSION DEST: `go install` into a temp dir, then an atomic
# move to DEST; its output goes to $cache_dir/NAME-install.log.
go_install_background() {
  local name="$1" package="$2" dest="$3" go_bin="$4"
  (
    gobin_tmp="$(mktemp -d "$cache_dir/$name-install.XXXXXX")"
    log="$cache_dir/$name-install.log"
    start=$SECONDS
    if ! GOBIN="$gobin_tmp" "$go_bin" install "$package" >"$log" 2>&1; then
      rm -rf "$gobin_tmp"
      tail -n 20 "$log" >&2
      fail "$name" "go install $package failed (log: $log)"
    fi
    mkdir -p "$(dirname "$dest")"
    mv -f "$gobin_tmp/$(basename "$dest")" "$dest"   # same filesystem: atomic
    rm -rf "$gobin_tmp"
    say "$name" "installed $dest in $((SECONDS - start))s"
  ) 9>&- &
  background_pids+=("$!")
  background_names+=("$name")
}
finish_go_builds() {
  local i
  for i in "${!background_pids[@]}"; do
    wait "${background_pids[$i]}" || fail "${background_names[$i]}" "its build failed (see above)"
  done
}

# --- Temporal CLI --------------------------------------------------------------------------
# Found (TEMPORAL_CLI_PATH, PATH, the cache), else downloaded from the CLI's release (bounded,
# failing at once without internet), else built with Go in the background.
temporal_cli=""
temporal_cache="$cache_dir/temporal-$temporal_version/temporal"
temporal_release="https://github.com/temporalio/cli/releases/download/$temporal_version"
temporal_download() {
  local arch tarball tmp start=$SECONDS
  case "$(uname -m)" in x86_64|amd64) arch=amd64 ;; aarch64|arm64) arch=arm64 ;; *) return 1 ;; esac
  command -v curl >/dev/null 2>&1 || return 1
  tarball="temporal_cli_${temporal_version#v}_$(uname -s | tr '[:upper:]' '[:lower:]')_$arch.tar.gz"
  tmp="$(mktemp -d "$cache_dir/temporal-download.XXXXXX")"
  # 5 s to connect (a machine without internet fails at its DNS lookup), 3 minutes in all.
  if curl -fsSL --connect-timeout 5 --max-time 180 -o "$tmp/$tarball" "$temporal_release/$tarball" 2>"$tmp/err" \
      && curl -fsSL --connect-timeout 5 --max-time 30 -o "$tmp/checksums.txt" "$temporal_release/temporal_cli_${temporal_version#v}_checksums.txt" 2>>"$tmp/err" \
      && (cd "$tmp" && grep " $tarball\$" checksums.txt | sha256sum -c --status) \
      && tar -xzf "$tmp/$tarball" -C "$tmp" temporal; then
    mkdir -p "$(dirname "$temporal_cache")"
    mv -f "$tmp/temporal" "$temporal_cache"
    rm -rf "$tmp"
    say temporal "downloaded $temporal_cache in $((SECONDS - start))s"
    return 0
  fi
  say temporal "no download ($(head -c 160 "$tmp/err" 2>/dev/null | tr '\n' ' ' || true)after $((SECONDS - start))s)"
  rm -rf "$tmp"
  return 1
}
if [ -n "${TEMPORAL_CLI_PATH:-}" ] && [ -f "$TEMPORAL_CLI_PATH" ] && [ -x "$TEMPORAL_CLI_PATH" ]; then
  temporal_cli="$TEMPORAL_CLI_PATH"
  say temporal "using TEMPORAL_CLI_PATH=$temporal_cli"
else
  [ -n "${TEMPORAL_CLI_PATH:-}" ] && say temporal "TEMPORAL_CLI_PATH=$TEMPORAL_CLI_PATH is not an executable file; looking elsewhere"
  if command -v temporal >/dev/null 2>&1; then
    temporal_cli="$(command -v temporal)"
    say temporal "found on PATH: $temporal_cli"
  elif [ -x "$temporal_cache" ]; then
    temporal_cli="$temporal_cache"
    say temporal "found $temporal_cli"
  elif [ "${HANGAR_SETUP_NO_DOWNLOAD:-}" != 1 ] && temporal_download; then
    temporal_cli="$temporal_cache"
  elif [ -n "$(go_tool)" ]; then
    say temporal "building github.com/temporalio/cli@$temporal_version with go install in the background (a few minutes, once)"
    go_install_background temporal "github.com/temporalio/cli/cmd/temporal@$temporal_version" "$temporal_cache" "$(go_tool)"
    temporal_cli="$temporal_cache"
  else
    say temporal "not found, no download and no Go toolchain: the Temporal SDK will download a dev server at run time (needs internet)"
  fi
fi

# --- S3-compatible test server (tests only) --------------------------------------------------
# versitygw, a real S3 server over a directory, for the blob-store contract tests against S3.
# Found when present (HANGAR_S3_SERVER_PATH, the cache); else built with Go in the background.
versitygw_version="v1.8.0"   # keep in step with test/support/s3Server.ts
if [ "$purpose" = test ]; then
  versitygw_cache="$cache_dir/versitygw-$versitygw_version/versitygw"
  if [ -n "${HANGAR_S3_SERVER_PATH:-}" ] && [ -x "$HANGAR_S3_SERVER_PATH" ]; then
    say s3        "using HANGAR_S3_SERVER_PATH=$HANGAR_S3_SERVER_PATH"
  elif [ -x "$versitygw_cache" ]; then
    say s3        "found $versitygw_cache"
  else
    if [ -z "$(go_tool)" ] && is_debian && is_root; then
      say s3        "versitygw needs Go to build; installing golang-go (apt-get)"
      apt_install golang-go
    fi
    [ -n "$(go_tool)" ] || fail s3 "no Go toolchain to build versitygw (set HANGAR_S3_SERVER_PATH to an S3 test server binary)"
    say s3        "building github.com/versity/versitygw@$versitygw_version with go install in the background (a few minutes, once)"
    go_install_background s3 "github.com/versity/versitygw/cmd/versitygw@$versitygw_version" "$versitygw_cache" "$(go_tool)"
  fi
fi

# --- Docker engine -------------------------------------------------------------------------
docker_answers() { command -v docker >/dev/null 2>&1 && timeout 20 docker info >/dev/null 2>&1; }
wait_for_docker() {
  local deadline=$((SECONDS + $1))
  while [ "$SECONDS" -lt "$deadline" ]; do docker_answers && return 0; sleep 1; done
  return 1
}
# Live processes matching pgrep's arguments: a killed dockerd whose parent does not reap it
# stays behind as a zombie, which pgrep still lists.
live() {
  local pid
  for pid in $(pgrep "$@" 2>/dev/null); do
    [ "$(ps -o stat= -p "$pid" 2>/dev/null | cut -c1)" = Z ] || echo "$pid"
  done
}
# The containerd that dockerd manages runs from /var/run/docker/containerd; one left running
# without its dockerd keeps the metadata database locked.
engine_pids() { live -x dockerd; live -f 'containerd.*/var/run/docker/containerd'; }
stop_docker_engine() {
  local pids
  pids="$(engine_pids)"
  [ -z "$pids" ] || kill $pids 2>/dev/null || true
  local deadline=$((SECONDS + 20))
  while [ "$SECONDS" -lt "$deadline" ] && [ -n "$(engine_pids)" ]; do sleep 1; done
  pids="$(engine_pids)"
  [ -z "$pids" ] || kill -9 $pids 2>/dev/null || true
  rm -f /var/run/docker.pid /var/run/docker/containerd/containerd.pid
}
start_dockerd() {
  # Nothing of an earlier engine may stay behind: see stop_docker_engine.
  if [ -n "$(live -f 'containerd.*/var/run/docker/containerd')" ]; then
    say docker "stopping a containerd left without its dockerd"
    stop_docker_engine
  fi
  rm -f /var/run/docker.pid
  # Detached from this shell and its session, so it outlives setup, npm and CI steps; fd 9
  # (the setup lock) is closed for it, or it would hold the lock for its whole life.
  # shellcheck disable=SC2086
  setsid nohup dockerd ${HANGAR_DOCKERD_ARGS:-} >>"$cache_dir/dockerd.log" 2>&1 </dev/null 9>&- &
  say docker "started dockerd (pid $!, log $cache_dir/dockerd.log)"
}
if docker_answers; then
  say docker "engine answers${DOCKER_HOST:+ at DOCKER_HOST=$DOCKER_HOST}"
elif [ -n "${DOCKER_HOST:-}" ]; then
  fail docker "DOCKER_HOST=$DOCKER_HOST does not answer 'docker info'; start that engine or unset DOCKER_HOST"
elif is_root && is_debian; then
  if ! command -v dockerd >/dev/null 2>&1 || ! command -v docker >/dev/null 2>&1; then
    say docker "installing docker.io (apt-get)"
    apt_install docker.io || fail docker "apt-get install docker.io failed"
  fi
  if ! docker_answers; then
    if [ -n "$(live -x dockerd)" ]; then
      say docker "dockerd is running but not answering yet; waiting"
    else
      start_dockerd
    fi
    if ! wait_for_docker 90; then
      # A dockerd killed without its containerd (a machine or session ending) leaves that
      # containerd holding the metadata lock, and the next one waits on it until dockerd gives
      # up. Stop what is left of the engine and start it once more from nothing.
      say docker "no answer within 90 s; restarting the engine once (log: $cache_dir/dockerd.log)"
      stop_docker_engine
      start_dockerd
      wait_for_docker 120 || { tail -n 20 "$cache_dir/dockerd.log" >&2 || true; fail docker "dockerd did not answer within 120 s after a restart (log: $cache_dir/dockerd.log)"; }
    fi
    say docker "engine answers"
  fi
else
  fail docker "no Docker engine answers 'docker info'. Install and start Docker (Debian/Ubuntu as root: apt-get install docker.io && dockerd &; elsewhere Docker Engine or Docker Desktop), or point DOCKER_HOST at one"
fi

# --- Firewall ------------------------------------------------------------------------------
# The worker installs the workspace egress rules with the host's iptables (the binary dockerd
# itself uses) when the engine is local; make sure it is there. A remote engine's host gets
# the rules `hangar admin firewall` prints (HANGAR_NETWORK_ISOLATION=networks).
if [ -z "${DOCKER_HOST:-}" ] && [ "${HANGAR_NETWORK_ISOLATION:-enforce}" = enforce ]; then
  if ! command -v iptables >/dev/null 2>&1 || ! command -v iptables-restore >/dev/null 2>&1; then
    if is_root && is_debian; then
      say firewall "installing iptables (apt-get)"
      apt_install iptables || fail firewall "apt-get install iptables failed"
    else
      fail firewall "iptables is missing: the worker needs it to isolate workspaces (install it, or set HANGAR_NETWORK_ISOLATION=networks and install the rules from 'hangar admin firewall' yourself)"
    fi
  fi
  if is_root && ! iptables -w -S DOCKER-USER >/dev/null 2>&1; then
    fail firewall "the Docker engine's DOCKER-USER chain is missing: start dockerd with its iptables rules (not --iptables=false)"
  fi
  say firewall "iptables present$(is_root && printf ', DOCKER-USER chain present')"
fi

# --- Sandbox image -------------------------------------------------------------------------
inputs="$(bash "$repo/scripts/build-sandbox-image.sh" --print-inputs-hash)"
image_inputs() {
  docker image inspect --format '{{ with .Config.Labels }}{{ index . "dev.hangar.inputs" }}{{ end }}' \
    "$sandbox_image" 2>/dev/null || true
}
current="$(image_inputs)"
if [ "$current" = "$inputs" ]; then
  say image "$sandbox_image is current (inputs ${inputs:0:12})"
else
  if [ -z "$current" ]; then why="missing or unlabelled"; else why="out of date (inputs ${current:0:12}, now ${inputs:0:12})"; fi
  is_root || fail image "$sandbox_image is $why and building it needs root: sudo bash scripts/build-sandbox-image.sh"
  # The image carries the test coding agent, compiled from scripts/sandbox-image/agent (Go).
  go_bin="${HANGAR_GO:-$(command -v go || true)}"
  [ -z "$go_bin" ] && [ -x /usr/local/go/bin/go ] && go_bin=/usr/local/go/bin/go
  if [ -z "$go_bin" ] && is_debian; then
    say image "the test coding agent in the image needs Go to build; installing golang-go (apt-get)"
    apt_install golang-go && go_bin="$(command -v go || true)"
  fi
  [ -n "$go_bin" ] || fail image "$sandbox_image is $why, and its test coding agent (scripts/sandbox-image/agent) needs the Go toolchain (>= 1.19) to build: install Go (Debian: apt-get install golang-go; or unpack it at /usr/local/go) or set HANGAR_GO to the go binary, then run setup again"
  export HANGAR_GO="$go_bin"
  say image "$sandbox_image is $why; building"
  start=$SECONDS
  # Line by line as it goes (sed would hold its output back when setup's output is a pipe or a log).
  bash "$repo/scripts/build-sandbox-image.sh" --image "$sandbox_image" 2>&1 \
    | while IFS= read -r line; do printf 'setup:           %s\n' "$line"; done
  [ "$(image_inputs)" = "$inputs" ] || fail image "build of $sandbox_image did not produce inputs ${inputs:0:12}"
  say image "built $sandbox_image in $((SECONDS - start))s"
fi

# --- PostgreSQL ----------------------------------------------------------------------------
pg_answers() {
  if [ -n "${DATABASE_URL:-}" ]; then
    if command -v pg_isready >/dev/null 2>&1; then pg_isready -q -t 3 -d "$DATABASE_URL"; else return 0; fi
  elif command -v pg_isready >/dev/null 2>&1; then
    pg_isready -q -t 3 -h 127.0.0.1 -p 5432
  else
    timeout 3 bash -c 'exec 3<>/dev/tcp/127.0.0.1/5432' 2>/dev/null
  fi
}
if [ "${HANGAR_SETUP_SKIP_POSTGRES:-}" = 1 ]; then
  say postgres "skipped (HANGAR_SETUP_SKIP_POSTGRES=1)"
elif [ -n "${DATABASE_URL:-}" ]; then
  if pg_answers; then say postgres "DATABASE_URL answers"
  elif [ "$purpose" = test ]; then fail postgres "DATABASE_URL does not answer"
  else say postgres "warning: DATABASE_URL does not answer"; fi
elif pg_answers; then
  say postgres "answers at 127.0.0.1:5432"
elif [ "$purpose" = dev ]; then
  say postgres "none at 127.0.0.1:5432; fine for dev (embedded database when DATABASE_URL is unset)"
elif command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ] && is_root; then
  versions=""
  for dir in /etc/postgresql/*/main; do
    [ -d "$dir" ] || continue
    version="$(basename "$(dirname "$dir")")"
    versions="$versions$version "
    pg_ctlcluster --skip-systemctl-redirect "$version" main start >/dev/null 2>&1 || true
  done
  for _ in $(seq 1 30); do pg_answers && break; sleep 1; done
  pg_answers || fail postgres "started the cluster (pg_ctlcluster) but 127.0.0.1:5432 does not answer"
  say postgres "started cluster ${versions}at 127.0.0.1:5432"
else
  fail postgres "nothing answers at 127.0.0.1:5432 and tests need PostgreSQL: start one or set DATABASE_URL"
fi

# --- Redis (tests only) ---------------------------------------------------------------------
# Presence lives in Redis when REDIS_URL is set; the test harness uses 127.0.0.1:6379 unless
# REDIS_URL names another. Quick when it answers; otherwise started (installed first if needed).
redis_answers() {
  local reply=""
  if command -v redis-cli >/dev/null 2>&1; then
    if [ -n "${REDIS_URL:-}" ]; then reply="$(timeout 3 redis-cli -u "$REDIS_URL" ping 2>/dev/null || true)"
    else reply="$(timeout 3 redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null || true)"; fi
    [ "$reply" = PONG ]
  elif [ -n "${REDIS_URL:-}" ]; then
    return 0
  else
    # No redis-cli: RESP by hand, PING answers +PONG.
    ( exec 3<>/dev/tcp/127.0.0.1/6379 && printf 'PING\r\n' >&3 && IFS= read -r -t 3 reply <&3 && [ "${reply%$'\r'}" = "+PONG" ] ) 2>/dev/null
  fi
}
if [ "${HANGAR_SETUP_SKIP_REDIS:-}" = 1 ]; then
  say redis "skipped (HANGAR_SETUP_SKIP_REDIS=1)"
elif [ -n "${REDIS_URL:-}" ]; then
  if redis_answers; then say redis "REDIS_URL answers"
  elif [ "$purpose" = test ]; then fail redis "REDIS_URL does not answer"
  else say redis "warning: REDIS_URL does not answer"; fi
elif redis_answers; then
  say redis "answers at 127.0.0.1:6379"
elif [ "$purpose" = dev ]; then
  say redis "none at 127.0.0.1:6379; fine for dev (presence is kept in-process when REDIS_URL is unset)"
else
  if ! command -v redis-server >/dev/null 2>&1; then
    if is_root && is_debian; then
      say redis "installing redis-server (apt-get)"
      apt_install redis-server || fail redis "apt-get install redis-server failed"
    else
      fail redis "nothing answers at 127.0.0.1:6379 and redis-server is not installed: install Redis or set REDIS_URL"
    fi
  fi
  # The package may have started one already.
  if ! redis_answers; then
    redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save '' --appendonly no \
      --dir "$cache_dir" --logfile "$cache_dir/redis.log" >/dev/null \
      || fail redis "redis-server did not start (log: $cache_dir/redis.log)"
    for _ in $(seq 1 50); do redis_answers && break; sleep 0.2; done
  fi
  redis_answers || fail redis "started redis-server but 127.0.0.1:6379 does not answer (log: $cache_dir/redis.log)"
  say redis "started redis-server at 127.0.0.1:6379 (log $cache_dir/redis.log)"
fi

# --- Engine hosts (tests only) -------------------------------------------------------------
# The multi-host tests start another "machine" (test/support/engineHost.ts): a network
# namespace (`ip`, iproute2) with its own dockerd, entered with `nsenter` (util-linux).
if [ "$purpose" = test ]; then
  missing=()
  command -v ip >/dev/null 2>&1 || missing+=(iproute2)
  command -v nsenter >/dev/null 2>&1 || missing+=(util-linux)
  if [ ${#missing[@]} -gt 0 ]; then
    if is_root && is_debian; then
      say engines "installing ${missing[*]} (apt-get)"
      apt_install "${missing[@]}" || fail engines "apt-get install ${missing[*]} failed"
    else
      fail engines "the multi-host tests need ip (iproute2) and nsenter (util-linux): install ${missing[*]}"
    fi
  fi
  say engines "ip and nsenter present"
fi

# The deployment test (npm run test:deploy) runs docker-compose.yml: Docker's compose plugin when
# installed, else Debian's docker-compose 1.29.
if [ "$purpose" = test ]; then
  if docker compose version >/dev/null 2>&1; then
    say compose "docker compose ($(docker compose version --short 2>/dev/null || echo plugin))"
  elif command -v docker-compose >/dev/null 2>&1; then
    say compose "docker-compose ($(docker-compose version --short 2>/dev/null || echo present))"
  elif is_root && is_debian; then
    say compose "installing docker-compose (apt-get)"
    apt_install docker-compose || fail compose "apt-get install docker-compose failed"
    say compose "docker-compose ($(docker-compose version --short 2>/dev/null || echo installed))"
  else
    fail compose "the deployment test needs docker compose (the plugin) or docker-compose: install one"
  fi
fi

# The console's browser tests drive Debian's Chromium (playwright-core downloads no browser).
# HANGAR_CHROMIUM names another binary.
if [ "$purpose" = test ]; then
  chromium_bin="${HANGAR_CHROMIUM:-/usr/bin/chromium}"
  if [ ! -x "$chromium_bin" ]; then
    if [ -z "${HANGAR_CHROMIUM:-}" ] && is_root && is_debian; then
      say chromium "installing chromium (apt-get; a few minutes)"
      apt_install chromium || fail chromium "apt-get install chromium failed"
    else
      fail chromium "$chromium_bin is missing: the console tests need Chromium (Debian: apt-get install chromium), or set HANGAR_CHROMIUM to a Chromium binary"
    fi
  fi
  say chromium "$chromium_bin ($("$chromium_bin" --version 2>/dev/null | head -n 1 || echo 'version unknown'))"
fi

# --- Background builds -------------------------------------------------------------------
if [ ${#background_pids[@]} -gt 0 ]; then
  say wait "for the Go builds (${background_names[*]})"
  finish_go_builds
fi

# --- Record --------------------------------------------------------------------------------
mkdir -p "$repo/.hangar"
HANGAR_T="$temporal_cli" HANGAR_I="$sandbox_image" HANGAR_D="${DOCKER_HOST:-}" HANGAR_OUT="$repo/.hangar/toolchain.json" node -e '
  const fs = require("fs");
  const e = process.env;
  const out = { temporalCliPath: e.HANGAR_T || null, sandboxImage: e.HANGAR_I, dockerHost: e.HANGAR_D || null };
  fs.writeFileSync(e.HANGAR_OUT + ".tmp", JSON.stringify(out, null, 2) + "\n");
  fs.renameSync(e.HANGAR_OUT + ".tmp", e.HANGAR_OUT);
'
say record ".hangar/toolchain.json (for $purpose)"
