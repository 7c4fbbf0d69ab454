// An archive's model entry -> GLB (+ sidecar) -> back into the archive, through the library API
// only. The unedited round trip gives the original archive byte for byte.
//   roundtrip static.rlb House_01.msh house.glb
#include "formats/file_io.hpp"
#include "formats/nres.hpp"
#include "pipeline/pipeline.hpp"

#include <cstdio>
#include <exception>

int main(int argc, char** argv) try {
    using namespace msh;
    if (argc != 4) return std::fprintf(stderr, "usage: roundtrip ARCHIVE ENTRY OUT.glb\n"), 2;
    const Bytes original = read_file(argv[1]);
    nres::Archive archive = nres::read(original, ReadMode::Strict, argv[1]);
    const auto entry = archive.find(argv[2]);
    if (!entry) return std::fprintf(stderr, "%s: no entry %s\n", argv[1], argv[2]), 1;
    nres::Entry& model = archive.entries[*entry];

    pipeline::ExportSettings settings; // GLB, LOD 0, group 0, 24 fps
    settings.output_name = std::filesystem::path(argv[3]).filename().string();
    const pipeline::ModelExport glb =
        pipeline::export_model({model.data, std::string(argv[1]) + ":" + argv[2]}, settings);
    pipeline::write_outputs(std::filesystem::path(argv[3]).parent_path(), glb.files);

    std::vector<std::string> warnings;
    const scene::Scene scene =
        pipeline::read_scene(glb.files.back().bytes, pipeline::SceneFormat::Glb, argv[3], warnings);
    model.data = pipeline::import_model(scene, &glb.sidecar, {}).msh;
    const bool same = nres::write(archive) == original;
    std::printf("%s:%s -> %s -> back: %s\n", argv[1], argv[2], argv[3],
                same ? "byte-identical" : "DIFFERENT");
    return same ? 0 : 1;
} catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
}
