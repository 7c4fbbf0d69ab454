# Sourced by the build scripts.
# - Compile through ccache (Debian `ccache`) when it is there, with paths relative to the checkout
#   and no working folder in the hash, so a build in a fresh clone elsewhere on the same machine
#   (CI) reuses what an earlier build compiled. Depend mode: a miss does not run the preprocessor
#   a second time (the compiler's dependency file names the headers), so an empty cache costs
#   little more than none.
# - Generate for Ninja (Debian `ninja-build`) when it is there: unlike make, it starts compiling a
#   target's sources before the libraries it links are archived, which keeps both cores busy
#   (docs/benchmarks.md, "First contact"). A build folder keeps the generator it was made with.
ccache_launcher=()
if command -v ccache > /dev/null; then
  export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1 CCACHE_DEPEND=1
  ccache_launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi

# generator_for DIR: the -G option for a build folder not configured yet.
generator_for() {
  if [ ! -f "$1/CMakeCache.txt" ] && command -v ninja > /dev/null; then
    echo "-GNinja"
  fi
}
