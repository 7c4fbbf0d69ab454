// The generated levels (DATA/MAPS/<map>) written to a scratch folder and exported once through the
// library's front door (conversion::export_terrain, files written as `convert` writes them) to
// .glb, .gltf and .obj; shared by the terrain export and import tests.
#pragma once

#include "test_util.hpp"

#include "conversion/game_files.hpp"
#include "conversion/game_library_add.hpp"
#include "conversion/model_export.hpp"
#include "conversion/model_import.hpp"
#include "conversion/outputs.hpp"
#include "conversion/preview_image.hpp"
#include "conversion/terrain.hpp"
#include "conversion/texture.hpp"
#include "formats/file_io.hpp"
#include "samples/terrain_gen.hpp"

#include <filesystem>
#include <set>
#include <string>
#include <system_error>
#include <unistd.h>
#include <vector>

namespace msh::test {

struct MapExports {
    std::filesystem::path root;
    std::vector<std::string> maps; // names under DATA/MAPS
    std::string failure;           // first failed conversion, if any

    explicit MapExports(const std::string& tag) {
        namespace fs = std::filesystem;
        root = fs::temp_directory_path() / ("mshconv_" + tag + "_" + std::to_string(::getpid()));
        fs::create_directories(root / "out");
        std::set<std::string> names;
        for (const auto& f : samples::generate_maps(1998, false)) {
            const fs::path p = root / f.relative_path;
            fs::create_directories(p.parent_path());
            write_file_atomic(p, f.bytes);
            if (p.filename() == "Land.msh") names.insert(p.parent_path().filename().string());
        }
        maps.assign(names.begin(), names.end());
        for (const std::string& m : maps)
            for (const char* ext : {".glb", ".gltf", ".obj"}) try {
                    const conversion::LevelFiles level = conversion::read_level_files(land(m));
                    conversion::TerrainExportSettings settings;
                    settings.format = *conversion::scene_format_of(out(m, ext).filename().string());
                    settings.output_name = out(m, ext).filename().string();
                    const conversion::TerrainExport x =
                        conversion::encode_terrain(level.export_input(), settings);
                    conversion::write_outputs(root / "out", x.files);
                    const std::string text = sidecar::terrain_sidecar_text(x.sidecar);
                    write_file_atomic(sidecar(m), Bytes(text.begin(), text.end()));
                } catch (const std::exception& e) {
                    if (failure.empty()) failure = m + ext + ": " + e.what();
                }
    }
    ~MapExports() {
        std::error_code ec;
        std::filesystem::remove_all(root, ec);
    }
    MapExports(const MapExports&) = delete;
    MapExports& operator=(const MapExports&) = delete;

    std::filesystem::path dir(const std::string& m) const { return root / "DATA" / "MAPS" / m; }
    std::filesystem::path land(const std::string& m) const { return dir(m) / "Land.msh"; }
    std::filesystem::path out(const std::string& m, const std::string& ext) const {
        return root / "out" / (m + ext);
    }
    std::filesystem::path sidecar(const std::string& m) const {
        return root / "out" / (m + ".sidecar.json");
    }
};

} // namespace msh::test
