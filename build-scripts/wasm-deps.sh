#!/usr/bin/env bash
# Builds libxml2 and zlib for WebAssembly from Debian's source packages into a
# cached prefix, and copies header-only nlohmann_json beside them (a wasm
# compile must never see /usr/include). Prints the prefix on stdout.
#
# The prefix is keyed by the source versions and this script's hash, so a
# rebuild happens only when either changes. libxml2's configure alone takes
# about two minutes, which is why the result is cached outside the checkout.
#   build-scripts/wasm-deps.sh [threads]
# With "threads", for the threaded core: compiled with -pthread (atomics and
# shared memory, which every object of a threaded module needs), in a prefix
# of its own, and libxml2 with its thread support, which keeps its globals
# (the last error among them) one per thread: slices of an export are parsed
# on several threads at once.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

variant="${1:-}"
# HAVE_PTHREAD_H is cleared without threads because libxml2 2.9.14's
# threads-off build still reaches for xmlOnceInit when it sees pthread.h.
case "$variant" in
  "")
    cflags="-O3 -flto -mbulk-memory"
    libxml2_threads=(-DLIBXML2_WITH_THREADS=OFF -DHAVE_PTHREAD_H=)
    ;;
  threads)
    cflags="-O3 -flto -mbulk-memory -pthread"
    libxml2_threads=(-DLIBXML2_WITH_THREADS=ON)
    ;;
  *) echo "wasm-deps.sh: unknown variant $variant (threads)" >&2; exit 2 ;;
esac

script_hash="$(sha256sum "${BASH_SOURCE[0]}" | cut -c1-12)"
apt_dir="${CACHE_DIR}/apt"
src_dir="${CACHE_DIR}/src"
mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/parts" "$src_dir"

# A private deb-src list: no change to the machine's apt configuration.
cat > "$apt_dir/sources.list" <<LIST
deb-src http://deb.debian.org/debian bookworm main
deb-src http://deb.debian.org/debian bookworm-updates main
deb-src http://deb.debian.org/debian-security bookworm-security main
LIST
apt_private=(
  -o "Dir::Etc::SourceList=$apt_dir/sources.list"
  -o "Dir::Etc::SourceParts=$apt_dir/parts"
  -o "Dir::State::Lists=$apt_dir/lists"
  -o "Dir::Cache=$apt_dir/cache"
  -o "APT::Sandbox::User=root"
)

source_version() {  # newest source version of a package, from the private lists
  apt-cache "${apt_private[@]}" showsrc "$1" 2>/dev/null \
    | awk '/^Version:/ {print $2}' | sort -V | tail -1 || true
}

if [[ -z "$(source_version zlib)" || -n "${REFRESH_SOURCES:-}" ]]; then
  log "Fetching Debian source indexes" 
  apt-get "${apt_private[@]}" -qq update >&2
fi
libxml2_version="$(source_version libxml2)"
zlib_version="$(source_version zlib)"
prefix="${CACHE_DIR}/wasm-deps/libxml2-${libxml2_version//[:~+]/_}-zlib-${zlib_version//[:~+]/_}-${script_hash}${variant:+-$variant}"

if [[ -f "$prefix/.complete" ]]; then
  echo "$prefix"
  exit 0
fi

unpack() {  # package version -> prints the unpacked source directory
  local package="$1" version="$2" dir="$src_dir/$1-$2"
  if [[ ! -d "$dir" ]]; then
    (cd "$src_dir" && apt-get "${apt_private[@]}" -qq source --download-only "$package=$version" >&2)
    local dsc
    dsc="$(ls "$src_dir"/"${package}"_"${version#*:}".dsc)"
    dpkg-source --no-check -x "$dsc" "$dir" >&2
  fi
  echo "$dir"
}

rm -rf "$prefix"
mkdir -p "$prefix"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

log "Building zlib $zlib_version for wasm${variant:+ ($variant)}"
zlib_src="$(unpack zlib "$zlib_version")"
cp -a "$zlib_src" "$work/zlib"
(
  cd "$work/zlib"
  CFLAGS="$cflags" emconfigure ./configure --static --prefix="$prefix" >&2
  emmake make -j"$JOBS" libz.a >&2
  emmake make install >&2
)

log "Building libxml2 $libxml2_version for wasm${variant:+ ($variant)} (configure is slow; cached afterwards)"
libxml2_src="$(unpack libxml2 "$libxml2_version")"
# Only SAX2, the push parser and the tree remain: no I/O over the network, no
# compression (we inflate ourselves), no catalogs or DTD validation.
emcmake cmake -S "$libxml2_src" -B "$work/libxml2" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS="$cflags" \
  -DCMAKE_INSTALL_PREFIX="$prefix" -DBUILD_SHARED_LIBS=OFF \
  -DLIBXML2_WITH_PYTHON=OFF -DLIBXML2_WITH_ICONV=OFF -DLIBXML2_WITH_ICU=OFF \
  -DLIBXML2_WITH_LZMA=OFF -DLIBXML2_WITH_ZLIB=OFF -DLIBXML2_WITH_HTTP=OFF \
  -DLIBXML2_WITH_FTP=OFF "${libxml2_threads[@]}" -DLIBXML2_WITH_THREAD_ALLOC=OFF \
  -DLIBXML2_WITH_MODULES=OFF -DLIBXML2_WITH_PROGRAMS=OFF -DLIBXML2_WITH_TESTS=OFF \
  -DLIBXML2_WITH_CATALOG=OFF -DLIBXML2_WITH_VALID=OFF -DLIBXML2_WITH_SCHEMAS=OFF \
  -DLIBXML2_WITH_SCHEMATRON=OFF -DLIBXML2_WITH_RELAXNG=OFF -DLIBXML2_WITH_HTML=OFF \
  -DLIBXML2_WITH_XINCLUDE=OFF -DLIBXML2_WITH_XPTR=OFF -DLIBXML2_WITH_XPATH=OFF \
  -DLIBXML2_WITH_C14N=OFF -DLIBXML2_WITH_WRITER=OFF -DLIBXML2_WITH_LEGACY=OFF \
  -DLIBXML2_WITH_OUTPUT=ON -DLIBXML2_WITH_PUSH=ON -DLIBXML2_WITH_SAX1=OFF \
  -DLIBXML2_WITH_READER=OFF -DLIBXML2_WITH_PATTERN=OFF -DLIBXML2_WITH_DEBUG=OFF \
  -DLIBXML2_WITH_MEM_DEBUG=OFF -DLIBXML2_WITH_RUN_DEBUG=OFF >&2
cmake --build "$work/libxml2" -j"$JOBS" >&2
cmake --install "$work/libxml2" >&2

mkdir -p "$prefix/include"
cp -a /usr/include/nlohmann "$prefix/include/"
touch "$prefix/.complete"
echo "$prefix"
