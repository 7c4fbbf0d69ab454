// convert, MSH model -> glTF 2.0 (.gltf + .bin, or .glb) or OBJ + MTL, plus OUT_STEM.sidecar.json.
#include "address.hpp"
#include "commands.hpp"
#include "convert.hpp"
#include "options.hpp"

#include "formats/file_io.hpp"
#include "formats/gltf.hpp"
#include "formats/msh.hpp"
#include "formats/nres.hpp"
#include "formats/obj.hpp"
#include "formats/wear.hpp"
#include "mapping/materials.hpp"
#include "mapping/model_to_scene.hpp"
#include "mapping/skin.hpp"
#include "sidecar/model_sidecar.hpp"

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <optional>

namespace msh::cli {

namespace fs = std::filesystem;

namespace {

int parse_choice(const std::string& text, int count, const char* what) {
    if (text == "all") return mapping::kAll;
    int v = -1;
    const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
    if (r.ec != std::errc() || r.ptr != text.data() + text.size() || v < 0 || v >= count)
        throw UsageError(std::string("--") + what + " must be 0.." + std::to_string(count - 1) +
                         " or 'all', got '" + text + "'");
    return v;
}

std::string stem_of(const std::string& name) {
    const auto dot = name.rfind('.');
    return dot == std::string::npos || dot == 0 ? name : name.substr(0, dot);
}

} // namespace

std::string model_wear_name(const Address& model) {
    return stem_of(model.entries.empty() ? model.file.filename().string() : model.entries.back()) +
           ".wea";
}

namespace {

// A file of `dir` named `name`, case-insensitively (game folders mix cases).
std::optional<fs::path> find_ci(const fs::path& dir, const std::string& name) {
    const std::string wanted = lower_ascii(name);
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec))
        if (e.is_regular_file() && lower_ascii(e.path().filename().string()) == wanted)
            return e.path();
    return std::nullopt;
}

nlohmann::json choice_json(int v) {
    return v == mapping::kAll ? nlohmann::json("all") : nlohmann::json(v);
}

} // namespace

bool has_game_libraries(const fs::path& dir) {
    return find_ci(dir, "Material.lib") || find_ci(dir, "Textures.lib");
}

mapping::MaterialLibraries open_libraries(const fs::path& default_dir,
                                          const po::variables_map& vm) {
    fs::path dir = default_dir.empty() ? fs::path(".") : default_dir;
    if (vm.count("game-dir")) {
        dir = vm["game-dir"].as<std::string>();
        if (!fs::is_directory(dir)) throw UsageError("--game-dir is not a folder: " + dir.string());
    }
    auto explicit_file = [&](const char* option) -> std::optional<fs::path> {
        if (!vm.count(option)) return std::nullopt;
        fs::path p = vm[option].as<std::string>();
        if (!fs::is_regular_file(p))
            throw UsageError(std::string("--") + option + ": no such file: " + p.string());
        return p;
    };
    auto open = [](const std::optional<fs::path>& p, std::optional<nres::Archive>& lib,
                   std::string& name) {
        if (!p) return;
        name = p->string();
        try {
            lib = nres::read(read_file(*p), ReadMode::Tolerant, name);
        } catch (const std::exception& e) {
            spdlog::warn("{} (ignored: materials stay untextured)", e.what());
            lib.reset();
        }
    };
    mapping::MaterialLibraries libs;
    std::optional<fs::path> materials = explicit_file("materials");
    std::optional<fs::path> textures = explicit_file("textures");
    if (!materials) materials = find_ci(dir, "Material.lib");
    if (!textures) textures = find_ci(dir, "Textures.lib");
    open(materials, libs.materials, libs.materials_name);
    open(textures, libs.textures, libs.textures_name);
    open(find_ci(dir, "palettes.lib"), libs.palettes, libs.palettes_name);
    open(find_ci(dir, "LightMap.lib"), libs.lightmaps, libs.lightmaps_name);
    return libs;
}

mapping::ExportOptions model_export_options(const po::variables_map& vm, const std::string& ext) {
    if (ext != ".gltf" && ext != ".glb" && ext != ".obj")
        throw UsageError("a model converts to .gltf, .glb or .obj, not '" + ext + "'");
    if (vm.count("skin") && ext == ".obj") throw UsageError("--skin applies to glTF output only");
    mapping::ExportOptions opt;
    opt.lod = parse_choice(vm["lod"].as<std::string>(), kLods, "lod");
    opt.group = parse_choice(vm["group"].as<std::string>(), kGroups, "group");
    opt.fps = vm.count("fps") ? vm["fps"].as<double>() : 24.0;
    opt.msft_lod = vm.count("msft-lod") > 0;
    if (opt.msft_lod && opt.lod != mapping::kAll) throw UsageError("--msft-lod needs --lod all");
    if (!(opt.fps > 0) || !std::isfinite(opt.fps))
        throw UsageError("--fps must be a positive number");
    return opt;
}

int export_model(const Loaded& in, const fs::path& out, const po::variables_map& vm,
                 const ModelExportContext* context) {
    const std::string ext = lower_ascii(out.extension().string());
    if (ext != ".gltf" && ext != ".glb" && ext != ".obj")
        throw UsageError("OUT must end in .gltf, .glb or .obj: " + out.string());
    const bool skin = vm.count("skin") > 0;
    mapping::ExportOptions opt = model_export_options(vm, ext);

    const std::string where = in.address.display();
    DiagnosticSink sink(ReadMode::Tolerant);
    Model model = read_model(in.bytes, sink, where);
    for (const Diagnostic& d : sink.diagnostics()) spdlog::warn("{}", d.to_string());
    sink.throw_if_errors();

    sidecar::ExportRecord record;
    record.source = where;
    record.output = out.filename().string();
    record.format = ext.substr(1);
    record.fps = opt.fps;
    // The model's WEAR: `<stem>.wea` in the same archive, or next to a plain model file.
    const std::optional<Sibling> wear_file =
        context ? context->wear : find_sibling(in.address, model_wear_name(in.address));
    std::vector<std::string> lightmap_names;
    if (const auto& w = wear_file) {
        try {
            const wear::Wear table = wear::read(w->bytes, w->address);
            opt.material_names = wear::material_names(table);
            lightmap_names = wear::lightmap_names(table);
            record.wear_source = w->address;
            record.wear_rows = opt.material_names;
            record.wear_lightmaps = lightmap_names;
            spdlog::debug("{}: {} materials, {} lightmaps", w->address, opt.material_names.size(),
                          lightmap_names.size());
        } catch (const FormatError& e) {
            spdlog::warn("{} (materials named mat_<row>)", e.what());
        }
    } else {
        spdlog::info("{}: no sibling .wea; materials named mat_<row>", where);
    }
    record.options = {{"lod", choice_json(opt.lod)},
                      {"group", choice_json(opt.group)},
                      {"skin", skin},
                      {"msft_lod", opt.msft_lod}};

    // Lightmaps (glTF only: OBJ has no second texture slot on a second UV set).
    if (!lightmap_names.empty() && ext != ".obj") {
        const std::string problem = mapping::lightmap_uv_problem(model);
        if (problem.empty())
            opt.lightmapped = true;
        else
            spdlog::warn("{}: the WEAR names lightmap {}, but {}; no lightmap", where,
                         lightmap_names[0], problem);
    }
    scene::Scene sc = mapping::model_to_scene(model, opt);
    if (skin) sc = mapping::skin_scene(std::move(sc), model.legacy_nodes ? 1 : model.nodes.size());
    if (!opt.material_names.empty()) {
        std::optional<mapping::MaterialLibraries> own;
        if (!context || !context->libraries)
            own = open_libraries(in.address.file.parent_path(), vm);
        const mapping::MaterialLibraries& libs = own ? *own : *context->libraries;
        std::vector<std::string> warnings;
        const auto resolved = mapping::resolve_materials(opt.material_names, libs, warnings);
        const size_t textured = mapping::apply_materials(sc, resolved);
        size_t lit = 0;
        if (opt.lightmapped)
            lit = mapping::apply_lightmaps(
                sc, mapping::resolve_lightmaps(lightmap_names, libs, warnings));
        for (const std::string& w : warnings) spdlog::warn("{}: {}", where, w);
        nlohmann::json used = nlohmann::json::object();
        if (libs.materials) used["materials"] = libs.materials_name;
        if (libs.textures) used["textures"] = libs.textures_name;
        if (opt.lightmapped && libs.lightmaps) used["lightmaps"] = libs.lightmaps_name;
        if (!used.empty()) sc.extras["mshconv"]["libraries"] = used;
        if (opt.lightmapped)
            spdlog::debug("{}: lightmap {} on {} lit materials", where, lightmap_names[0], lit);
        spdlog::debug("{}: {} of {} materials textured", where, textured, sc.materials.size());
    }
    const fs::path sidecar_path = vm.count("sidecar")
                                      ? fs::path(vm["sidecar"].as<std::string>())
                                      : out.parent_path() / (out.stem().string() + ".sidecar.json");
    auto& extras = sc.extras["mshconv"];
    extras["source"] = where;
    extras["sidecar"] = sidecar_path.filename().string();
    const std::string sidecar_text =
        sidecar::make_model_sidecar(model, in.bytes, record).dump(1) + "\n";

    // Encode everything first, then write each file atomically: no partial output on failure.
    if (ext == ".obj") {
        const std::string mtl_name = out.stem().string() + ".mtl";
        const obj::Files files =
            obj::write(sc, mtl_name, scene::image_file_stem(out.stem().string()) + "_");
        for (const scene::ImageFile& f : files.images)
            write_file_atomic(out.parent_path() / f.name, f.png);
        write_file_atomic(out.parent_path() / mtl_name, Bytes(files.mtl.begin(), files.mtl.end()));
        write_file_atomic(out, Bytes(files.obj.begin(), files.obj.end()));
    } else {
        gltf::write(sc, out);
    }
    write_file_atomic(sidecar_path, Bytes(sidecar_text.begin(), sidecar_text.end()));
    spdlog::info("{} -> {} ({} nodes, {} meshes, {} materials{})", where, out.string(),
                 sc.nodes.size(), sc.meshes.size(), sc.materials.size(),
                 sc.animations.empty() ? "" : ", animated");
    return 0;
}

} // namespace msh::cli
