#!/usr/bin/env bash
# Builds the libraries mshconv.exe needs that Debian ships only for Linux, from Debian's own
# source packages (apt-get source), with MinGW-w64, into a prefix outside the checkout:
#   ~/.cache/mshconv-windows/<key>/prefix   (MSHCONV_WINDOWS_CACHE overrides ~/.cache/...)
# and prints that prefix. <key> hashes this script, the cross compiler's version and the source
# packages' versions, so a second run (or another checkout) finds the prefix and takes a second.
#   libpng1.6   static, over Debian's zlib for MinGW (libz-mingw-w64-dev)
#   libisal     static (igzip, nasm): the PNG fast path's deflate
#   boost1.74   program_options compiled (the headers are libboost1.74-dev's)
#   glibc       the math functions mshconv calls (cmake/glibc-math): the same bits as on Linux
#   assimp      libassimp.dll (importers only; mshconv loads it when a file needs it), with
#               minizip from Debian's zlib source, over the same math functions
# Header-only from the Debian packages installed for the Linux build: Boost, spdlog + fmt, nlohmann-json,
# RapidJSON, tinygltf, stb (compiled into mshconv), xxHash, utfcpp (Assimp).
set -euo pipefail
script="$(readlink -f "$0")"
cache="${MSHCONV_WINDOWS_CACHE:-$HOME/.cache/mshconv-windows}"
triplet=x86_64-w64-mingw32
cc=$triplet-gcc-posix cxx=$triplet-g++-posix
sources=(libpng1.6 libisal boost1.74 assimp zlib glibc)
glibc_math="$(dirname "$script")/../cmake/glibc-math"
jobs="$(nproc)"

# The .dsc names carry the versions apt-get source would fetch (no download to learn them).
dscs="$(for s in "${sources[@]}"; do apt-get source --print-uris -qq "$s" | awk '$2 ~ /\.dsc$/ {print $2; exit}'; done)"
[ "$(echo "$dscs" | grep -c dsc)" -eq ${#sources[@]} ] || {
  echo "apt-get source cannot find ${sources[*]}: is a deb-src entry set (scripts/install-deps.sh --windows)?" >&2
  exit 1
}
key="$( (cat "$script" "$glibc_math"/*; $cxx --version | head -1; dpkg-query -W libz-mingw-w64-dev; echo "$dscs") |
  sha256sum | cut -c1-16)"
root="$cache/$key" prefix="$cache/$key/prefix"
if [ -f "$root/done" ]; then
  echo "$prefix"
  exit 0
fi
log() { echo "windows deps: $*" >&2; }
start=$SECONDS
rm -rf "$root"
mkdir -p "$cache/src" "$prefix/include" "$prefix/lib" "$prefix/bin" "$root/build"

# Sources: fetched once into src/ (each in a folder named by its version).
fetched() { ls -d "$cache"/src/"$1"-[0-9]*/ 2>/dev/null | head -1; }
for s in "${sources[@]}"; do
  version="$(echo "$dscs" | grep "^${s}_" | sed "s/^${s}_//; s/\.dsc$//; s/-[^-]*$//; s/^[0-9]*://")"
  if [ ! -d "$cache/src/$s-$version" ]; then
    log "apt-get source $s ($version)"
    rm -rf "$cache/src/$s-"*
    (cd "$cache/src" && apt-get source -qq "$s" > /dev/null 2>&1)
  fi
done
src_png="$(fetched libpng1.6)" src_isal="$(fetched libisal)" src_boost="$(fetched boost1.74)"
src_assimp="$(fetched assimp)" src_zlib="$(fetched zlib)" src_glibc="$(fetched glibc)"

# Header-only libraries, as installed for the Linux build.
for h in boost spdlog fmt nlohmann rapidjson stb tiny_gltf.h xxhash.h; do
  [ -e "/usr/include/$h" ] || { echo "/usr/include/$h missing: scripts/install-deps.sh" >&2; exit 1; }
  ln -s "/usr/include/$h" "$prefix/include/$h"
done
# The tinygltf version its Debian package records (`mshconv --version` prints it).
dpkg-query -W -f='${Version}' libtinygltf-dev | sed 's/[+~-].*//' > "$prefix/tinygltf-version"

toolchain=(-DCMAKE_SYSTEM_NAME=Windows -DCMAKE_C_COMPILER=$cc -DCMAKE_CXX_COMPILER=$cxx
  -DCMAKE_RC_COMPILER=$triplet-windres -DCMAKE_FIND_ROOT_PATH="/usr/$triplet;$prefix"
  -DCMAKE_FIND_ROOT_PATH_MODE_PROGRAM=NEVER -DCMAKE_FIND_ROOT_PATH_MODE_LIBRARY=ONLY
  -DCMAKE_FIND_ROOT_PATH_MODE_INCLUDE=ONLY -DCMAKE_BUILD_TYPE=Release
  -DCMAKE_INSTALL_PREFIX="$prefix")
# The static zlib (Assimp's own FindZLIB reads the _REL and _DBG names).
zlib_static=(-DZLIB_LIBRARY=/usr/$triplet/lib/libz.a -DZLIB_LIBRARY_REL=/usr/$triplet/lib/libz.a
  -DZLIB_LIBRARY_DBG=/usr/$triplet/lib/libz.a -DZLIB_INCLUDE_DIR=/usr/$triplet/include)

log "libpng"
cmake -S "$src_png" -B "$root/build/png" "${toolchain[@]}" "${zlib_static[@]}" -DPNG_SHARED=OFF \
  -DPNG_STATIC=ON -DPNG_TESTS=OFF -DPNG_EXECUTABLES=OFF -DSKIP_INSTALL_EXECUTABLES=ON \
  -DSKIP_INSTALL_PROGRAMS=ON -DSKIP_INSTALL_FILES=ON --no-warn-unused-cli > "$root/build/png.log"
nice -n 19 cmake --build "$root/build/png" -j"$jobs" --target install >> "$root/build/png.log"

log "ISA-L"
cp -a "$src_isal" "$root/build/isal"
nice -n 19 make -C "$root/build/isal" -f Makefile.unx -j"$jobs" arch=mingw AS=nasm CC=$cc \
  AR=$triplet-ar lib > "$root/build/isal.log" 2>&1
mkdir -p "$prefix/include/isa-l"
cp "$root/build/isal/include/"*.h "$prefix/include/isa-l/"
cp "$root/build/isal/bin/isa-l.a" "$prefix/lib/libisal.a"

log "Boost.Program_options"
mkdir -p "$root/build/boost"
for f in "$src_boost"/libs/program_options/src/*.cpp; do
  echo "nice -n 19 $cxx -O2 -std=c++17 -DBOOST_ALL_NO_LIB -DBOOST_BIND_GLOBAL_PLACEHOLDERS -I$prefix/include -c $f -o $root/build/boost/$(basename "$f" .cpp).o"
done | xargs -P"$jobs" -I{} sh -c {}
$triplet-ar rcs "$prefix/lib/libboost_program_options.a" "$root/build/boost/"*.o

log "minizip (zlib's contrib) for Assimp"
mkdir -p "$root/build/minizip" "$prefix/include/minizip"
for f in unzip ioapi; do
  nice -n 19 $cc -O2 -I/usr/$triplet/include -c "$src_zlib/contrib/minizip/$f.c" -o "$root/build/minizip/$f.o"
done
$triplet-ar rcs "$prefix/lib/libminizip.a" "$root/build/minizip/"*.o
cp "$src_zlib/contrib/minizip/"{unzip,ioapi,crypt}.h "$prefix/include/minizip/"
mkdir -p "$prefix/lib/pkgconfig"
cat > "$prefix/lib/pkgconfig/minizip.pc" << EOF
Name: minizip
Description: zip archive reading (zlib contrib)
Version: 1.2.13
Libs: -L$prefix/lib -lminizip /usr/$triplet/lib/libz.a
Cflags: -I$prefix/include/minizip
EOF

log "glibc's math functions"
# Each as glibc builds it for x86-64 (-O2 -frounding-math -fno-math-errno), its FMA variant from
# glibc's multiarch wrapper with that wrapper's flags (sysdeps/x86_64/fpu/multiarch/Makefile).
mkdir -p "$root/build/glibc-math"
m=$src_glibc/sysdeps/x86_64/fpu/multiarch
d=$src_glibc/sysdeps/ieee754/dbl-64 f=$src_glibc/sysdeps/ieee754/flt-32
glibc_flags="-O2 -std=gnu11 -frounding-math -fno-math-errno -fmerge-all-constants -I$glibc_math"
glibc_flags+=" -I$m -I$d -I$f -I$src_glibc/sysdeps/x86_64/fpu -I$src_glibc/sysdeps/x86/fpu"
glibc_flags+=" -I$src_glibc/sysdeps/generic -I$src_glibc"
fma="-mfma -mavx2"
glibc_object() { # NAME SOURCE [FLAGS...]
  echo "nice -n 19 $cc $glibc_flags ${*:3} -c $2 -o $root/build/glibc-math/$1.o"
}
{
  glibc_object sin_sse2 "$d/s_sin.c" -D__sin=__sin_sse2 -D__cos=__cos_sse2
  glibc_object sin_fma "$m/s_sin-fma.c" $fma
  glibc_object sincos_sse2 "$d/s_sincos.c" -D__sincos=__sincos_sse2
  glibc_object sincos_fma "$m/s_sincos-fma.c" $fma
  glibc_object branred "$d/branred.c"
  glibc_object sincostab "$d/sincostab.c"
  glibc_object exp_sse2 "$d/e_exp.c" -D__exp=__ieee754_exp_sse2
  glibc_object exp_fma "$m/e_exp-fma.c" $fma
  glibc_object exp_data "$d/e_exp_data.c"
  glibc_object pow_sse2 "$d/e_pow.c" -D__pow=__ieee754_pow_sse2
  glibc_object pow_fma "$m/e_pow-fma.c" $fma
  glibc_object pow_log_data "$d/e_pow_log_data.c"
  glibc_object asin_sse2 "$d/e_asin.c" -D__ieee754_acos=__ieee754_acos_sse2 \
    -D__ieee754_asin=__ieee754_asin_sse2
  glibc_object asin_fma "$m/e_asin-fma.c" $fma
  glibc_object log2_sse2 "$d/e_log2.c" -D__log2=__log2_sse2
  glibc_object log2_fma "$m/e_log2-fma.c" $fma
  glibc_object log2_data "$d/e_log2_data.c"
  glibc_object hypot "$d/e_hypot.c"
  glibc_object math_err "$d/math_err.c"
  glibc_object sinf_sse2 "$m/s_sinf-sse2.c"
  glibc_object sinf_fma "$m/s_sinf-fma.c" $fma
  glibc_object cosf_sse2 "$m/s_cosf-sse2.c"
  glibc_object cosf_fma "$m/s_cosf-fma.c" $fma
  glibc_object sincosf_sse2 "$m/s_sincosf-sse2.c"
  glibc_object sincosf_fma "$m/s_sincosf-fma.c" $fma
  glibc_object sincosf_data "$f/s_sincosf_data.c"
  glibc_object expf_sse2 "$f/e_expf.c" -D__expf=__expf_sse2
  glibc_object expf_fma "$m/e_expf-fma.c" $fma
  glibc_object exp2f_data "$f/e_exp2f_data.c"
  glibc_object powf_sse2 "$f/e_powf.c" -D__powf=__powf_sse2
  glibc_object powf_fma "$m/e_powf-fma.c" $fma
  glibc_object powf_log2_data "$f/e_powf_log2_data.c"
  glibc_object log2f_sse2 "$f/e_log2f.c" -D__log2f=__log2f_sse2
  glibc_object log2f_fma "$m/e_log2f-fma.c" $fma
  glibc_object log2f_data "$f/e_log2f_data.c"
  glibc_object acosf "$f/e_acosf.c"
  glibc_object hypotf "$f/e_hypotf.c"
  glibc_object math_errf "$f/math_errf.c"
  glibc_object dispatch "$glibc_math/dispatch.c"
} | tr '\n' '\0' | xargs -0 -P"$jobs" -I{} sh -c "{} 2>> $root/build/glibc-math.log"
[ "$(ls "$root/build/glibc-math" | wc -l)" -eq 39 ] || { echo "glibc math: objects missing" >&2; exit 1; }
$triplet-ar rcs "$prefix/lib/libglibc_math.a" "$root/build/glibc-math/"*.o

log "Assimp (the longest: about half of the importers' code is templates)"
cp -a "$src_assimp" "$root/build/assimp-src"
# Debian builds it against its libdraco, which has no Windows build; mshconv reads glTF itself, so
# the glTF importer's Draco decoding is never used.
patch -s -R -p1 -d "$root/build/assimp-src" < "$src_assimp/debian/patches/use-system-libdraco.patch"
# Debian's source leaves out the version resource (*.rc) the Windows build lists.
sed -i '/res\/assimp.rc/d' "$root/build/assimp-src/code/CMakeLists.txt"
mkdir -p "$root/build/assimp-include"
ln -s /usr/include/stb "$root/build/assimp-include/stb"
ln -s /usr/include/utf8cpp/utf8.h "$root/build/assimp-include/utf8.h"
ln -s /usr/include/utf8cpp/utf8 "$root/build/assimp-include/utf8"
PKG_CONFIG_LIBDIR="$prefix/lib/pkgconfig" PKG_CONFIG_PATH="" cmake -S "$root/build/assimp-src" \
  -B "$root/build/assimp" "${toolchain[@]}" "${zlib_static[@]}" -DBUILD_SHARED_LIBS=ON \
  -DASSIMP_BUILD_ZLIB=OFF -DASSIMP_BUILD_TESTS=OFF -DASSIMP_BUILD_ASSIMP_TOOLS=OFF \
  -DASSIMP_BUILD_SAMPLES=OFF -DASSIMP_NO_EXPORT=ON -DASSIMP_BUILD_DRACO=OFF \
  -DASSIMP_WARNINGS_AS_ERRORS=OFF -DASSIMP_INSTALL_PDB=OFF -DASSIMP_BUILD_DOCS=OFF \
  -DCMAKE_CXX_FLAGS="-I$root/build/assimp-include -Wa,-mbig-obj" \
  -DCMAKE_C_FLAGS="-I$root/build/assimp-include" \
  -DCMAKE_SHARED_LINKER_FLAGS="-L$prefix/lib -static" \
  -DCMAKE_CXX_STANDARD_LIBRARIES="$prefix/lib/libglibc_math.a" \
  > "$root/build/assimp.log"
nice -n 19 cmake --build "$root/build/assimp" -j"$jobs" --target install >> "$root/build/assimp.log"
$triplet-strip --strip-unneeded "$prefix"/bin/*.dll

# Only the prefix and the logs are kept; a build for another key (an older script or package) goes.
find "$root/build" -mindepth 1 -maxdepth 1 ! -name "*.log" -exec rm -rf {} +
find "$cache" -mindepth 1 -maxdepth 1 -type d ! -name src ! -name wine ! -name "$key" -exec rm -rf {} +
touch "$root/done"
log "built in $((SECONDS - start)) s: $prefix"
echo "$prefix"
