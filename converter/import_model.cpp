// convert, glTF / GLB / OBJ (+ sidecar) -> MSH model: standalone or into an archive entry
// (`mshconv convert tank.glb static.rlb:TANK.msh`). Prints a short change report.
#include "commands.hpp"
#include "convert.hpp"

#include "formats/file_io.hpp"
#include "formats/gltf.hpp"
#include "formats/obj.hpp"
#include "mapping/scene_to_model.hpp"
#include "mapping/scene_to_new_model.hpp"
#include "sidecar/model_sidecar.hpp"

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <cstdio>

namespace msh::cli {

namespace fs = std::filesystem;

namespace {

// No sidecar: the scene is a new model (mapping/scene_to_new_model.hpp lists the defaults).
int import_new_model(const fs::path& input, const std::string& ext, const Address& out,
                     const po::variables_map& vm) {
    std::vector<std::string> warnings;
    scene::Scene scene;
    if (ext == ".obj") {
        const Bytes text = read_file(input);
        scene = obj::read(std::string(text.begin(), text.end()), input.string());
    } else {
        scene = gltf::read(input, warnings);
    }
    mapping::NewModelOptions opt;
    opt.fps = vm.count("fps") ? vm["fps"].as<double>() : 24.0;
    opt.where = input.string();
    mapping::NewModelResult r = mapping::build_new_model(scene, opt, warnings);
    for (const std::string& w : warnings) spdlog::warn("{}", w);
    nlohmann::json report = {{"input", input.string()},
                             {"output", out.display()},
                             {"sidecar", nullptr},
                             {"new_model", true},
                             {"summary", r.summary}};
    report["warnings"] = warnings;
    store(out, r.image);
    if (vm.count("report")) {
        const std::string text = report.dump(2) + "\n";
        write_file_atomic(vm["report"].as<std::string>(), Bytes(text.begin(), text.end()));
    }
    if (spdlog::get_level() <= spdlog::level::warn) {
        const auto& s = r.summary;
        std::printf("%s -> %s: new model (no sidecar)\n", input.string().c_str(),
                    out.display().c_str());
        std::printf("  nodes %zu, slots %zu, batches %zu, vertices %zu, triangles %zu; animated "
                    "nodes %zu, frames %u\n",
                    s["nodes"].get<size_t>(), s["slots"].get<size_t>(), s["batches"].get<size_t>(),
                    s["vertices"].get<size_t>(), s["triangles"].get<size_t>(),
                    s["animated_nodes"].get<size_t>(), s["frame_count"].get<unsigned>());
        for (const auto& d : s["defaults"])
            std::printf("  default: %s\n", d.get<std::string>().c_str());
    }
    return 0;
}

} // namespace

mapping::ImportResult import_model_files(const fs::path& input, const fs::path& sidecar_path,
                                         std::optional<double> fps) {
    const std::string ext = lower_ascii(input.extension().string());
    const Bytes sidecar_text = read_file(sidecar_path);
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(sidecar_text.begin(), sidecar_text.end());
    } catch (const nlohmann::json::exception& e) {
        throw FormatError(sidecar_path.string(), 0, std::string("not JSON: ") + e.what());
    }
    sidecar::ModelSidecar sc = sidecar::parse_model_sidecar(doc, sidecar_path.string());
    if (fps) sc.fps = *fps;

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
    return r;
}

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
    if (!vm.count("sidecar") && !fs::exists(sidecar_path))
        return import_new_model(input, ext, out, vm);
    if (!fs::exists(sidecar_path))
        throw FormatError(input.string(), 0, "no sidecar at " + sidecar_path.string());
    mapping::ImportResult r = import_model_files(
        input, sidecar_path,
        vm.count("fps") ? std::optional<double>(vm["fps"].as<double>()) : std::nullopt);
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
            if (r.report.contains("topology")) {
                const auto& t = r.report["topology"];
                std::printf("  topology: triangles %zu kept, %zu added, %zu removed; vertices %zu "
                            "added, %zu removed, %zu moved; slots %zu added, %zu removed\n",
                            t["triangles_kept"].get<size_t>(), t["triangles_added"].get<size_t>(),
                            t["triangles_removed"].get<size_t>(), t["vertices_added"].get<size_t>(),
                            t["vertices_removed"].get<size_t>(), t["vertices_moved"].get<size_t>(),
                            t["slots_added"].get<size_t>(), t["slots_removed"].get<size_t>());
                for (const auto& n : r.report.value("new_parts", nlohmann::json::array()))
                    std::printf("  new part %s\n", n.get<std::string>().c_str());
            }
            for (const auto& n : r.report["nodes"]) std::printf("  node %s\n", n.dump().c_str());
        }
    }
    return 0;
}

} // namespace msh::cli
