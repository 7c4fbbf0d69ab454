// convert, glTF / GLB / OBJ (+ sidecar) -> MSH model: standalone or into an archive entry
// (`mshconv convert tank.glb static.rlb:TANK.msh`). Prints a short change report.
#include "commands.hpp"
#include "convert.hpp"

#include "formats/file_io.hpp"
#include "formats/gltf.hpp"
#include "formats/obj.hpp"
#include "mapping/scene_to_model.hpp"
#include "sidecar/model_sidecar.hpp"

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <cstdio>

namespace msh::cli {

namespace fs = std::filesystem;

int import_model(const Address& in, const std::string& out_spec, const po::variables_map& vm) {
    const fs::path input = in.file;
    const std::string ext = lower_ascii(input.extension().string());
    const Address out = parse_address(out_spec);
    std::error_code ec;
    if (out.entries.empty() && fs::exists(out.file, ec) && fs::equivalent(out.file, input, ec))
        throw UsageError("OUT is the input file; inputs are never overwritten");
    if (vm.count("skin") || vm.count("msft-lod") || !vm["lod"].defaulted() ||
        !vm["group"].defaulted())
        throw UsageError("--skin, --msft-lod, --lod and --group are export options; the import "
                         "reads them from the sidecar");

    const fs::path sidecar_path =
        vm.count("sidecar") ? fs::path(vm["sidecar"].as<std::string>())
                            : input.parent_path() / (input.stem().string() + ".sidecar.json");
    if (!fs::exists(sidecar_path))
        throw FormatError(
            input.string(), 0,
            "no sidecar at " + sidecar_path.string() +
                " (give --sidecar FILE); importing without a sidecar is not supported yet");
    const Bytes sidecar_text = read_file(sidecar_path);
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(sidecar_text.begin(), sidecar_text.end());
    } catch (const nlohmann::json::exception& e) {
        throw FormatError(sidecar_path.string(), 0, std::string("not JSON: ") + e.what());
    }
    sidecar::ModelSidecar sc = sidecar::parse_model_sidecar(doc, sidecar_path.string());
    if (vm.count("fps")) sc.fps = vm["fps"].as<double>();

    std::vector<std::string> warnings;
    scene::Scene scene;
    if (ext == ".obj") {
        const Bytes text = read_file(input);
        scene = obj::read(std::string(text.begin(), text.end()), input.string());
    } else {
        scene = gltf::read(input, warnings);
    }
    for (const std::string& w : warnings) spdlog::warn("{}", w);

    mapping::ImportResult r = mapping::import_scene(scene, sc, ext == ".obj", input.string());
    for (const auto& w : r.report["warnings"]) spdlog::warn("{}", w.get<std::string>());
    r.report["input"] = input.string();
    r.report["output"] = out.display();
    r.report["sidecar"] = sidecar_path.string();

    store(out, r.image);
    if (vm.count("report")) {
        const std::string text = r.report.dump(2) + "\n";
        write_file_atomic(vm["report"].as<std::string>(), Bytes(text.begin(), text.end()));
    }
    const auto& s = r.report["summary"];
    if (spdlog::get_level() <= spdlog::level::warn) {
        std::printf("%s -> %s: %s\n", input.string().c_str(), out.display().c_str(),
                    r.identical ? "unchanged, original bytes kept" : "rebuilt where changed");
        if (!r.identical) {
            std::printf("  vertices moved %zu, normals %zu, UVs %zu; bounds recomputed in %zu "
                        "slots; animation %s\n",
                        s["vertices_moved"].get<size_t>(), s["normals_changed"].get<size_t>(),
                        s["uvs_changed"].get<size_t>(),
                        s["slots_with_bounds_recomputed"].get<size_t>(),
                        s["animation_rebuilt"].get<bool>() ? "rebuilt" : "kept");
            for (const auto& n : r.report["nodes"]) std::printf("  node %s\n", n.dump().c_str());
        }
    }
    return 0;
}

} // namespace msh::cli
