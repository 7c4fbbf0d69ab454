# Sourced by the build scripts: compile through ccache (Debian `ccache`) when it is there, with
# paths relative to the checkout and no working folder in the hash, so a build in a fresh clone
# elsewhere on the same machine (CI) reuses what an earlier build compiled.
ccache_launcher=()
if command -v ccache > /dev/null; then
  export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
  ccache_launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
