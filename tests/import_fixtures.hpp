// Shared by the import tests: export a corpus model in one variant with its sidecar, import a
// scene back through a real glTF file, pick corpus models by shape.
#pragma once

#include "corpus.hpp"

#include "conversion/game_files.hpp"
#include "conversion/game_library_add.hpp"
#include "conversion/model_export.hpp"
#include "conversion/model_import.hpp"
#include "conversion/outputs.hpp"
#include "conversion/preview_image.hpp"
#include "conversion/terrain.hpp"
#include "conversion/texture.hpp"
#include "formats/file_io.hpp"
#include "formats/gltf.hpp"
#include "formats/nres.hpp"
#include "mapping/model_to_scene.hpp"
#include "mapping/scene_to_model.hpp"
#include "mapping/skin.hpp"
#include "sidecar/model_sidecar.hpp"

#include <filesystem>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

namespace msh::test {

namespace fs = std::filesystem;

struct Variant {
    const char* name;
    int lod, group;
    bool skin;
};
inline const Variant kVariants[] = {{"default", 0, 0, false},
                                    {"all", mapping::kAll, mapping::kAll, false},
                                    {"skin", 0, 0, true},
                                    {"skin_all", mapping::kAll, mapping::kAll, true}};

struct Exported {
    scene::Scene scene;
    sidecar::ModelSidecar sidecar;
};

// Through the library's front door, as a user's export: the GLB read back is the scene a DCC
// would see, the sidecar the typed one the export produced.
inline Exported export_model(const Model&, const Bytes& image, const Variant& v) {
    conversion::ModelExportSettings settings;
    settings.output_name = "test.glb";
    settings.lod = v.lod;
    settings.group = v.group;
    settings.skin = v.skin;
    conversion::ModelExport x = conversion::encode_model({image, "test"}, settings);
    std::vector<std::string> warnings;
    Exported e;
    e.scene = conversion::read_scene(x.files.back().bytes, conversion::SceneFormat::Glb, "test.glb",
                                     warnings);
    e.sidecar = std::move(x.sidecar);
    return e;
}

// The sidecar of the OBJ export with the same options: an OBJ holds world-space positions, so its
// sidecar carries the vertices a glTF export's leaves to the file.
inline sidecar::ModelSidecar obj_sidecar(const Bytes& image, const Variant& v) {
    conversion::ModelExportSettings settings;
    settings.output_name = "test.obj";
    settings.format = conversion::SceneFormat::Obj;
    settings.lod = v.lod;
    settings.group = v.group;
    return conversion::encode_model({image, "test"}, settings).sidecar;
}

struct TempDir {
    fs::path path = fs::temp_directory_path() / ("mshconv-import-" + std::to_string(::getpid()));
    TempDir() { fs::create_directories(path); }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

inline Bytes import_gltf(const scene::Scene& s, const sidecar::ModelSidecar& sc,
                         const fs::path& file) {
    gltf::write(s, file);
    DiagnosticSink warnings(ReadMode::Tolerant);
    return mapping::import_scene(gltf::read(file, warnings), sc, false, file.string()).image;
}

// The first drawable model of the corpus with an animation (or any model with `animated` false).
struct Picked {
    Model model;
    Bytes image;
    std::string name;
};
inline Picked pick(bool animated, size_t min_nodes = 1) {
    for (const auto& f : test::corpus()) {
        if (f.relative_path.find(".rlb") == std::string::npos) continue;
        nres::Archive ar = nres::read(f.bytes, ReadMode::Strict, f.relative_path);
        for (const nres::Entry& e : ar.entries) {
            if (!nres::looks_like_nres(e.data) || ar.find_type(1)) continue;
            Model m = read_model(e.data, ReadMode::Strict, e.name());
            if (m.legacy_nodes || (m.animation.frame_count > 1) != animated ||
                !m.has(kNodeStrings) || m.nodes.size() < min_nodes)
                continue;
            return {m, e.data.to_bytes(), f.relative_path + ":" + e.name()};
        }
    }
    throw std::runtime_error("no such corpus model");
}

} // namespace msh::test
