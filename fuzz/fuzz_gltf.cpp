// glTF / GLB from memory -> the neutral scene -> a new MSH model (the import without a sidecar
// reads every accessor it uses); and read again as the terrain import reads it (only the meshes
// of its nodes decoded): every decoded index within its primitive's vertices; and for the vertices
// alone, as the import of an export's own GLB reads them.
#include "harness.hpp"

#include "formats/gltf.hpp"
#include "mapping/scene_to_new_model.hpp"
#include "mapping/scene_to_terrain.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace msh;
    const ByteView bytes = fuzz::view(data, size);
    const bool glb =
        size >= 4 && std::string_view(reinterpret_cast<const char*>(data), 4) == "glTF";
    auto read = [&](DiagnosticSink& sink, const gltf::ReadOptions& options) {
        return glb ? gltf::read_glb(bytes, "fuzz.glb", sink, options)
                   : gltf::read_gltf_text(bytes, "fuzz.gltf", sink, options);
    };
    // The vertices of an export's own GLB, read without the checks: declines, or stays in bounds.
    if (const auto vertices = gltf::read_written_vertices(bytes))
        for (const scene::Mesh& m : vertices->meshes)
            for (const scene::Primitive& p : m.primitives)
                if (!p.attributes.count("POSITION")) __builtin_trap();
    fuzz::expect_format_errors([&] {
        DiagnosticSink sink(ReadMode::Tolerant);
        gltf::ReadOptions options;
        options.images = true; // embedded base colour images, as a new model reads them
        mapping::build_model(read(sink, options), {24, "fuzz"}, sink);
    });
    fuzz::expect_format_errors([&] { // as the terrain import reads: only some meshes decoded
        DiagnosticSink sink(ReadMode::Tolerant);
        gltf::ReadOptions options;
        options.lines = true;
        options.meshes_of_nodes = mapping::terrain_import_nodes();
        const scene::Scene s = read(sink, options);
        for (const scene::Mesh& m : s.meshes)
            for (const scene::Primitive& p : m.primitives)
                for (uint32_t i : p.indices)
                    if (i >= p.attributes.at("POSITION").count()) __builtin_trap();
    });
    return 0;
}
