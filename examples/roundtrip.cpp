// An archive's model entry -> GLB (+ sidecar) -> back into the archive, through the library's
// public headers only. The round trip runs in memory and gives the original archive byte for
// byte; the GLB and its sidecar are then written beside OUT.glb, as `mshconv convert` writes them.
//   roundtrip static.rlb House_01.msh house.glb
#include <mshconv/convert.hpp>
#include <mshconv/io.hpp>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>

int main(int argc, char** argv) try {
    if (argc != 4) return std::fprintf(stderr, "usage: roundtrip ARCHIVE ENTRY OUT.glb\n"), 2;
    const std::string archive = argv[1], entry = argv[2], out = argv[3];
    mshconv::FileIo disk;
    const mshconv::FileBytes original = disk.read(archive);

    mshconv::MemoryIo memory; // the archive in memory: nothing on disk is touched
    memory.put("game.rlb", {original.bytes.begin(), original.bytes.end()});
    mshconv::convert({"game.rlb:" + entry, "model.glb"}, memory); // + model.sidecar.json
    mshconv::convert({"model.glb", "game.rlb:" + entry}, memory); // the entry rebuilt
    const bool same = std::ranges::equal(memory.at("game.rlb"), original.bytes);

    const mshconv::ConvertResult written = mshconv::convert({archive + ":" + entry, out}, disk);
    std::printf("%s:%s -> %s (+ %zu file) -> back: %s\n", archive.c_str(), entry.c_str(),
                out.c_str(), written.written.size() - 1, same ? "byte-identical" : "DIFFERENT");
    return same ? 0 : 1;
} catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
}
