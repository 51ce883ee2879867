#!/usr/bin/env bash
# Assembles node-core/vendor/linux-x64/{ugrep,bfs,rg}: the search tools the Bash-tool shims run
# (see README "Search shims"). Each tool is the system's own binary when it is new enough, otherwise
# Debian 13 (trixie)'s package, fetched with a private apt configuration (the system's sources, lists
# and status are never read for this nor written) and made to run on older glibc (Debian 12) by
# shipping the libraries it needs beside it and starting it through the bundled dynamic loader.
#
# Idempotent: when the vendor directory is complete and its tools run, it exits at once.
#   --portable   never copy system binaries: every tool comes from trixie with its loader and
#                libraries, so the directory runs on any x86-64 Linux (use this for packaging)
#   --force      rebuild even when the directory is up to date
#   --dest DIR   build into DIR instead of node-core/vendor/linux-x64
# Environment: WAVE_VENDOR_MIRROR, WAVE_VENDOR_SECURITY_MIRROR (Debian mirrors), WAVE_VENDOR_SUITE.
set -euo pipefail

RECIPE=1
SUITE=${WAVE_VENDOR_SUITE:-trixie}
MIRROR=${WAVE_VENDOR_MIRROR:-http://deb.debian.org/debian}
SECURITY_MIRROR=${WAVE_VENDOR_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
TOOLS=(ugrep bfs rg)
# The oldest versions the shims accept as-is: ugrep 7 honours .gitignore (entries without a trailing
# slash, anchored patterns) and exit codes like GNU grep; bfs 4 has -regextype findutils-default.
declare -A MIN_VERSION=([ugrep]=7.0 [bfs]=4.0 [rg]=13.0)
declare -A PACKAGE=([ugrep]=ugrep [bfs]=bfs [rg]=ripgrep)

say() { echo "vendor: $*" >&2; }
die() { say "$*"; exit 1; }

node_core=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dest=$node_core/vendor/linux-x64
portable=0 force=0
while (($#)); do
  case $1 in
    --portable) portable=1 ;;
    --force) force=1 ;;
    --dest) [[ $# -ge 2 ]] || die "--dest needs a directory"; dest=$2; shift ;;
    -h|--help) sed -n '2,13p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (try --help)" ;;
  esac
  shift
done
mode=$([[ $portable == 1 ]] && echo portable || echo default)

if [[ $(uname -s) != Linux || $(uname -m) != x86_64 ]]; then
  say "skipping: this script assembles the linux-x64 directory and this machine is $(uname -s) $(uname -m)"
  exit 0
fi

version_of() { # first line "<name> <version> ..." of --version
  "$1" --version 2>/dev/null | awk 'NR == 1 { print $2; exit }'
}
version_ge() { # $1 >= $2 (both dotted numbers)
  [[ -n $1 ]] && [[ $(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1) == "$2" ]]
}

up_to_date() {
  local t v
  [[ -f $dest/VERSIONS ]] || return 1
  case $(head -n1 "$dest/VERSIONS") in
    "recipe $RECIPE mode portable") ;;
    "recipe $RECIPE mode default") [[ $mode == default ]] || return 1 ;;
    *) return 1 ;;
  esac
  for t in "${TOOLS[@]}"; do
    v=$(version_of "$dest/$t") || return 1
    version_ge "$v" "${MIN_VERSION[$t]}" || return 1
  done
}

if [[ $force == 0 ]] && up_to_date; then
  say "up to date: $(tail -n +2 "$dest/VERSIONS" | awk '{ printf "%s%s %s", sep, $1, $2; sep = ", " }')"
  exit 0
fi

mkdir -p "$(dirname "$dest")"
stage=$(mktemp -d "$(dirname "$dest")/.linux-x64.build.XXXXXX")
work=$(mktemp -d "${TMPDIR:-/tmp}/wave-vendor.XXXXXX")
trap 'rm -rf "$stage" "$work"' EXIT
chmod 755 "$stage" "$work"
manifest=("recipe $RECIPE mode $mode")

# 1. System binaries that are new enough.
need=()
for t in "${TOOLS[@]}"; do
  sys=$(command -v "$t" || true)
  if [[ $portable == 0 && -n $sys ]] && v=$(version_of "$sys") && version_ge "$v" "${MIN_VERSION[$t]}"; then
    cp -L "$sys" "$stage/$t"
    chmod 755 "$stage/$t"
    manifest+=("$t $v system $sys")
  else
    need+=("$t")
  fi
done

# 2. The rest from Debian $SUITE, with apt state kept in $work.
if ((${#need[@]} > 0)); then
  command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null ||
    die "apt-get and dpkg-deb are needed to fetch ${need[*]} from Debian $SUITE; or put binaries (ugrep >= ${MIN_VERSION[ugrep]}, bfs >= ${MIN_VERSION[bfs]}) in $dest yourself"
  [[ -r $KEYRING ]] || die "$KEYRING is missing: install debian-archive-keyring"
  apt_dir=$work/apt debs=$work/debs root=$work/root
  mkdir -p "$apt_dir"/{lists/partial,cache/archives/partial,sources.list.d,preferences.d} "$debs" "$root"
  : >"$apt_dir/status"
  cat >"$apt_dir/sources.list.d/wave-vendor.sources" <<EOF
Types: deb
URIs: $MIRROR
Suites: $SUITE $SUITE-updates
Components: main
Signed-By: $KEYRING

Types: deb
URIs: $SECURITY_MIRROR
Suites: $SUITE-security
Components: main
Signed-By: $KEYRING
EOF
  chmod -R a+rX "$work"
  # apt drops to the _apt user for downloads when run as root; let it write where we download.
  if [[ $(id -u) == 0 ]] && id _apt >/dev/null 2>&1; then chown _apt "$apt_dir/lists/partial" "$debs"; fi
  apt_opts=(
    -o "Dir::Etc::SourceList=/dev/null" -o "Dir::Etc::SourceParts=$apt_dir/sources.list.d"
    -o "Dir::Etc::Preferences=/dev/null" -o "Dir::Etc::PreferencesParts=$apt_dir/preferences.d"
    -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::State::status=$apt_dir/status"
    -o "Dir::Cache=$apt_dir/cache" -o "Debug::NoLocking=1"
    -o "APT::Architecture=amd64" -o "APT::Architectures::=amd64"
  )
  pkgs=()
  for t in "${need[@]}"; do pkgs+=("${PACKAGE[$t]}"); done
  say "fetching ${pkgs[*]} and their libraries from Debian $SUITE"
  apt-get "${apt_opts[@]}" -qq update >/dev/null || die "apt-get update for Debian $SUITE failed (mirror $MIRROR)"
  mapfile -t closure < <(apt-cache "${apt_opts[@]}" depends --recurse --no-recommends --no-suggests \
    --no-conflicts --no-breaks --no-replaces --no-enhances "${pkgs[@]}" | grep -v '^[ <]' | sort -u)
  ((${#closure[@]} > 0)) || die "could not resolve the dependencies of ${pkgs[*]} in Debian $SUITE"
  (cd "$debs" && apt-get "${apt_opts[@]}" -qq download "${closure[@]}" >/dev/null) ||
    die "downloading ${closure[*]} from Debian $SUITE failed"
  for deb in "$debs"/*.deb; do dpkg-deb -x "$deb" "$root"; done

  libdirs=$root/usr/lib/x86_64-linux-gnu:$root/lib/x86_64-linux-gnu
  loader=$root/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
  [[ -x $loader ]] || loader=$root/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
  [[ -x $loader ]] || die "the $SUITE libc6 package has no dynamic loader where expected"
  mkdir -p "$stage/lib" "$stage/libexec" "$stage/licenses"
  cp -L "$loader" "$stage/lib/ld-linux-x86-64.so.2"
  for t in "${need[@]}"; do
    pkg=${PACKAGE[$t]}
    bin=$root/usr/bin/$t
    [[ -x $bin ]] || die "the $SUITE package $pkg has no usr/bin/$t"
    cp -L "$bin" "$stage/libexec/$t"
    # Every shared object the binary loads, by the name it asks for (its soname).
    while read -r name arrow file _; do
      [[ $arrow == "=>" ]] || continue
      [[ $name == */ld-linux-x86-64.so.2 ]] && continue
      [[ -f $file ]] || die "$t needs $name, which no $SUITE package provides"
      cp -L "$file" "$stage/lib/$name"
    done < <("$loader" --library-path "$libdirs" --list "$bin")
    cat >"$stage/$t" <<EOF
#!/bin/sh
# Debian $SUITE $pkg, started through its own dynamic loader and libraries so it also runs where the
# system's glibc is older. Built by node-core/scripts/vendor-linux-x64.sh.
case \$0 in */*) d=\${0%/*} ;; *) d=. ;; esac
exec "\$d/lib/ld-linux-x86-64.so.2" --library-path "\$d/lib" --argv0 $t "\$d/libexec/$t" "\$@"
EOF
    chmod 755 "$stage/$t"
    manifest+=("$t $(version_of "$stage/$t") debian-$SUITE $(basename "$(ls "$debs/${pkg}"_*.deb)" .deb)")
  done
  for doc in "$root"/usr/share/doc/*/copyright; do
    cp "$doc" "$stage/licenses/$(basename "$(dirname "$doc")").copyright"
  done
fi

# 3. Every tool must run here and be new enough, or nothing is installed.
for t in "${TOOLS[@]}"; do
  v=$(version_of "$stage/$t") || true
  version_ge "$v" "${MIN_VERSION[$t]}" || die "$stage/$t does not run or is too old (got '${v:-nothing}')"
done
printf '%s\n' "${manifest[@]}" >"$stage/VERSIONS"

old=$dest.old.$$
if [[ -e $dest ]]; then mv "$dest" "$old"; fi
mv "$stage" "$dest"
rm -rf "$old"
say "assembled $dest: $(tail -n +2 "$dest/VERSIONS" | awk '{ printf "%s%s %s (%s)", sep, $1, $2, $3; sep = ", " }')"
