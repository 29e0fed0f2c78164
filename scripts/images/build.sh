#!/usr/bin/env bash
# `npm run images`: builds, with no image registry, the images docker-compose.yml runs, each
# from a Debian rootfs (debootstrap, as the sandbox image is built) and `docker import`ed:
#   postgres     PostgreSQL 15 from Debian, started like the official image (POSTGRES_USER,
#                POSTGRES_PASSWORD, POSTGRES_DB; data in /var/lib/postgresql/data)
#   temporal     the Temporal server (go.temporal.io/server at package.json hangar.temporalServerVersion)
#                built from its Go module, with temporal-sql-tool, its PostgreSQL schema and
#                the temporal CLI: one image for every Temporal service (SERVICES=frontend,
#                history, matching, worker) and for the schema and namespace steps
#   temporal-ui  the Temporal UI server (github.com/temporalio/ui-server/v2 at hangar.temporalUiVersion)
#   hangar       the API (the production bundle of `npm run build`) and the worker (source under
#                tsx), on Node from the npm registry's Linux build (hangar.imageNodeVersion)
# Each is tagged <name>:<hash of its inputs> and labelled dev.hangar.inputs, so an unchanged
# image is not built again. The names go into .env (between marker lines), where compose reads
# HANGAR_IMAGE, HANGAR_POSTGRES_IMAGE, HANGAR_TEMPORAL_IMAGE, HANGAR_TEMPORAL_ADMIN_IMAGE and
# HANGAR_TEMPORAL_UI_IMAGE; without them compose uses the public images.
#
# Usage: build.sh [--only NAME[,NAME]] [--no-env]
# Env:   HANGAR_CACHE_DIR, HANGAR_DEBIAN_MIRROR, HANGAR_GO, HANGAR_IMAGES_PREFIX (default hangar)
# Needs root (debootstrap, chroot), a Docker engine, Go (the Go module proxy) and npm (the registry).
set -euo pipefail

repo="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../.." && pwd)"
here="$repo/scripts/images"
# shellcheck source=../lib/rootfs.sh
. "$repo/scripts/lib/rootfs.sh"
cache_dir="${HANGAR_CACHE_DIR:-${HOME:-$(cd ~ && pwd)}/.cache/hangar}"
prefix="${HANGAR_IMAGES_PREFIX:-hangar}"

say() { printf 'images: %s\n' "$*"; }
die() { printf 'images: error: %s\n' "$*" >&2; exit 1; }

only=""
write_env=1
while [ $# -gt 0 ]; do
  case "$1" in
    --only) only="${2:?--only needs names}"; shift 2 ;;
    --only=*) only="${1#--only=}"; shift ;;
    --no-env) write_env=0; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
    *) die "unknown argument: $1" ;;
  esac
done
wanted() { [ -z "$only" ] || [[ ",$only," == *",$1,"* ]]; }

[ "$(id -u)" -eq 0 ] || die "building the images needs root (debootstrap and chroot): sudo npm run images"
docker info >/dev/null 2>&1 || die "no Docker engine answers (docker info); run scripts/setup.sh first or set DOCKER_HOST"
go_bin="${HANGAR_GO:-$(command -v go || true)}"
[ -z "$go_bin" ] && [ -x /usr/local/go/bin/go ] && go_bin=/usr/local/go/bin/go
[ -n "$go_bin" ] || die "the Temporal images are built from Go modules: install Go or set HANGAR_GO"

read_pin() { (cd "$repo" && node -p "require('./package.json').hangar.$1 || ''"); }
temporal_server_version="$(read_pin temporalServerVersion)"
temporal_ui_version="$(read_pin temporalUiVersion)"
temporal_cli_version="$(read_pin temporalCliVersion)"
node_version="$(read_pin imageNodeVersion)"
for pin in temporal_server_version temporal_ui_version temporal_cli_version node_version; do
  [ -n "${!pin}" ] || die "package.json's hangar block lacks the pin for $pin"
done
arch="$(dpkg --print-architecture 2>/dev/null || uname -m)"
case "$arch" in amd64) goarch=amd64 npm_cpu=x64 ;; arm64) goarch=arm64 npm_cpu=arm64 ;; *) die "unsupported architecture $arch" ;; esac

suite=bookworm
base_include=ca-certificates,procps
base_recipe=1

mkdir -p "$cache_dir"
exec 8>"$cache_dir/images-build.lock"
if command -v flock >/dev/null 2>&1; then flock 8; fi
work=""
trap 'rc=$?; remove_work; exit "$rc"' EXIT
trap 'exit 130' INT TERM
work="$(mktemp -d "$cache_dir/images-build.XXXXXX")"

# One line per file: path, mode and content hash (paths relative to the repo).
describe() {
  local f
  for f in "$@"; do
    if [ -d "$repo/$f" ]; then
      (cd "$repo" && find "$f" -type f -print0 | LC_ALL=C sort -z | xargs -0 -r sha256sum)
    else
      (cd "$repo" && sha256sum "$f")
    fi
  done
}
inputs_of() { { printf '%s\n' "$@"; describe scripts/images/build.sh scripts/lib/rootfs.sh; } | sha256sum | cut -c1-16; }

# Whether NAME:HASH exists with its label (built from these inputs).
current() { [ "$(docker image inspect --format '{{ index .Config.Labels "dev.hangar.inputs" }}' "$1" 2>/dev/null || true)" = "$2" ]; }

# A fresh rootfs from the cached base (debootstrap once per machine).
fresh_root() {
  base_rootfs images "$suite" minbase "$base_include" "$arch" "$base_recipe"
  root="$work/rootfs-$1"
  rm -rf --one-file-system "$root"
  mkdir -p "$root"
  tar -C "$root" --numeric-owner -xpf "$base_tar"
}

# apt-get install in the rootfs, with no service started and no cluster made.
chroot_install() {
  local log="$cache_dir/images-apt.log"
  printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
  chmod 755 "$root/usr/sbin/policy-rc.d"
  mount -t proc proc "$root/proc"
  if ! { chroot "$root" apt-get update -qq && DEBIAN_FRONTEND=noninteractive chroot "$root" apt-get install -y -qq --no-install-recommends "$@"; } >"$log" 2>&1; then
    umount "$root/proc" || true
    tail -n 20 "$log" >&2
    die "apt-get install $* failed in the rootfs (log: $log)"
  fi
  umount "$root/proc"
  rm -f "$root/usr/sbin/policy-rc.d"
  chroot "$root" apt-get clean
  rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin
}

# import_image NAME:TAG HASH [--change …]: the rootfs as an image, labelled with its inputs.
import_image() {
  local image="$1" hash="$2" id
  shift 2
  id="$(tar -C "$root" --numeric-owner -cf - . | docker import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV LANG=C.UTF-8' \
    --change "LABEL dev.hangar.inputs=$hash" \
    "$@" --message "$image, inputs $hash" -)"
  docker tag "$id" "$image"
  rm -rf --one-file-system "$root"
  say "built $image"
}

# go_build NAME MODULE@VERSION PACKAGE: a static binary from a Go module, cached by version.
go_build() {
  local name="$1" module="$2" package="$3" dest mod log start
  dest="$cache_dir/images-go/$name-${module##*@}"
  if [ -x "$dest" ]; then built="$dest"; return 0; fi
  mod="$work/go-$name"
  mkdir -p "$mod" "$(dirname "$dest")"
  log="$cache_dir/images-go-$name.log"
  say "go build $package ($module; a few minutes, once)"
  start=$SECONDS
  if ! (cd "$mod" && printf 'module hangar.local/images/%s\n\ngo 1.23\n' "$name" >go.mod \
      && GOFLAGS=-mod=mod "$go_bin" get "$module" \
      && CGO_ENABLED=0 GOOS=linux GOARCH="$goarch" GOFLAGS=-mod=mod "$go_bin" build -trimpath -ldflags='-s -w' -o "$dest.tmp" "$package") >"$log" 2>&1; then
    tail -n 20 "$log" >&2
    die "go build $package failed (log: $log)"
  fi
  mv -f "$dest.tmp" "$dest"
  say "  $name built in $((SECONDS - start))s"
  built="$dest"
}

# The directory of a module version in the module cache (downloaded if needed).
module_dir() { (cd "$work" && GOFLAGS=-mod=mod "$go_bin" mod download -json "$1" | node -e 'let s="";process.stdin.on("data",(d)=>s+=d).on("end",()=>{const m=JSON.parse(s);if(!m.Dir)process.exit(1);console.log(m.Dir)})'); }

names=()
record() { names+=("$1=$2"); }

# --- PostgreSQL ------------------------------------------------------------------------------
if wanted postgres; then
  hash="$(inputs_of postgres "$suite" postgresql-15 "$(describe scripts/images/postgres-entrypoint.sh)")"
  image="$prefix-postgres:$hash"
  if current "$image" "$hash"; then say "$image is current"; else
    say "$image: PostgreSQL 15 from Debian"
    fresh_root postgres
    mkdir -p "$root/etc/postgresql-common/createcluster.d"
    printf 'create_main_cluster = false\n' >"$root/etc/postgresql-common/createcluster.d/hangar.conf"
    chroot_install postgresql-15
    install -m 755 "$here/postgres-entrypoint.sh" "$root/usr/local/bin/docker-entrypoint.sh"
    mkdir -p "$root/var/lib/postgresql/data" "$root/var/run/postgresql"
    chroot "$root" chown -R postgres:postgres /var/lib/postgresql /var/run/postgresql
    import_image "$image" "$hash" \
      --change 'ENV PGDATA=/var/lib/postgresql/data' \
      --change 'ENV PATH=/usr/lib/postgresql/15/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
      --change 'VOLUME /var/lib/postgresql/data' \
      --change 'EXPOSE 5432' \
      --change 'ENTRYPOINT ["/usr/local/bin/docker-entrypoint.sh"]' \
      --change 'CMD ["postgres"]'
  fi
  record HANGAR_POSTGRES_IMAGE "$image"
fi

# --- Temporal server -------------------------------------------------------------------------
if wanted temporal; then
  hash="$(inputs_of temporal "$temporal_server_version" "$temporal_cli_version" "$goarch" "$(describe scripts/images/temporal)")"
  image="$prefix-temporal:$hash"
  if current "$image" "$hash"; then say "$image is current"; else
    say "$image: Temporal server $temporal_server_version from its Go module"
    go_build temporal-server "go.temporal.io/server@$temporal_server_version" go.temporal.io/server/cmd/server
    server_bin="$built"
    go_build temporal-sql-tool "go.temporal.io/server@$temporal_server_version" go.temporal.io/server/cmd/tools/sql
    sql_bin="$built"
    cli_bin="$cache_dir/temporal-$temporal_cli_version/temporal"
    if [ ! -x "$cli_bin" ]; then
      go_build temporal-cli "github.com/temporalio/cli@$temporal_cli_version" github.com/temporalio/cli/cmd/temporal
      cli_bin="$built"
    fi
    server_src="$(module_dir "go.temporal.io/server@$temporal_server_version")" || die "go.temporal.io/server@$temporal_server_version is not in the module cache"
    fresh_root temporal
    install -m 755 "$server_bin" "$root/usr/local/bin/temporal-server"
    install -m 755 "$sql_bin" "$root/usr/local/bin/temporal-sql-tool"
    install -m 755 "$cli_bin" "$root/usr/local/bin/temporal"
    mkdir -p "$root/etc/temporal/config/dynamicconfig" "$root/etc/temporal/schema/postgresql"
    cp -R "$server_src/schema/postgresql/v12" "$root/etc/temporal/schema/postgresql/"
    chmod -R u+rwX,go+rX,go-w "$root/etc/temporal/schema"
    install -m 644 "$here/temporal/config.yaml" "$root/etc/temporal/config/config.yaml"
    install -m 644 "$here/temporal/dynamicconfig.yaml" "$root/etc/temporal/config/dynamicconfig/docker.yaml"
    install -m 755 "$here/temporal/entrypoint.sh" "$root/etc/temporal/entrypoint.sh"
    chroot "$root" groupadd --gid 1000 temporal
    chroot "$root" useradd --uid 1000 --gid 1000 --home-dir /etc/temporal --no-create-home --shell /bin/sh temporal
    import_image "$image" "$hash" \
      --change 'WORKDIR /etc/temporal' \
      --change 'USER temporal' \
      --change 'EXPOSE 6933 6934 6935 6939 7233 7234 7235 7239' \
      --change 'ENTRYPOINT ["/etc/temporal/entrypoint.sh"]'
  fi
  record HANGAR_TEMPORAL_IMAGE "$image"
  record HANGAR_TEMPORAL_ADMIN_IMAGE "$image"
fi

# --- Temporal UI -----------------------------------------------------------------------------
if wanted temporal-ui; then
  hash="$(inputs_of temporal-ui "$temporal_ui_version" "$goarch")"
  image="$prefix-temporal-ui:$hash"
  if current "$image" "$hash"; then say "$image is current"; else
    say "$image: Temporal UI server $temporal_ui_version from its Go module"
    go_build temporal-ui-server "github.com/temporalio/ui-server/v2@$temporal_ui_version" github.com/temporalio/ui-server/v2/cmd/server
    ui_bin="$built"
    ui_src="$(module_dir "github.com/temporalio/ui-server/v2@$temporal_ui_version")" || die "ui-server $temporal_ui_version is not in the module cache"
    fresh_root temporal-ui
    install -m 755 "$ui_bin" "$root/usr/local/bin/ui-server"
    mkdir -p "$root/home/ui-server/config"
    install -m 644 "$ui_src/config/docker.yaml" "$root/home/ui-server/config/docker.yaml"
    chroot "$root" groupadd --gid 1000 temporal
    chroot "$root" useradd --uid 1000 --gid 1000 --home-dir /home/ui-server --no-create-home --shell /bin/sh temporal
    import_image "$image" "$hash" \
      --change 'WORKDIR /home/ui-server' \
      --change 'USER temporal' \
      --change 'EXPOSE 8080' \
      --change 'ENTRYPOINT ["/usr/local/bin/ui-server", "--root", "/home/ui-server", "--env", "docker", "start"]'
  fi
  record HANGAR_TEMPORAL_UI_IMAGE "$image"
fi

# --- Hangar ----------------------------------------------------------------------------------
if wanted hangar; then
  app_files=(package.json package-lock.json tsconfig.json src activities workflows console client scripts/hangar)
  hash="$(inputs_of hangar "$node_version" "$npm_cpu" "$(describe "${app_files[@]}" scripts/buildApi.ts)")"
  image="$prefix:$hash"
  if current "$image" "$hash"; then say "$image is current"; else
    say "$image: the API bundle and the worker on Node $node_version"
    # Node's Linux build, from the npm registry (cached beside the sandbox image's).
    node_tgz="$cache_dir/agents/node-linux-$npm_cpu-$node_version.tgz"
    if [ ! -s "$node_tgz" ]; then
      mkdir -p "$cache_dir/agents" "$work/pack"
      (cd "$work/pack" && npm pack "node-linux-$npm_cpu@$node_version" --cache "$work/npm-cache" --loglevel=error >/dev/null) \
        || die "npm pack node-linux-$npm_cpu@$node_version failed (does the machine reach the npm registry?)"
      mv -f "$work/pack/"*.tgz "$node_tgz"
    fi
    # The production dependencies, once per lock file and Node version.
    lock_key="$(cat "$repo/package-lock.json" "$repo/package.json" | sha256sum | cut -c1-16)"
    deps_tar="$cache_dir/images-node-modules-$lock_key-$npm_cpu.tar"
    if [ ! -s "$deps_tar" ]; then
      say "  npm ci --omit=dev (once per lock file)"
      mkdir -p "$work/deps"
      cp "$repo/package.json" "$repo/package-lock.json" "$work/deps/"
      (cd "$work/deps" && npm ci --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error --os=linux --cpu="$npm_cpu" --libc=glibc --cache "$work/npm-cache") >"$cache_dir/images-npm.log" 2>&1 \
        || { tail -n 20 "$cache_dir/images-npm.log" >&2; die "npm ci --omit=dev failed (log: $cache_dir/images-npm.log)"; }
      tar -C "$work/deps" --numeric-owner -cf "$deps_tar.tmp" node_modules
      mv -f "$deps_tar.tmp" "$deps_tar"
    fi
    say "  npm run build (the API bundle)"
    (cd "$repo" && npx tsx -e "require('./scripts/buildApi.ts').buildApi(process.argv[1]).catch((e) => { console.error(e); process.exit(1); })" "$work/dist/api.js") >/dev/null \
      || die "the API bundle did not build"
    fresh_root hangar
    mkdir -p "$root/usr/local/lib/nodejs" "$root/app"
    tar -C "$root/usr/local/lib/nodejs" --strip-components=1 --no-same-owner -xzf "$node_tgz" --exclude=package/include
    ln -sfn /usr/local/lib/nodejs/bin/node "$root/usr/local/bin/node"
    (cd "$repo" && tar --owner=0 --group=0 --numeric-owner -cf - "${app_files[@]}") | tar -C "$root/app" -xpf -
    tar -C "$root/app" --no-same-owner -xf "$deps_tar"
    cp -R "$work/dist" "$root/app/dist"
    chmod -R u+rwX,go+rX,go-w "$root/app"
    chroot "$root" groupadd --gid 1000 hangar
    chroot "$root" useradd --uid 1000 --gid 1000 --home-dir /app --no-create-home --shell /bin/sh hangar
    # Media and canvas copies (HANGAR_DATA_DIR in docker-compose.yml): a volume mounted here starts
    # as this directory, the app group's and setgid, so the API and the root workers share it.
    install -d -o 1000 -g 1000 -m 2770 "$root/var/lib/hangar"
    chroot "$root" node --version >/dev/null || die "node does not run in the image"
    import_image "$image" "$hash" \
      --change 'ENV NODE_ENV=production' \
      --change 'WORKDIR /app' \
      --change 'USER hangar' \
      --change 'EXPOSE 8080' \
      --change 'CMD ["node", "--enable-source-maps", "dist/api.js"]'
  fi
  record HANGAR_IMAGE "$image"
fi

# --- Where compose reads them ----------------------------------------------------------------
if [ "$write_env" = 1 ] && [ ${#names[@]} -gt 0 ]; then
  env_file="$repo/.env"
  begin='# >>> npm run images (written by scripts/images/build.sh; delete the block to use the public images)'
  end='# <<< npm run images'
  kept=""
  [ -f "$env_file" ] && kept="$(awk -v b="$begin" -v e="$end" '$0 == b { skip = 1; next } $0 == e { skip = 0; next } !skip' "$env_file")"
  {
    [ -n "$kept" ] && printf '%s\n' "$kept"
    printf '%s\n' "$begin"
    # Names not rebuilt this time keep their lines.
    [ -f "$env_file" ] && awk -v b="$begin" -v e="$end" '$0 == b { on = 1; next } $0 == e { on = 0 } on' "$env_file" \
      | while IFS= read -r line; do
          key="${line%%=*}"
          printf '%s\n' "${names[@]}" | grep -q "^$key=" || printf '%s\n' "$line"
        done
    printf '%s\n' "${names[@]}"
    printf '%s\n' "$end"
  } >"$env_file.tmp"
  mv -f "$env_file.tmp" "$env_file"
  say "recorded in .env: ${names[*]%%=*}"
fi
