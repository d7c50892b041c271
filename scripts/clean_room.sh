#!/usr/bin/env bash
# The clean-room check: does kerascpp install, build and pass on a pristine Debian 12 machine?
# Builds a minimal Debian 12 root with debootstrap (from the Debian mirror the host's apt sources name),
# copies a clean clone of this repository's HEAD (and ../shared, when it exists) into it, and runs there,
# as root, exactly what the README tells a new user: scripts/demo.sh, then scripts/test.sh.
#   scripts/clean_room.sh                  the two README commands
#   scripts/clean_room.sh -- 'CMD' ...     then each CMD too (a bash command run in the clone's folder),
#                                          reusing the clean room's build (.ci/run adds the AVX2 suite and
#                                          the package check this way)
# The host's ccache folder is shared with the root (CLEAN_ROOM_CCACHE=0 does not): see below.
# Prints each step with its duration and exits non-zero on the first failure. Cleans up after itself:
# its mounts and the root folder (KEEP_CLEAN_ROOT=1 keeps the root for a look inside).
# Needs root (debootstrap, mount, chroot).

set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
extra=()
if [ $# -gt 0 ]; then
  [ "$1" = "--" ] || { echo "usage: scripts/clean_room.sh [-- 'COMMAND' ...]" >&2; exit 2; }
  shift
  extra=("$@")
fi
[ "$(id -u)" -eq 0 ] || { echo "error: the clean room needs root (debootstrap, mount, chroot)" >&2; exit 1; }

# The host's Debian mirror: the first bookworm source of its apt configuration, one-line or deb822 style.
host_mirror() {
  local uri
  uri=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
        sed -nE 's/^[[:space:]]*deb[[:space:]]+(\[[^]]*\][[:space:]]+)?([^[:space:]]+)[[:space:]]+bookworm[[:space:]].*/\2/p' |
        head -n1)
  if [ -z "$uri" ]; then
    uri=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk -v RS= '
      /(^|\n)Types:[^\n]*deb([ \n]|$)/ && /(^|\n)Suites:([^\n]* )?bookworm( |\n|$)/ {
        if (match($0, /(^|\n)URIs:[ \t]*[^ \t\n]+/)) { s = substr($0, RSTART, RLENGTH); sub(/.*URIs:[ \t]*/, "", s); print s; exit }
      }')
  fi
  echo "${uri:-http://deb.debian.org/debian}"
}

step() {  # step NAME COMMAND...: runs, times and reports one step
  local name=$1 start=$SECONDS
  shift
  echo "==> clean room: $name"
  if "$@"; then
    echo "==> clean room: $name: ok in $((SECONDS - start)) s"
  else
    local rc=$?
    echo "==> clean room: $name: FAILED (exit $rc) after $((SECONDS - start)) s" >&2
    exit "$rc"
  fi
}

scripts/install_deps.sh debootstrap git
mirror=$(host_mirror)
root=$(mktemp -d "${TMPDIR:-/var/tmp}/kerascpp-clean-room.XXXXXX")
mounts=()
cleanup() {
  local i
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount -l "${mounts[i]}" 2>/dev/null || true; done
  # and whatever the steps mounted inside (`ip netns add` mounts /run/netns), deepest first
  for m in $(awk -v r="$root/" 'index($2, r) == 1 {print $2}' /proc/mounts | sort -r); do umount -l "$m" 2>/dev/null || true; done
  if [ "${KEEP_CLEAN_ROOT:-0}" = 1 ]; then
    echo "==> clean room kept at $root"
  elif ! grep -q " $root/" /proc/mounts; then  # never delete through a mount that is still there
    rm -rf --one-file-system "$root"
  else
    echo "warning: $root still has mounts; not removed" >&2
  fi
}
trap cleanup EXIT

in_root() { chroot "$root" /usr/bin/env -i HOME=/root TERM="${TERM:-dumb}" LANG=C.UTF-8 \
              PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
              ${http_proxy:+http_proxy=$http_proxy} ${https_proxy:+https_proxy=$https_proxy} \
              ${host_ca:+NODE_EXTRA_CA_CERTS=$host_ca} \
              /bin/bash -c "cd /work/kerascpp && $1"; }

echo "clean room: $root (Debian 12 minbase from $mirror)"
bootstrap() {  # quiet unless it fails
  local log
  log=$(mktemp)
  debootstrap --variant=minbase bookworm "$root" "$mirror" >"$log" 2>&1 || { tail -n 20 "$log" >&2; rm -f "$log"; return 1; }
  rm -f "$log"
}
step "debootstrap bookworm" bootstrap
mounts+=("$root/proc"); mount -t proc proc "$root/proc"
mounts+=("$root/sys"); mount -t sysfs sysfs "$root/sys"
mounts+=("$root/dev"); mount --bind /dev "$root/dev"
cp /etc/resolv.conf "$root/etc/resolv.conf"
# The network around this machine, like its proxies, comes along: when Node is told to trust an extra CA
# here (an intercepting proxy's), npm inside the clean room trusts it too. The system's CA store stays pristine.
host_ca=
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f "$NODE_EXTRA_CA_CERTS" ]; then
  host_ca=/etc/kerascpp-host-extra-ca.crt
  cp "$NODE_EXTRA_CA_CERTS" "$root$host_ca"
fi

# The host's compiler cache, shared: a rerun of the same commit compiles nothing twice (a cold build of
# everything is most of CI's time budget on 2 cores). It holds object files only, each keyed by the
# compiler, its flags and the content of every header it read, so nothing the root lacks leaks in: a
# header missing there misses the cache and fails the compile; libraries are linked, never cached.
host_ccache=$(ccache -k cache_dir 2>/dev/null || true)
if [ -n "$host_ccache" ] && [ "${CLEAN_ROOM_CCACHE:-1}" = 1 ]; then
  mkdir -p "$host_ccache" "$root/root/.cache/ccache"
  mounts+=("$root/root/.cache/ccache"); mount --bind "$host_ccache" "$root/root/.cache/ccache"
  echo "clean room: sharing the compiler cache $host_ccache (CLEAN_ROOM_CCACHE=0 builds cold)"
fi

# A clean clone of what is committed: nothing untracked or built here leaks in.
mkdir -p "$root/work"
step "clone HEAD" git clone --quiet --no-hardlinks "$repo" "$root/work/kerascpp"
if [ -d "$repo/../shared" ]; then step "copy ../shared" cp -rL "$repo/../shared" "$root/work/shared"; fi  # -L: a symlinked ../shared arrives as files

step "scripts/demo.sh" in_root scripts/demo.sh
step "scripts/test.sh" in_root scripts/test.sh
for cmd in "${extra[@]}"; do step "$cmd" in_root "$cmd"; done
echo "==> clean room: all steps passed in $SECONDS s"
