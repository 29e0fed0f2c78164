#!/usr/bin/env bash
# Builds the Hangar sandbox image without any image registry:
#   1. a Debian bookworm minbase rootfs from debootstrap, cached as a tarball in the cache dir
#      (keyed by the base recipe below, so it is made once per machine);
#   2. a temp copy of it with the `hangar` user (uid/gid 1000), apt caches removed and the
#      overlay scripts/sandbox-image/rootfs/ copied in, and the deterministic test coding agent
#      (scripts/sandbox-image/agent/, Go, stdlib only) compiled to /usr/local/bin/hangar-test-agent;
#   3. `docker import` of that copy, labelled dev.hangar.inputs=<hash of this script and
#      scripts/sandbox-image/>, then tagged as the image name (an atomic re-tag: a running
#      container or a concurrent `docker run` keeps the image it resolved).
#
# Usage: build-sandbox-image.sh [--image NAME] [--print-inputs-hash]
# Env:   HANGAR_SANDBOX_IMAGE (default: package.json hangar.sandboxImage),
#        HANGAR_CACHE_DIR (default: $HOME/.cache/hangar),
#        HANGAR_DEBIAN_MIRROR (default: the bookworm mirror in /etc/apt/sources*, else
#        http://deb.debian.org/debian).
# Needs root (debootstrap, chroot), a Docker engine (`docker info` answers) and Go >= 1.19
# (`go` on PATH or /usr/local/go/bin/go; HANGAR_GO names another) for the test agent.
set -euo pipefail

repo="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
cache_dir="${HANGAR_CACHE_DIR:-${HOME:-$(cd ~ && pwd)}/.cache/hangar}"

# The base rootfs recipe. Changing any of these changes the base tarball's key.
base_suite=bookworm
base_variant=minbase
base_include=bash,git,curl,ca-certificates,procps
base_recipe_version=1

say() { printf 'build-sandbox-image: %s\n' "$*"; }
die() { printf 'build-sandbox-image: error: %s\n' "$*" >&2; exit 1; }

# Hash of the image's inputs: this script and every file under scripts/sandbox-image/
# (relative path, kind, executable bit and content), independent of the checkout location.
inputs_hash() {
  (
    cd "$repo"
    {
      printf 'hangar-sandbox-inputs 1\n'
      { printf '%s\0' scripts/build-sandbox-image.sh
        find scripts/sandbox-image \( -type f -o -type l \) -print0 | LC_ALL=C sort -z
      } | while IFS= read -r -d '' f; do
        if [ -L "$f" ]; then
          printf 'link %s %s\n' "$f" "$(readlink "$f")"
        else
          if [ -x "$f" ]; then mode=755; else mode=644; fi
          printf 'file %s %s %s\n' "$f" "$mode" "$(sha256sum < "$f" | cut -d' ' -f1)"
        fi
      done
    } | sha256sum | cut -d' ' -f1
  )
}

image=""
while [ $# -gt 0 ]; do
  case "$1" in
    --print-inputs-hash) inputs_hash; exit 0 ;;
    --image) image="${2:?--image needs a name}"; shift 2 ;;
    --image=*) image="${1#--image=}"; shift ;;
    -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
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
go_bin="${HANGAR_GO:-$(command -v go || true)}"
[ -z "$go_bin" ] && [ -x /usr/local/go/bin/go ] && go_bin=/usr/local/go/bin/go
if [ -d "$agent_src" ] && { [ -z "$go_bin" ] || ! "$go_bin" version >/dev/null 2>&1; }; then
  die "the sandbox image's test coding agent (scripts/sandbox-image/agent) is written in Go and needs the Go toolchain (>= 1.19) to build: install Go (Debian: apt-get install golang-go; or put it at /usr/local/go) or set HANGAR_GO to the go binary"
fi

mkdir -p "$cache_dir"
# One build at a time per cache dir (a concurrent setup.sh waits here instead of racing).
exec 8>"$cache_dir/sandbox-build.lock"
if command -v flock >/dev/null 2>&1; then flock 8; fi

# The mirror: HANGAR_DEBIAN_MIRROR, else the first non-security Debian URI that the host's apt
# sources use for the suite, else the first non-security Debian URI, else deb.debian.org.
detect_mirror() {
  if [ -n "${HANGAR_DEBIAN_MIRROR:-}" ]; then echo "$HANGAR_DEBIAN_MIRROR"; return; fi
  local files=() f uri
  for f in /etc/apt/sources.list.d/*.sources /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] && files+=("$f")
  done
  if [ ${#files[@]} -gt 0 ]; then
    uri="$(awk -v suite="$base_suite" '
      function flush(   n, i, u) {
        if (uris != "") {
          n = split(uris, u, " ")
          for (i = 1; i <= n; i++) print (index(" " suites " ", " " suite " ") ? "1 " : "2 ") u[i]
        }
        uris = ""; suites = ""
      }
      FNR == 1 { flush() }
      FILENAME ~ /\.sources$/ {
        if ($0 ~ /^[ \t]*$/) { flush(); next }
        if (tolower($1) == "uris:") { $1 = ""; uris = $0 }
        if (tolower($1) == "suites:") { $1 = ""; suites = $0 }
        next
      }
      $1 == "deb" {
        line = $0; gsub(/\[[^]]*\]/, "", line); split(line, p, /[ \t]+/)
        print (p[3] == suite ? "1 " : "2 ") p[2]
      }
      END { flush() }
    ' "${files[@]}" 2>/dev/null \
      | awk '$2 ~ /^(https?|ftp):\/\// && tolower($2) ~ /debian/ && tolower($2) !~ /security/' \
      | sort -s -k1,1 | awk 'NR == 1 { print $2 }')"
    if [ -n "$uri" ]; then echo "${uri%/}"; return; fi
  fi
  echo "http://deb.debian.org/debian"
}

work=""
cleanup() {
  local rc=$?
  if [ -n "$work" ] && [ -d "$work" ]; then
    # debootstrap may leave proc/sys (or a bind-mounted /dev inside a container) mounted when it
    # fails: unmount everything below the work dir before deleting, and never cross filesystems.
    awk -v w="$work/" 'index($2, w) == 1 { print $2 }' /proc/mounts | sort -r | while read -r m; do
      umount -l "$m" 2>/dev/null || true
    done
    rm -rf --one-file-system "$work"
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
work="$(mktemp -d "$cache_dir/sandbox-build.XXXXXX")"

hash="$(inputs_hash)"
arch="$(dpkg --print-architecture 2>/dev/null || uname -m)"
base_key="$(printf '%s\n' "$base_recipe_version" "$base_suite" "$base_variant" "$base_include" "$arch" | sha256sum | cut -c1-16)"
base_tar="$cache_dir/sandbox-base-$base_suite-$arch-$base_key.tar"

if [ -s "$base_tar" ]; then
  say "base rootfs: cached $base_tar"
else
  if ! command -v debootstrap >/dev/null 2>&1; then
    command -v apt-get >/dev/null 2>&1 || die "debootstrap is missing and there is no apt-get to install it"
    say "installing debootstrap (apt-get)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -qq debootstrap >/dev/null 2>&1 \
      || { apt-get update -qq >/dev/null && apt-get install -y -qq debootstrap >/dev/null; } \
      || die "could not install debootstrap"
  fi
  mirror="$(detect_mirror)"
  log="$cache_dir/debootstrap.log"
  say "base rootfs: debootstrap $base_variant $base_suite ($arch) from $mirror (a few minutes; log $log)"
  start=$SECONDS
  if ! debootstrap --variant="$base_variant" --include="$base_include" --arch="$arch" \
      "$base_suite" "$work/base" "$mirror" >"$log" 2>&1; then
    tail -n 20 "$log" >&2
    die "debootstrap failed (full log: $log)"
  fi
  tar -C "$work/base" --numeric-owner -cf "$work/base.tar" .
  mv -f "$work/base.tar" "$base_tar"   # same filesystem: atomic
  rm -rf --one-file-system "$work/base"
  say "base rootfs: built in $((SECONDS - start))s, cached as $base_tar"
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

# The test agent: a static binary (no cgo), no module downloads (stdlib only, GOPROXY=off).
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
  if ! (cd "$agent_src" && CGO_ENABLED=0 GOOS=linux GOARCH="$goarch" GOTOOLCHAIN=local GOPROXY=off GOWORK=off GOFLAGS= \
      "$go_bin" build -trimpath -ldflags='-s -w' -o "$root/usr/local/bin/hangar-test-agent" .); then
    die "building the test agent (scripts/sandbox-image/agent) failed"
  fi
  chmod 755 "$root/usr/local/bin/hangar-test-agent"
fi

say "importing $image (inputs $hash)"
image_id="$(tar -C "$root" --numeric-owner -cf - . | docker import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'ENV HOME=/home/hangar' \
  --change 'ENV LANG=C.UTF-8' \
  --change 'CMD ["/bin/bash"]' \
  --change "LABEL dev.hangar.inputs=$hash" \
  --change "LABEL dev.hangar.base=$base_suite-$arch-$base_key" \
  --message "hangar sandbox image, inputs $hash" \
  - )"
docker tag "$image_id" "$image"
say "built $image ($image_id)"
