#!/usr/bin/env bash
# Assembles node-core/vendor/linux-x64/{ugrep,bfs,rg}: the search tools the Bash-tool shims run
# (docs/user/shims.md). Each tool is the system's own binary when it is new enough; otherwise it
# comes from Debian: the first suite of WAVE_VENDOR_SUITES (default: trixie, then forky) whose
# packages are all new enough, fetched with a private apt configuration (the system's apt sources,
# lists, status and hooks are neither used nor written) and made to run on older glibc (Debian 12) by
# shipping the libraries it loads beside it and starting it through the bundled dynamic loader.
#
# Idempotent: when the vendor directory is complete and its tools run, it exits at once.
#   --portable   never copy system binaries: every tool comes from Debian with its loader and
#                libraries, so the directory runs on any x86-64 Linux (use this for packaging)
#   --force      rebuild even when the directory is up to date
#   --dest DIR   build into DIR instead of node-core/vendor/linux-x64
# Environment: WAVE_VENDOR_MIRROR, WAVE_VENDOR_SECURITY_MIRROR (Debian mirrors), WAVE_VENDOR_SUITES.
set -euo pipefail

RECIPE=2
# Suite groups in order of preference; a group is a release with its update suites, comma-separated.
read -r -a SUITES <<<"${WAVE_VENDOR_SUITES:-trixie,trixie-updates,trixie-security forky}"
MIRROR=${WAVE_VENDOR_MIRROR:-http://deb.debian.org/debian}
SECURITY_MIRROR=${WAVE_VENDOR_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
TOOLS=(ugrep bfs rg)
# The oldest versions the shims use (keep in step with src/shell/shims/probe.ts):
#   ugrep 7.8.2: applies anchored patterns of nested .gitignore files (7.6) and no longer spins
#                forever on a directory named .gitignore (7.8.2); Debian 13 ships 7.4.2.
#   bfs 4.0:     -regextype findutils-default (3.3) and the flags the find shim passes.
declare -A MIN_VERSION=([ugrep]=7.8.2 [bfs]=4.0 [rg]=13.0)
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
    -h|--help) sed -n '2,15p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (try --help)" ;;
  esac
  shift
done
mode=$([[ $portable == 1 ]] && echo portable || echo default)

if [[ $(uname -s) != Linux || $(uname -m) != x86_64 ]]; then
  say "skipping: this script assembles the linux-x64 directory and this machine is $(uname -s) $(uname -m)"
  exit 0
fi

version_of() { # "<name> <version> ..." on the first line of --version
  "$1" --version 2>/dev/null | awk 'NR == 1 { print $2; exit }'
}
version_ge() { # $1 >= $2; Debian revisions and epochs are ignored (7.8.4+dfsg-1 counts as 7.8.4)
  local v=${1#*:}
  v=${v%%[-+~]*}
  [[ -n $v ]] && [[ $(printf '%s\n%s\n' "$2" "$v" | sort -V | head -n1) == "$2" ]]
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

# 2. The rest from Debian, with every piece of apt state in $work.
if ((${#need[@]} > 0)); then
  command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null ||
    die "apt-get and dpkg-deb are needed to fetch ${need[*]} from Debian; or put binaries (ugrep >= ${MIN_VERSION[ugrep]}, bfs >= ${MIN_VERSION[bfs]}) in $dest yourself"
  [[ -r $KEYRING ]] || die "$KEYRING is missing: install debian-archive-keyring"
  apt_dir=$work/apt debs=$work/debs root=$work/root
  mkdir -p "$apt_dir"/{lists/partial,cache/archives/partial,sources.list.d,preferences.d,apt.conf.d} "$debs" "$root"
  : >"$apt_dir/status"
  for group in "${SUITES[@]}"; do
    IFS=, read -r -a members <<<"$group"
    for suite in "${members[@]}"; do
      uri=$MIRROR
      [[ $suite == *-security ]] && uri=$SECURITY_MIRROR
      printf 'Types: deb\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: %s\n\n' "$uri" "$suite" "$KEYRING"
    done
  done >"$apt_dir/sources.list.d/wave-vendor.sources"
  # Only the network policy is taken from the system's configuration: its proxies, and whether it
  # accepts Release files past their Valid-Until (mirrors pinned to a snapshot need that).
  eval "$(apt-config shell http_proxy_cfg Acquire::http::Proxy https_proxy_cfg Acquire::https::Proxy \
    valid_until Acquire::Check-Valid-Until check_date Acquire::Check-Date 2>/dev/null || true)"
  # APT_CONFIG is read before the configuration parts, so pointing Dir::Etc::Parts elsewhere keeps
  # the system's apt.conf.d (and its update hooks: appstream, packagekit, ...) out entirely.
  cat >"$apt_dir/apt.conf" <<EOF
Dir::Etc::Main "/dev/null";
Dir::Etc::Parts "$apt_dir/apt.conf.d";
Dir::Etc::SourceList "/dev/null";
Dir::Etc::SourceParts "$apt_dir/sources.list.d";
Dir::Etc::Preferences "/dev/null";
Dir::Etc::PreferencesParts "$apt_dir/preferences.d";
Dir::State "$apt_dir";
Dir::State::Lists "$apt_dir/lists";
Dir::State::status "$apt_dir/status";
Dir::Cache "$apt_dir/cache";
Debug::NoLocking "true";
APT::Architecture "amd64";
APT::Architectures { "amd64"; };
Acquire::Languages "none";
${http_proxy_cfg:+Acquire::http::Proxy "$http_proxy_cfg";}
${https_proxy_cfg:+Acquire::https::Proxy "$https_proxy_cfg";}
${valid_until:+Acquire::Check-Valid-Until "$valid_until";}
${check_date:+Acquire::Check-Date "$check_date";}
EOF
  chmod -R a+rX "$work"
  # apt drops to the _apt user for downloads when run as root; let it write where it downloads.
  if [[ $(id -u) == 0 ]] && id _apt >/dev/null 2>&1; then chown _apt "$apt_dir/lists/partial" "$debs"; fi
  export APT_CONFIG=$apt_dir/apt.conf

  say "reading the package lists of Debian ${SUITES[*]%%,*}"
  apt-get -qq update >"$work/update.log" 2>&1 || { cat "$work/update.log" >&2; die "apt-get update failed (mirror $MIRROR)"; }
  # The first suite group in which every tool still needed is new enough.
  suite= found=()
  for group in "${SUITES[@]}"; do
    ok=1 found_here=()
    for t in "${need[@]}"; do
      # madison lines: " ugrep | 7.8.4+dfsg-1 | http://deb.debian.org/debian forky/main amd64 Packages"
      v=$(apt-cache madison "${PACKAGE[$t]}" | awk -F' *[|] *' -v g=",$group," '
        { split($3, a, " "); split(a[2], b, "/") } index(g, "," b[1] ",") { print $2 }' | sort -V | tail -n1)
      found_here+=("${PACKAGE[$t]} ${v:-missing}")
      version_ge "$v" "${MIN_VERSION[$t]}" || ok=0
    done
    found+=("${group%%,*}: ${found_here[*]}")
    if [[ $ok == 1 ]]; then suite=$group; break; fi
  done
  if [[ -z $suite ]]; then
    # apt-get update succeeds even when some lists could not be fetched; say so when that is why.
    failed=$(grep -E '^(W|E): (Failed to fetch|Some index files failed)' "$work/update.log" | head -n 3 || true)
    die "no Debian suite has new enough packages (need ugrep >= ${MIN_VERSION[ugrep]}, bfs >= ${MIN_VERSION[bfs]}, rg >= ${MIN_VERSION[rg]}); found: ${found[*]}${failed:+
the package lists could not all be read from $MIRROR (set WAVE_VENDOR_MIRROR to a reachable Debian mirror):
$failed}"
  fi
  # Candidates (the tools and every library they need) come from that group only where it has them.
  IFS=, read -r -a members <<<"$suite"
  for m in "${members[@]}"; do
    printf 'Package: *\nPin: release n=%s\nPin-Priority: 990\n\n' "$m"
  done >"$apt_dir/preferences.d/wave-vendor.pref"
  suite=${suite%%,*}

  pkgs=()
  for t in "${need[@]}"; do pkgs+=("${PACKAGE[$t]}"); done
  say "fetching ${pkgs[*]} and their libraries from Debian $suite"
  mapfile -t closure < <(apt-cache depends --recurse --no-recommends --no-suggests \
    --no-conflicts --no-breaks --no-replaces --no-enhances "${pkgs[@]}" | grep -v '^[ <]' | sort -u)
  ((${#closure[@]} > 0)) || die "could not resolve the dependencies of ${pkgs[*]} in Debian $suite"
  (cd "$debs" && apt-get -qq download "${closure[@]}" >/dev/null) ||
    die "downloading ${closure[*]} from Debian $suite failed"
  for deb in "$debs"/*.deb; do dpkg-deb -x "$deb" "$root"; done

  libdirs=$root/usr/lib/x86_64-linux-gnu:$root/lib/x86_64-linux-gnu
  loader=$root/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
  [[ -x $loader ]] || loader=$root/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
  [[ -x $loader ]] || die "the $suite libc6 package has no dynamic loader where expected"
  mkdir -p "$stage/lib" "$stage/libexec" "$stage/licenses"
  cp -L "$loader" "$stage/lib/ld-linux-x86-64.so.2"
  for t in "${need[@]}"; do
    pkg=${PACKAGE[$t]}
    bin=$root/usr/bin/$t
    [[ -x $bin ]] || die "the $suite package $pkg has no usr/bin/$t"
    cp -L "$bin" "$stage/libexec/$t"
    # Every shared object the binary loads, by the name it asks for (its soname).
    while read -r name arrow file _; do
      [[ $arrow == "=>" ]] || continue
      [[ $name == */ld-linux-x86-64.so.2 ]] && continue
      [[ -f $file ]] || die "$t needs $name, which no $suite package provides"
      cp -L "$file" "$stage/lib/$name"
    done < <("$loader" --library-path "$libdirs" --list "$bin")
    # The marker line tells the core (src/shell/shims/launch.ts) how to start the binary without
    # this script, saving a shell per call; the script is for everyone else.
    cat >"$stage/$t" <<EOF
#!/bin/sh
# Debian $suite $pkg, started through its own dynamic loader and libraries so it also runs where the
# system's glibc is older. Built by node-core/scripts/vendor-linux-x64.sh.
# wave-vendor-launch: loader=lib/ld-linux-x86-64.so.2 libs=lib argv0=$t binary=libexec/$t
case \$0 in */*) d=\${0%/*} ;; *) d=. ;; esac
exec "\$d/lib/ld-linux-x86-64.so.2" --library-path "\$d/lib" --argv0 $t "\$d/libexec/$t" "\$@"
EOF
    chmod 755 "$stage/$t"
    manifest+=("$t $(version_of "$stage/$t") debian-$suite $(basename "$(ls "$debs/${pkg}"_*.deb)" .deb)")
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
