# Debian root filesystems for images built without any image registry (sourced by
# scripts/build-sandbox-image.sh and scripts/images/build.sh). The caller defines say and die,
# and sets cache_dir and work (a scratch directory it removes with remove_work).

# The mirror: HANGAR_DEBIAN_MIRROR, else the first non-security Debian URI that the host's apt
# sources use for SUITE, else the first non-security Debian URI, else deb.debian.org.
detect_mirror() {
  local suite="$1"
  if [ -n "${HANGAR_DEBIAN_MIRROR:-}" ]; then echo "$HANGAR_DEBIAN_MIRROR"; return; fi
  local files=() f uri
  for f in /etc/apt/sources.list.d/*.sources /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] && files+=("$f")
  done
  if [ ${#files[@]} -gt 0 ]; then
    uri="$(awk -v suite="$suite" '
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

# Removes the work dir: debootstrap may leave proc/sys (or a bind-mounted /dev inside a
# container) mounted when it fails, so everything below it is unmounted first, and the removal
# never crosses filesystems.
remove_work() {
  if [ -n "${work:-}" ] && [ -d "$work" ]; then
    awk -v w="$work/" 'index($2, w) == 1 { print $2 }' /proc/mounts | sort -r | while read -r m; do
      umount -l "$m" 2>/dev/null || true
    done
    rm -rf --one-file-system "$work"
  fi
}

# base_rootfs NAME SUITE VARIANT INCLUDE ARCH RECIPE_VERSION: a debootstrap rootfs tarball,
# cached in the cache dir under a key of its recipe (made once per machine). Sets base_tar and
# base_key.
base_rootfs() {
  local name="$1" suite="$2" variant="$3" include="$4" arch="$5" recipe="$6" mirror log start
  base_key="$(printf '%s\n' "$recipe" "$suite" "$variant" "$include" "$arch" | sha256sum | cut -c1-16)"
  base_tar="$cache_dir/$name-base-$suite-$arch-$base_key.tar"
  if [ -s "$base_tar" ]; then
    say "base rootfs: cached $base_tar"
    return 0
  fi
  if ! command -v debootstrap >/dev/null 2>&1; then
    command -v apt-get >/dev/null 2>&1 || die "debootstrap is missing and there is no apt-get to install it"
    say "installing debootstrap (apt-get)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -qq debootstrap >/dev/null 2>&1 \
      || { apt-get update -qq >/dev/null && apt-get install -y -qq debootstrap >/dev/null; } \
      || die "could not install debootstrap"
  fi
  mirror="$(detect_mirror "$suite")"
  log="$cache_dir/debootstrap-$name.log"
  say "base rootfs: debootstrap $variant $suite ($arch) from $mirror (a few minutes; log $log)"
  start=$SECONDS
  if ! debootstrap --variant="$variant" --include="$include" --arch="$arch" \
      "$suite" "$work/base" "$mirror" >"$log" 2>&1; then
    tail -n 20 "$log" >&2
    die "debootstrap failed (full log: $log)"
  fi
  tar -C "$work/base" --numeric-owner -cf "$work/base.tar" .
  mv -f "$work/base.tar" "$base_tar"   # same filesystem: atomic
  rm -rf --one-file-system "$work/base"
  say "base rootfs: built in $((SECONDS - start))s, cached as $base_tar"
}
