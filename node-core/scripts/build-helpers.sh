#!/usr/bin/env bash
# Builds one platform's bundled search helpers, vendor/<platform>-<arch>/{ugrep,bfs,rg}, the way the
# release workflow (.github/workflows/release.yml) ships them in the plugin zip:
#   - rg: ripgrep's official release archive (static musl on linux-x64, glibc-only on linux-arm64).
#   - ugrep and bfs: built from their release sources at the versions the shims need (ugrep >= 7.8.2,
#     bfs >= 4.0; see src/shell/shims/probe.ts), with the libraries they use built alongside as static
#     libraries: PCRE2 (ugrep -P) and Oniguruma (bfs's GNU find regex dialect). On Linux this runs in
#     an Alpine (musl) container and links fully statically; on macOS only the system's libraries stay
#     dynamic. Windows gets Genivia's own ugrep build (bfs has no Windows build).
# Every download is checked against the SHA-256 pinned below before it is used; nothing is trusted
# from the server it came from. Run node-core/scripts/check-vendor.mjs on the result.
#
#   node-core/scripts/build-helpers.sh <linux-x64|linux-arm64|darwin-x64|darwin-arm64|win32-x64|win32-arm64> <dest>
#
# <dest>/<platform>-<arch>/ then holds the tools, licenses/ and VERSIONS.
set -euo pipefail

UGREP_VERSION=7.8.4
BFS_VERSION=4.1.4
ONIGURUMA_VERSION=6.9.10
PCRE2_VERSION=10.45
RG_VERSION=15.1.0

# Sources of these sums (each seen in at least one public build recipe or manifest pinning the same
# archive; see docs/dev/releasing.md): GitHub's tag archives for ugrep and bfs, the projects' own release
# archives for the rest. A case table, not an associative array: macOS runners may only have bash 3.2.
pinned_sha256() {
  case $1 in
    "ugrep-$UGREP_VERSION.tar.gz") echo b16b3503e80890c78a5c845f8c141f239f3904359f1e41900ca566c86e120172 ;;
    "ugrep-windows-x64-$UGREP_VERSION.zip") echo e1d982675554faf8bc7f17654e79922e454505f078b722d0fd46bbc353aecf4f ;;
    "bfs-$BFS_VERSION.tar.gz") echo 0cac6849efb8a9447268fb273de3fab38f8460adb26a1770934e3f325fab8f5d ;;
    "onig-$ONIGURUMA_VERSION.tar.gz") echo 2a5cfc5ae259e4e97f86b68dfffc152cdaffe94e2060b770cb827238d769fc05 ;;
    "pcre2-$PCRE2_VERSION.tar.gz") echo 0e138387df7835d7403b8351e2226c1377da804e0737db0e071b48f07c9d12ee ;;
    "ripgrep-$RG_VERSION-x86_64-unknown-linux-musl.tar.gz") echo 1c9297be4a084eea7ecaedf93eb03d058d6faae29bbc57ecdaf5063921491599 ;;
    "ripgrep-$RG_VERSION-aarch64-unknown-linux-gnu.tar.gz") echo 2b661c6ef508e902f388e9098d9c4c5aca72c87b55922d94abdba830b4dc885e ;;
    "ripgrep-$RG_VERSION-x86_64-apple-darwin.tar.gz") echo 64811cb24e77cac3057d6c40b63ac9becf9082eedd54ca411b475b755d334882 ;;
    "ripgrep-$RG_VERSION-aarch64-apple-darwin.tar.gz") echo 378e973289176ca0c6054054ee7f631a065874a352bf43f0fa60ef079b6ba715 ;;
    "ripgrep-$RG_VERSION-x86_64-pc-windows-msvc.zip") echo 124510b94b6baa3380d051fdf4650eaa80a302c876d611e9dba0b2e18d87493a ;;
    "ripgrep-$RG_VERSION-aarch64-pc-windows-msvc.zip") echo 00d931fb5237c9696ca49308818edb76d8eb6fc132761cb2a1bd616b2df02f8e ;;
  esac
}
source_url() {
  case $1 in
    "ugrep-$UGREP_VERSION.tar.gz") echo "https://github.com/Genivia/ugrep/archive/refs/tags/v$UGREP_VERSION.tar.gz" ;;
    "ugrep-windows-x64-$UGREP_VERSION.zip") echo "https://github.com/Genivia/ugrep/releases/download/v$UGREP_VERSION/ugrep-windows-x64.zip" ;;
    "bfs-$BFS_VERSION.tar.gz") echo "https://github.com/tavianator/bfs/archive/refs/tags/$BFS_VERSION.tar.gz" ;;
    "onig-$ONIGURUMA_VERSION.tar.gz") echo "https://github.com/kkos/oniguruma/releases/download/v$ONIGURUMA_VERSION/onig-$ONIGURUMA_VERSION.tar.gz" ;;
    "pcre2-$PCRE2_VERSION.tar.gz") echo "https://github.com/PCRE2Project/pcre2/releases/download/pcre2-$PCRE2_VERSION/pcre2-$PCRE2_VERSION.tar.gz" ;;
    ripgrep-*) echo "https://github.com/BurntSushi/ripgrep/releases/download/$RG_VERSION/$1" ;;
  esac
}

say() { echo "build-helpers: $*" >&2; }
die() { say "$*"; exit 1; }

(($# == 2)) || die "usage: build-helpers.sh <platform>-<arch> <dest>"
tag=$1
dest=$2/$tag
case $tag in linux-x64 | linux-arm64 | darwin-x64 | darwin-arm64 | win32-x64 | win32-arm64) ;; *) die "unknown platform '$tag'" ;; esac

work=$(mktemp -d "${TMPDIR:-/tmp}/wave-helpers.XXXXXX")
trap 'rm -rf "$work"' EXIT
stage=$work/stage
prefix=$work/prefix
mkdir -p "$stage/licenses" "$prefix"
jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || sysctl -n hw.logicalcpu 2>/dev/null || echo 2)
manifest=("release $tag")

sha256_of() {
  if command -v sha256sum >/dev/null; then sha256sum "$1" | cut -d' ' -f1; else shasum -a 256 "$1" | cut -d' ' -f1; fi
}

# fetch NAME: downloads into $work/NAME and checks the pinned sum; a mismatch stops everything.
fetch() {
  local name=$1 url want
  url=$(source_url "$name")
  want=$(pinned_sha256 "$name")
  [[ -n $want && -n $url ]] || die "no pinned SHA-256 or URL for $name"
  curl -fsSL --retry 3 --retry-delay 5 -o "$work/$name" "$url" || die "downloading $url failed"
  local got
  got=$(sha256_of "$work/$name")
  [[ $got == "$want" ]] || die "$name from $url has SHA-256 $got, not the pinned $want; nothing was built"
  say "verified $name"
}

unpack() { # unpack NAME: into $work, returns nothing; the archive's top folder is known to the caller
  case $1 in
    *.zip) (cd "$work" && unzip -q "$1") ;;
    *) tar -xzf "$work/$1" -C "$work" ;;
  esac
}

ripgrep() { # ripgrep TRIPLE EXT
  local name="ripgrep-$RG_VERSION-$1.$2"
  fetch "$name"
  unpack "$name"
  local dir="$work/ripgrep-$RG_VERSION-$1"
  if [[ $2 == zip ]]; then cp "$dir/rg.exe" "$stage/rg.exe"; else install -m 755 "$dir/rg" "$stage/rg"; fi
  cp "$dir/UNLICENSE" "$stage/licenses/ripgrep-UNLICENSE"
  cp "$dir/LICENSE-MIT" "$stage/licenses/ripgrep-LICENSE-MIT"
  manifest+=("rg $RG_VERSION ripgrep-release $name")
}

static_libraries() { # Oniguruma and PCRE2 as static libraries in $prefix
  fetch "onig-$ONIGURUMA_VERSION.tar.gz"
  unpack "onig-$ONIGURUMA_VERSION.tar.gz"
  (cd "$work/onig-$ONIGURUMA_VERSION" && ./configure --prefix="$prefix" --disable-shared --enable-static CFLAGS="$CFLAGS" >/dev/null && make -j"$jobs" >/dev/null && make install >/dev/null)
  cp "$work/onig-$ONIGURUMA_VERSION/COPYING" "$stage/licenses/oniguruma-COPYING"
  fetch "pcre2-$PCRE2_VERSION.tar.gz"
  unpack "pcre2-$PCRE2_VERSION.tar.gz"
  (cd "$work/pcre2-$PCRE2_VERSION" && ./configure --prefix="$prefix" --disable-shared --enable-static --enable-jit CFLAGS="$CFLAGS" >/dev/null && make -j"$jobs" >/dev/null && make install >/dev/null)
  cp "$work/pcre2-$PCRE2_VERSION/LICENCE.md" "$stage/licenses/pcre2-LICENCE.md" 2>/dev/null || cp "$work/pcre2-$PCRE2_VERSION/LICENCE" "$stage/licenses/pcre2-LICENCE"
}

build_bfs() {
  fetch "bfs-$BFS_VERSION.tar.gz"
  unpack "bfs-$BFS_VERSION.tar.gz"
  (
    cd "$work/bfs-$BFS_VERSION"
    # Oniguruma gives bfs GNU find's regex dialect (-regextype findutils-default), which the find shim needs.
    PKG_CONFIG_PATH="$prefix/lib/pkgconfig" ./configure --enable-release --with-oniguruma \
      --without-libacl --without-libcap --without-libselinux --without-liburing \
      CFLAGS="$CFLAGS -I$prefix/include" LDFLAGS="$LDFLAGS -L$prefix/lib" >/dev/null
    make -j"$jobs" >/dev/null
  )
  install -m 755 "$work/bfs-$BFS_VERSION/bin/bfs" "$stage/bfs"
  cp "$work/bfs-$BFS_VERSION/LICENSE" "$stage/licenses/bfs-LICENSE"
  manifest+=("bfs $BFS_VERSION source bfs-$BFS_VERSION.tar.gz onig-$ONIGURUMA_VERSION")
}

build_ugrep() {
  fetch "ugrep-$UGREP_VERSION.tar.gz"
  unpack "ugrep-$UGREP_VERSION.tar.gz"
  (
    cd "$work/ugrep-$UGREP_VERSION"
    # The shims search plain files: no decompression libraries. PCRE2 for -P.
    ./configure --with-pcre2="$prefix" --without-boost-regex --without-zlib --without-bzlib --without-lzma \
      --without-lz4 --without-zstd --without-brotli --without-bzip3 --disable-auto-completion \
      CFLAGS="$CFLAGS" CXXFLAGS="$CFLAGS" LDFLAGS="$LDFLAGS -L$prefix/lib" >/dev/null
    # The release archive's generated autotools files are newer than their sources; keep make from regenerating them.
    touch configure config.status
    make -j"$jobs" >/dev/null
  )
  install -m 755 "$work/ugrep-$UGREP_VERSION/bin/ugrep" "$stage/ugrep"
  cp "$work/ugrep-$UGREP_VERSION/LICENSE.txt" "$stage/licenses/ugrep-LICENSE.txt"
  manifest+=("ugrep $UGREP_VERSION source ugrep-$UGREP_VERSION.tar.gz pcre2-$PCRE2_VERSION")
}

case $tag in
  linux-*)
    [[ -f /etc/alpine-release ]] || die "build the Linux helpers in an Alpine container (musl, static): see .github/workflows/release.yml"
    export CFLAGS="-O2" LDFLAGS="-static -s"
    static_libraries
    build_bfs
    build_ugrep
    if [[ $tag == linux-x64 ]]; then ripgrep x86_64-unknown-linux-musl tar.gz; else ripgrep aarch64-unknown-linux-gnu tar.gz; fi
    ;;
  darwin-*)
    arch=$([[ $tag == darwin-arm64 ]] && echo arm64 || echo x86_64)
    [[ $(uname -m) == "$arch" ]] || die "build $tag on a $arch Mac (this one is $(uname -m))"
    export MACOSX_DEPLOYMENT_TARGET=11.0 CFLAGS="-O2 -arch $arch" LDFLAGS="-arch $arch"
    static_libraries
    build_bfs
    build_ugrep
    strip -S "$stage/bfs" "$stage/ugrep"
    if [[ $tag == darwin-arm64 ]]; then ripgrep aarch64-apple-darwin tar.gz; else ripgrep x86_64-apple-darwin tar.gz; fi
    ;;
  win32-x64)
    fetch "ugrep-windows-x64-$UGREP_VERSION.zip"
    mkdir -p "$work/ugrep-windows"
    (cd "$work/ugrep-windows" && unzip -q "../ugrep-windows-x64-$UGREP_VERSION.zip")
    find "$work/ugrep-windows" -name ugrep.exe -exec cp {} "$stage/ugrep.exe" \;
    [[ -f $stage/ugrep.exe ]] || die "ugrep-windows-x64.zip holds no ugrep.exe"
    find "$work/ugrep-windows" -iname 'LICENSE*' -exec cp {} "$stage/licenses/ugrep-LICENSE.txt" \; -quit
    manifest+=("ugrep $UGREP_VERSION genivia-release ugrep-windows-x64.zip")
    ripgrep x86_64-pc-windows-msvc zip
    ;;
  win32-arm64)
    # ugrep has no ARM64 Windows build: the core uses win32-x64's (Windows 11 on ARM runs x64 programs).
    ripgrep aarch64-pc-windows-msvc zip
    ;;
esac

printf '%s\n' "${manifest[@]}" >"$stage/VERSIONS"
mkdir -p "$(dirname "$dest")"
rm -rf "$dest"
mv "$stage" "$dest"
say "built $dest: $(tail -n +2 "$dest/VERSIONS" | awk '{ printf "%s%s %s", sep, $1, $2; sep = ", " }')"
