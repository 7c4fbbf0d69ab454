#!/usr/bin/env bash
# The release files in dist/, built from this checkout (Linux and Windows builds):
#   mshconv-VERSION-linux-x86_64.tar.gz     mshconv (needs Debian 12's libisal2, libmimalloc2)
#   mshconv-VERSION-windows-x86_64.zip      mshconv.exe and libassimp-5.dll
#   io_scene_parkan-VERSION.zip             the Blender add-on carrying both programs
#   SHA256SUMS                              their SHA-256 sums (sha256sum -c SHA256SUMS)
# Files in them carry a fixed date, so the same sources give the same archives.
set -euo pipefail
cd "$(dirname "$0")/.."
version="$(sed -n 's/^project(mshconv VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)"
bash scripts/build.sh mshconv
bash scripts/build-windows.sh
rm -rf dist
mkdir -p dist/stage
linux="mshconv-$version-linux-x86_64" windows="mshconv-$version-windows-x86_64"
mkdir -p "dist/stage/$linux" "dist/stage/$windows"
strip -o "dist/stage/$linux/mshconv" build/mshconv
cp README.md "dist/stage/$linux/"
cp build-windows/mshconv.exe build-windows/libassimp-5.dll README.md docs/windows.md \
  "dist/stage/$windows/"
touch -d 2026-01-01T00:00:00Z dist/stage/* dist/stage/*/*
tar -C dist/stage --sort=name --owner=0 --group=0 --numeric-owner -cf - "$linux" |
  gzip -9n > "dist/$linux.tar.gz"
(cd dist/stage && TZ=UTC zip -qX -9 -r "../$windows.zip" "$windows")
python3 blender/build_addon.py "dist/io_scene_parkan-$version.zip" \
  --bin linux-x86_64 "dist/stage/$linux/mshconv" \
  --bin windows-x86_64 build-windows/mshconv.exe build-windows/libassimp-5.dll > /dev/null
rm -rf dist/stage
(cd dist && sha256sum -- *.tar.gz *.zip > SHA256SUMS && cat SHA256SUMS)
