// A thumbnail of an archive's model entry, drawn in memory (CPU, no display): what an asset
// database stores beside the asset. The PNG and its facts never touch the disk unless asked.
//   thumbnail static.rlb House_01.msh [house.png]
#include "formats/file_io.hpp"
#include "formats/nres.hpp"
#include "pipeline/pipeline.hpp"

#include <cstdio>
#include <exception>

int main(int argc, char** argv) try {
    using namespace msh;
    if (argc != 3 && argc != 4)
        return std::fprintf(stderr, "usage: thumbnail ARCHIVE ENTRY [OUT.png]\n"), 2;
    const Bytes bytes = read_file(argv[1]);
    const nres::Archive archive = nres::read(bytes, ReadMode::Strict, argv[1]);
    const auto entry = archive.find(argv[2]);
    if (!entry) return std::fprintf(stderr, "%s: no entry %s\n", argv[1], argv[2]), 1;

    pipeline::PreviewSettings settings; // 256 x 256, iso view, transparent background
    settings.width = settings.height = 128;
    const pipeline::Preview p = pipeline::preview_model(
        {archive.entries[*entry].data, std::string(argv[1]) + ":" + argv[2]}, settings);
    const auto& facts = p.metadata["facts"];
    std::printf("%s:%s: %zu-byte PNG, %d x %d, %s triangles\n", argv[1], argv[2], p.png.size(),
                p.metadata["size"][0].get<int>(), p.metadata["size"][1].get<int>(),
                facts.contains("triangles") ? facts["triangles"].dump().c_str() : "?");
    if (argc == 4) write_file_atomic(argv[3], p.png);
    return 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
}
