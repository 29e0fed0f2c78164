#!/usr/bin/env bash
# Builds the Hangar sandbox image without any image registry:
#   1. a Debian bookworm minbase rootfs from debootstrap, cached as a tarball in the cache dir
#      (keyed by the base recipe below, so it is made once per machine);
#   2. a temp copy of it with the `hangar` user (uid/gid 1000), apt caches removed and the
#      overlay scripts/sandbox-image/rootfs/ copied in, and the deterministic test coding agent
#      (scripts/sandbox-image/agent/, Go, stdlib only) compiled to /usr/local/bin/hangar-test-agent,
#      the in-workspace CLI (scripts/sandbox-image/cli/, likewise) to /usr/local/bin/hangar, and the
#      turn supervisor (scripts/sandbox-image/turn/, likewise) to /usr/local/bin/hangar-turn;
#   3. the coding-agent CLIs pinned in scripts/sandbox-image/agents.json, from npm registry
#      tarballs (`npm pack`, cached in <cache>/agents/), unpacked under /opt/hangar/agents/<name>/
#      with launchers in /usr/local/bin (claude, codex, opencode, pi, node), plus cursor-agent when
#      the operator supplies it (HANGAR_AGENT_3_BINARY);
#   4. `docker import` of that copy, labelled dev.hangar.inputs=<hash of this script,
#      scripts/sandbox-image/ and the HANGAR_AGENT_3_BINARY content>, then tagged as the image
#      name (an atomic re-tag: a running container or a concurrent `docker run` keeps the image
#      it resolved).
#
# Usage: build-sandbox-image.sh [--image NAME] [--print-inputs-hash]
# Env:   HANGAR_SANDBOX_IMAGE (default: package.json hangar.sandboxImage),
#        HANGAR_CACHE_DIR (default: $HOME/.cache/hangar),
#        HANGAR_DEBIAN_MIRROR (default: the bookworm mirror in /etc/apt/sources*, else
#        http://deb.debian.org/debian),
#        HANGAR_AGENT_3_BINARY (the Cursor CLI: an executable, or the unpacked Cursor CLI
#        directory with cursor-agent, node and index.js; unset: no cursor-agent in the image).
# Needs root (debootstrap, chroot), a Docker engine (`docker info` answers), Go >= 1.19
# (`go` on PATH or /usr/local/go/bin/go; HANGAR_GO names another) for the test agent, and
# node + npm reaching the npm registry for the agent CLIs (not when they are cached).
set -euo pipefail

repo="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
# shellcheck source=lib/rootfs.sh
. "$repo/scripts/lib/rootfs.sh"
cache_dir="${HANGAR_CACHE_DIR:-${HOME:-$(cd ~ && pwd)}/.cache/hangar}"

# The base rootfs recipe. Changing any of these changes the base tarball's key.
base_suite=bookworm
base_variant=minbase
base_include=bash,git,curl,ca-certificates,procps
base_recipe_version=1

say() { printf 'build-sandbox-image: %s\n' "$*"; }
die() { printf 'build-sandbox-image: error: %s\n' "$*" >&2; exit 1; }

# The Cursor CLI the operator supplies (HANGAR_AGENT_3_BINARY), symlinks followed. Sets
# agent3_kind: "" (unset), file (a single executable), dir (a directory copied whole, with
# agent3_exec its executable: a directory given as such must hold cursor-agent; a file whose
# directory holds index.js and node is the official Cursor CLI package, whose cursor-agent is a
# shell script that runs them, so its directory is taken) or missing; and agent3_path.
agent3_source() {
  local given="${HANGAR_AGENT_3_BINARY:-}" real
  agent3_kind="" agent3_path="" agent3_exec=""
  [ -n "$given" ] || return 0
  real="$(readlink -f -- "$given" 2>/dev/null || true)"
  if [ -n "$real" ] && [ -d "$real" ]; then
    agent3_kind=dir agent3_path="$real" agent3_exec=cursor-agent
  elif [ -n "$real" ] && [ -f "$real" ]; then
    if [ -f "$(dirname "$real")/index.js" ] && [ -f "$(dirname "$real")/node" ]; then
      agent3_kind=dir agent3_path="$(dirname "$real")" agent3_exec="$(basename "$real")"
    else
      agent3_kind=file agent3_path="$real" agent3_exec="$(basename "$real")"
    fi
  else
    agent3_kind=missing agent3_path="$given"
  fi
}

# One line per file named (NUL-separated) on stdin: relative path, kind, executable bit and
# content hash.
describe_files() {
  local f mode
  while IFS= read -r -d '' f; do
    if [ -L "$f" ]; then
      printf 'link %s %s\n' "$f" "$(readlink "$f")"
    else
      if [ -x "$f" ]; then mode=755; else mode=644; fi
      printf 'file %s %s %s\n' "$f" "$mode" "$(sha256sum < "$f" | cut -d' ' -f1)"
    fi
  done
}

# Hash of the image's inputs: this script and every file under scripts/sandbox-image/
# (relative path, kind, executable bit and content), independent of the checkout location; plus
# the content of the operator's Cursor CLI when HANGAR_AGENT_3_BINARY is set, so that setting,
# changing or unsetting it rebuilds the image.
inputs_hash() {
  (
    cd "$repo"
    {
      printf 'hangar-sandbox-inputs 1\n'
      { printf '%s\0' scripts/build-sandbox-image.sh scripts/lib/rootfs.sh
        find scripts/sandbox-image \( -type f -o -type l \) -print0 | LC_ALL=C sort -z
      } | describe_files
      agent3_source
      case "$agent3_kind" in
        file) printf 'agent_3 file %s\n' "$(sha256sum < "$agent3_path" | cut -d' ' -f1)" ;;
        dir) printf 'agent_3 dir %s\n' "$agent3_exec"
             (cd "$agent3_path" && find . \( -type f -o -type l \) -print0 | LC_ALL=C sort -z | describe_files) ;;
        missing) printf 'agent_3 missing %s\n' "$agent3_path" ;;
      esac
    } | sha256sum | cut -d' ' -f1
  )
}

image=""
while [ $# -gt 0 ]; do
  case "$1" in
    --print-inputs-hash) inputs_hash; exit 0 ;;
    --image) image="${2:?--image needs a name}"; shift 2 ;;
    --image=*) image="${1#--image=}"; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
    *) die "unknown argument: $1" ;;
  esac
done
if [ -z "$image" ]; then
  image="${HANGAR_SANDBOX_IMAGE:-$(cd "$repo" && node -p "require('./package.json').hangar.sandboxImage")}"
fi

[ "$(id -u)" -eq 0 ] || die "building the sandbox image needs root (debootstrap and chroot); run: sudo bash scripts/build-sandbox-image.sh"
if ! command -v docker >/dev/null 2>&1 || ! docker info >/dev/null 2>&1; then
  die "no Docker engine answers (docker info); run scripts/setup.sh first or set DOCKER_HOST"
fi

# The test agent is part of every image, so a missing Go toolchain stops the build before any work.
agent_src="$repo/scripts/sandbox-image/agent"
cli_src="$repo/scripts/sandbox-image/cli"
turn_src="$repo/scripts/sandbox-image/turn"
go_bin="${HANGAR_GO:-$(command -v go || true)}"
[ -z "$go_bin" ] && [ -x /usr/local/go/bin/go ] && go_bin=/usr/local/go/bin/go
if [ -d "$agent_src" ] && { [ -z "$go_bin" ] || ! "$go_bin" version >/dev/null 2>&1; }; then
  die "the sandbox image's test coding agent (scripts/sandbox-image/agent) is written in Go and needs the Go toolchain (>= 1.19) to build: install Go (Debian: apt-get install golang-go; or put it at /usr/local/go) or set HANGAR_GO to the go binary"
fi

# The coding-agent CLIs: agents.json, checked and turned into a plan for this arch (one
# tab-separated line per step) before any work, so a bad pin stops the build at once.
agents_json="$repo/scripts/sandbox-image/agents.json"
agents_root=/opt/hangar/agents
arch="$(dpkg --print-architecture 2>/dev/null || uname -m)"
agents_plan=""
if [ -f "$agents_json" ]; then
  command -v node >/dev/null 2>&1 \
    || die "node is needed to read scripts/sandbox-image/agents.json (and npm to fetch the agent CLIs): install Node.js >= 18 with npm"
  agents_plan="$(node - "$agents_json" "$arch" <<'NODE'
const fs = require('fs');
const [file, arch] = process.argv.slice(2);
const fail = (m) => { console.error(`${file}: ${m}`); process.exit(1); };
let pins;
try { pins = JSON.parse(fs.readFileSync(file, 'utf8')); } catch (e) { fail(e.message); }
const exact = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;
const pkgName = /^(@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*$/;
const word = /^[a-z0-9][a-z0-9._-]*$/;
const relPath = (p) => typeof p === 'string' && /^[A-Za-z0-9._@/+-]+$/.test(p) && !p.startsWith('/')
  && !p.split('/').some((s) => s === '' || s === '.' || s === '..');
const check = (ok, m) => { if (!ok) fail(m); };
const out = [];
const node = pins.node;
check(node && exact.test(node.version || ''), 'node.version must be an exact version');
const np = (node.platforms || {})[arch];
if (np) {
  check(pkgName.test(np.package || '') && relPath(np.bin), `node.platforms.${arch} needs package and bin`);
  out.push(['node', 'node', 'node', 'node', np.package, node.version, '-', np.bin]);
} else {
  out.push(['skip', 'node', 'node', `agents.json has no node package for ${arch}`]);
}
const seen = new Set(['node']);
for (const a of pins.agents || []) {
  const id = a.id || '?';
  check(/^agent_[0-9]+$/.test(id), `agent id ${id}: must be agent_<n>`);
  check(word.test(a.name || '') && word.test(a.command || ''), `${id}: name and command must be lowercase words`);
  check(!seen.has(a.name) && !seen.has(a.command), `${id}: name or command used twice`);
  seen.add(a.name); seen.add(a.command);
  if (a.operatorSupplied) { out.push(['operator', id, a.name, a.command]); continue; }
  check(pkgName.test(a.package || '') && exact.test(a.version || ''), `${id}: needs package and an exact version`);
  if (a.runtime === 'node') {
    check(relPath(a.bin), `${id}: bin must be a relative path inside the package`);
    if (!np) out.push(['skip', id, a.command, `it runs on node, which has no package for ${arch}`]);
    else out.push(['npm', id, a.name, a.command, a.package, a.version, '-', a.bin]);
    continue;
  }
  const p = (a.platforms || {})[arch];
  if (!p) { out.push(['skip', id, a.command, `agents.json has no ${arch} package for ${a.package}`]); continue; }
  check(pkgName.test(p.native || '') && relPath(p.bin), `${id}: platforms.${arch} needs native and bin`);
  out.push(['native', id, a.name, a.command, a.package, a.version, p.native, p.bin]);
}
console.log(out.map((l) => l.join('\t')).join('\n'));
NODE
  )" || die "scripts/sandbox-image/agents.json is not valid (see above)"
fi
agent3_source
if [ "$agent3_kind" = missing ]; then die "HANGAR_AGENT_3_BINARY=$agent3_path: no such file or directory"; fi
if [ "$agent3_kind" = dir ] && [ ! -x "$agent3_path/$agent3_exec" ]; then
  die "HANGAR_AGENT_3_BINARY: $agent3_path has no executable $agent3_exec (give the Cursor CLI's executable, or its unpacked directory)"
fi

mkdir -p "$cache_dir"
# One build at a time per cache dir (a concurrent setup.sh waits here instead of racing).
exec 8>"$cache_dir/sandbox-build.lock"
if command -v flock >/dev/null 2>&1; then flock 8; fi

work=""
trap 'rc=$?; [ -n "${prefetch_pid:-}" ] && kill "$prefetch_pid" 2>/dev/null && wait "$prefetch_pid" 2>/dev/null; remove_work; exit "$rc"' EXIT
trap 'exit 130' INT TERM
work="$(mktemp -d "$cache_dir/sandbox-build.XXXXXX")"

# --- The coding-agent CLIs ---------------------------------------------------------------------
# Registry tarballs are cached as <cache>/agents/<name>-<version>.tgz (scope's "/" as "+"), and
# the npm-installed tree of a node agent as
# <cache>/agents/tree-<name>-<version>-linux-<cpu>-<key>.tar (key: the npm install flags), so a
# rebuild downloads nothing. npm runs with a throw-away cache in the work dir (the tarballs are
# kept here; a root-owned ~/.npm under sudo is avoided) and never runs install scripts.
agents_cache="$cache_dir/agents"
agents_log="$cache_dir/agents-npm.log"
agents_label=""
agents_manifest=()
mkdir -p "$agents_cache"

need_npm() {
  command -v npm >/dev/null 2>&1 || die "npm is needed to fetch the agent CLIs from the npm registry (none cached for this pin): install Node.js with npm"
}

# Fetches NAME@VERSION from the npm registry unless cached; sets $packed to the tarball.
npm_pack() {
  local name="$1" version="$2" dest tmp
  local -a got
  dest="$agents_cache/${name//\//+}-$version.tgz"
  packed="$dest"
  if [ -s "$dest" ]; then return 0; fi
  need_npm
  tmp="$(mktemp -d "$work/pack.XXXXXX")"
  say "  npm pack $name@$version"
  if ! (cd "$tmp" && npm pack "$name@$version" --pack-destination "$tmp" --cache "$work/npm-cache" \
      --no-update-notifier --loglevel=error) >>"$agents_log" 2>&1; then
    tail -n 15 "$agents_log" >&2
    die "npm pack $name@$version failed (does the machine reach the npm registry? log: $agents_log)"
  fi
  got=("$tmp"/*.tgz)
  if [ ${#got[@]} -ne 1 ] || [ ! -s "${got[0]}" ]; then die "npm pack $name@$version left no single tarball in $tmp"; fi
  mv -f "${got[0]}" "$dest"   # same filesystem as the cache: atomic
  rm -rf "$tmp"
}

# Unpacks a registry tarball (its top folder stripped) into DEST; extra arguments go to tar.
unpack() {
  local tgz="$1" dest="$2"
  shift 2
  mkdir -p "$dest"
  tar -C "$dest" --strip-components=1 --no-same-owner "$@" -xzf "$tgz" \
    || die "could not unpack $tgz (delete it to fetch it again)"
}

# Checks that DIR/package.json is NAME@VERSION.
check_manifest() {
  # shellcheck disable=SC2016  # JavaScript, not shell
  node -e '
    const [dir, name, version] = process.argv.slice(1);
    const p = require(dir + "/package.json");
    if (p.name !== name || p.version !== version) {
      console.error(`${dir}: package.json says ${p.name}@${p.version}, expected ${name}@${version}`);
      process.exit(1);
    }' "$1" "$2" "$3" || die "unexpected package in $1"
}

# The registry spec of a native optional dependency, as a release's package.json declares it
# ("1.2.3", or an npm alias "npm:pkg@1.2.3-linux-x64"); prints "name version".
native_spec() {
  # shellcheck disable=SC2016  # JavaScript, not shell
  node -e '
    const [dir, dep] = process.argv.slice(1);
    const spec = (require(dir + "/package.json").optionalDependencies || {})[dep];
    if (!spec) { console.error(`${dir}: no optional dependency ${dep}`); process.exit(1); }
    const m = /^npm:((?:@[^/@]+\/)?[^@]+)@(.+)$/.exec(spec);
    const [name, version] = m ? [m[1], m[2]] : [dep, spec];
    if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(version)) {
      console.error(`${dir}: ${dep} is "${spec}", not an exact version`); process.exit(1);
    }
    console.log(name + " " + version);' "$1" "$2"
}

# Points /usr/local/bin/COMMAND at TARGET (an absolute path in the image) after checking it.
link_launcher() {
  local command="$1" target="$2"
  if [ ! -f "$root$target" ] || [ ! -x "$root$target" ]; then die "$target is missing or not executable in the image"; fi
  ln -sfn "$target" "$root/usr/local/bin/$command"
}

manifest_add() { agents_manifest+=("$(printf '    {"id": "%s", "command": "/usr/local/bin/%s", %s}' "$@")"); }

# Installs NAME's npm dependency tree for the image's arch on the host (no scripts), unless
# cached; sets $tree_tar to the cached tarball.
npm_tree() {
  local pkg="$1" version="$2" name="$3" npm_cpu tree_flags tree_key stage
  case "$arch" in amd64) npm_cpu=x64 ;; arm64) npm_cpu=arm64 ;; *) npm_cpu="$arch" ;; esac
  tree_flags="--omit=dev --ignore-scripts --save-exact --os=linux --cpu=$npm_cpu --libc=glibc"
  tree_key="$(printf '%s\n' 1 "$pkg" "$version" "$tree_flags" | sha256sum | cut -c1-12)"
  tree_tar="$agents_cache/tree-${pkg//\//+}-$version-linux-$npm_cpu-$tree_key.tar"
  [ -s "$tree_tar" ] && return 0
  need_npm
  stage="$work/stage-$name"
  mkdir -p "$stage"
  printf '{ "private": true }\n' >"$stage/package.json"
  say "  npm install $pkg@$version (dependencies, $tree_flags)"
  # shellcheck disable=SC2086  # tree_flags is a list of flags
  if ! (cd "$stage" && npm install $tree_flags --no-audit --no-fund --no-update-notifier \
      --loglevel=error --cache "$work/npm-cache" "$pkg@$version") >>"$agents_log" 2>&1; then
    tail -n 15 "$agents_log" >&2
    die "npm install $pkg@$version failed (log: $agents_log)"
  fi
  check_manifest "$stage/node_modules/$pkg" "$pkg" "$version"
  tar -C "$stage" --numeric-owner -cf "$tree_tar.tmp" . || die "could not write $tree_tar.tmp"
  mv -f "$tree_tar.tmp" "$tree_tar"
  rm -rf "$stage"
}

# Fills the agents cache from the registry (the network part of the agent CLIs), so that it can
# run while debootstrap builds the base rootfs; the install below then finds every tarball cached.
prefetch_agents() {
  local kind id name command pkg version dep bin native_name native_version start=$SECONDS
  while IFS=$'\t' read -r kind id name command pkg version dep bin; do
    case "$kind" in
      node) npm_pack "$pkg" "$version" ;;
      native)
        npm_pack "$pkg" "$version"
        rm -rf "$work/prefetch-$name"
        unpack "$packed" "$work/prefetch-$name"
        read -r native_name native_version < <(native_spec "$work/prefetch-$name" "$dep") \
          || die "$pkg@$version names no usable $dep package"
        npm_pack "$native_name" "$native_version"
        rm -rf "$work/prefetch-$name" ;;
      npm) npm_tree "$pkg" "$version" "$name" ;;
    esac
  done <<<"$agents_plan"
  say "agent CLIs: cache filled in $((SECONDS - start))s (beside the base rootfs)"
}

hash="$(inputs_hash)"
# The base tarball keeps its earlier name, so machines that have it build nothing new.
prefetch_pid=""
if [ -n "$agents_plan" ]; then
  prefetch_agents &
  prefetch_pid=$!
fi
base_rootfs sandbox "$base_suite" "$base_variant" "$base_include" "$arch" "$base_recipe_version"
if [ -n "$prefetch_pid" ]; then
  wait "$prefetch_pid" || die "fetching the agent CLIs failed (see above)"
  prefetch_pid=""
fi

root="$work/rootfs"
mkdir "$root"
tar -C "$root" --numeric-owner -xpf "$base_tar"

# The sandbox user. The image itself keeps USER unset (root): the runtime picks the user per
# container.
if ! chroot "$root" getent passwd hangar >/dev/null; then
  chroot "$root" groupadd --gid 1000 hangar
  chroot "$root" useradd --uid 1000 --gid 1000 --create-home --home-dir /home/hangar --shell /bin/bash hangar
fi
chroot "$root" apt-get clean
rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin

# The overlay: root-owned, modes normalised to 644/755, existing directories left as they are.
overlay="$repo/scripts/sandbox-image/rootfs"
if [ -d "$overlay" ]; then
  tar -C "$overlay" --exclude=.gitkeep --owner=0 --group=0 --numeric-owner \
      --mode='u+rwX,go+rX,go-w' -cf - . \
    | tar -C "$root" --no-overwrite-dir --numeric-owner -xpf -
  chown -R 1000:1000 "$root/home/hangar"
fi

# The test agent and the in-workspace `hangar` CLI: static binaries (no cgo), no module
# downloads (stdlib only, GOPROXY=off).
if [ -d "$agent_src" ]; then
  case "$arch" in
    amd64|arm64|s390x|riscv64) goarch="$arch" ;;
    armhf|armel) goarch=arm ;;
    i386) goarch=386 ;;
    ppc64el) goarch=ppc64le ;;
    *) goarch="$("$go_bin" env GOARCH)" ;;
  esac
  say "test agent: $("$go_bin" version | cut -d' ' -f3) build for linux/$goarch"
  mkdir -p "$root/usr/local/bin"
  if ! (cd "$agent_src" && CGO_ENABLED=0 GOOS=linux GOARCH="$goarch" GOTOOLCHAIN=local GOPROXY=off GOWORK=off GOFLAGS='' \
      "$go_bin" build -trimpath -ldflags='-s -w' -o "$root/usr/local/bin/hangar-test-agent" .); then
    die "building the test agent (scripts/sandbox-image/agent) failed"
  fi
  chmod 755 "$root/usr/local/bin/hangar-test-agent"
  say "workspace CLI: build for linux/$goarch"
  if ! (cd "$cli_src" && CGO_ENABLED=0 GOOS=linux GOARCH="$goarch" GOTOOLCHAIN=local GOPROXY=off GOWORK=off GOFLAGS='' \
      "$go_bin" build -trimpath -ldflags='-s -w' -o "$root/usr/local/bin/hangar" .); then
    die "building the workspace CLI (scripts/sandbox-image/cli) failed"
  fi
  chmod 755 "$root/usr/local/bin/hangar"
  say "turn supervisor: build for linux/$goarch"
  if ! (cd "$turn_src" && CGO_ENABLED=0 GOOS=linux GOARCH="$goarch" GOTOOLCHAIN=local GOPROXY=off GOWORK=off GOFLAGS='' \
      "$go_bin" build -trimpath -ldflags='-s -w' -o "$root/usr/local/bin/hangar-turn" .); then
    die "building the turn supervisor (scripts/sandbox-image/turn) failed"
  fi
  chmod 755 "$root/usr/local/bin/hangar-turn"
fi

agents_start=$SECONDS
if [ -n "$agents_plan" ]; then
  say "agent CLIs for $arch, from scripts/sandbox-image/agents.json (cache $agents_cache)"
  mkdir -p "$root$agents_root" "$root/usr/local/bin"
  node_bin=""
  while IFS=$'\t' read -r kind id name command pkg version dep bin; do
    case "$kind" in
      skip)
        # Here the fields are: kind, id, command, reason.
        if [ "$id" = "$name" ]; then who="$id"; else who="$id ($name)"; fi
        say "warning: $who is not in this image: $command" ;;
      node)
        npm_pack "$pkg" "$version"
        # Only the runtime: no C headers (nothing is compiled) and no changelog.
        unpack "$packed" "$root$agents_root/node" --exclude=package/include --exclude=package/CHANGELOG.md
        check_manifest "$root$agents_root/node" "$pkg" "$version"
        node_bin="$agents_root/node/$bin"
        link_launcher node "$node_bin"
        agents_label+="node@$version,"
        manifest_add node node "\"package\": \"$pkg@$version\", \"target\": \"$node_bin\""
        say "  node $version ($pkg) -> /usr/local/bin/node" ;;
      native)
        # The release's package.json names the native package (and its exact version) for the arch;
        # the release package itself is only a JS shim whose install script copies that binary in.
        npm_pack "$pkg" "$version"
        rm -rf "$work/release"
        unpack "$packed" "$work/release"
        check_manifest "$work/release" "$pkg" "$version"
        read -r native_name native_version < <(native_spec "$work/release" "$dep") \
          || die "$pkg@$version names no usable $dep package"
        npm_pack "$native_name" "$native_version"
        unpack "$packed" "$root$agents_root/$name"
        check_manifest "$root$agents_root/$name" "$native_name" "$native_version"
        link_launcher "$command" "$agents_root/$name/$bin"
        agents_label+="$command@$version,"
        manifest_add "$id" "$command" "\"package\": \"$pkg@$version\", \"native\": \"$native_name@$native_version\", \"target\": \"$agents_root/$name/$bin\""
        say "  $id $command $version ($native_name@$native_version) -> $agents_root/$name/$bin" ;;
      npm)
        # A JavaScript CLI: its npm dependency tree, installed once on the host (no scripts, Linux
        # packages of the arch) and cached; run by the image's node through a wrapper.
        [ -n "$node_bin" ] || die "$id ($pkg) needs node, which is not in the image"
        npm_tree "$pkg" "$version" "$name"
        mkdir -p "$root$agents_root/$name"
        tar -C "$root$agents_root/$name" --no-same-owner -xf "$tree_tar" || die "could not unpack $tree_tar (delete it to install again)"
        check_manifest "$root$agents_root/$name/node_modules/$pkg" "$pkg" "$version"
        entry="$agents_root/$name/node_modules/$pkg/$bin"
        [ -f "$root$entry" ] || die "$pkg@$version has no $bin"
        printf '#!/bin/sh\n# %s %s (%s), run by the image'\''s node\nexec %s %s "$@"\n' \
          "$command" "$version" "$pkg" "$node_bin" "$entry" >"$root/usr/local/bin/$command"
        chmod 755 "$root/usr/local/bin/$command"
        agents_label+="$command@$version,"
        manifest_add "$id" "$command" "\"package\": \"$pkg@$version\", \"target\": \"$entry\", \"runtime\": \"$node_bin\""
        say "  $id $command $version ($(cd "$root$agents_root/$name" && node -p 'Object.keys(require("./package-lock.json").packages).filter((p) => p && require("fs").existsSync(p)).length') packages) -> wrapper running $entry" ;;
      operator)
        agent3_source
        case "$agent3_kind" in
          "")
            say "  $id $command: not in this image (HANGAR_AGENT_3_BINARY is unset; it is in no registry this build can reach)" ;;
          file|dir)
            [[ "$agent3_exec" =~ ^[A-Za-z0-9._-]+$ ]] || die "HANGAR_AGENT_3_BINARY: unusable file name $agent3_exec"
            mkdir -p "$root$agents_root/$name"
            if [ "$agent3_kind" = file ]; then
              cp -- "$agent3_path" "$root$agents_root/$name/$agent3_exec"
            else
              cp -R -- "$agent3_path/." "$root$agents_root/$name/"
            fi
            chmod 755 "$root$agents_root/$name/$agent3_exec" 2>/dev/null || true
            link_launcher "$command" "$agents_root/$name/$agent3_exec"
            agents_label+="$command@operator,"
            manifest_add "$id" "$command" "\"package\": \"HANGAR_AGENT_3_BINARY\", \"target\": \"$agents_root/$name/$agent3_exec\""
            say "  $id $command from HANGAR_AGENT_3_BINARY ($agent3_kind $agent3_path) -> $agents_root/$name/$agent3_exec" ;;
        esac ;;
    esac
  done <<<"$agents_plan"
  # Root-owned, world-readable; executables stay executable for everyone.
  chown -R 0:0 "$root$agents_root"
  chmod -R u+rwX,go+rX,go-w "$root$agents_root"
  {
    printf '{\n  "arch": "%s",\n  "agents": [\n' "$arch"
    if [ ${#agents_manifest[@]} -gt 0 ]; then
      printf '%s,\n' "${agents_manifest[@]}" | sed '$ s/,$//'
    fi
    printf '  ]\n}\n'
  } >"$root$agents_root/manifest.json"
  chmod 644 "$root$agents_root/manifest.json"
  agents_label="${agents_label%,}"
  say "agent CLIs: $(du -sm "$root$agents_root" | cut -f1) MB in $agents_root, $((SECONDS - agents_start))s"
fi

say "importing $image (inputs $hash)"
image_id="$(tar -C "$root" --numeric-owner -cf - . | docker import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'ENV HOME=/home/hangar' \
  --change 'ENV LANG=C.UTF-8' \
  --change 'CMD ["/bin/bash"]' \
  --change "LABEL dev.hangar.inputs=$hash" \
  --change "LABEL dev.hangar.base=$base_suite-$arch-$base_key" \
  --change "LABEL dev.hangar.agents=${agents_label:-none}" \
  --message "hangar sandbox image, inputs $hash" \
  - )"
docker tag "$image_id" "$image"
say "built $image ($image_id)"
