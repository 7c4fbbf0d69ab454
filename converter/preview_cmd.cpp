#include "preview_cmd.hpp"

#include "commands.hpp"

#include "formats/assimp_read.hpp"
#include "formats/diagnostics.hpp"
#include "formats/file_io.hpp"
#include "formats/sniff.hpp"
#include "pipeline/model_import.hpp"
#include "pipeline/preview_view.hpp"

#include <spdlog/spdlog.h>

#include <charconv>
#include <cmath>

namespace msh::cli {

namespace fs = std::filesystem;

namespace {

constexpr const char* kPreviewUsage = R"(preview IN OUT.png [options]

IN: an MSH model (file or archive entry, textured through its WEAR and the game libraries), a
Land.msh (with Land.map and the WEARs beside it), a Texm texture, or a .gltf/.glb/.obj.
Views (up = the model's +Z): iso (azimuth 45, elevation 30), front (from -Y), back, left, right,
top (from +Z, image up = +Y; maps: orthographic), grid (front, right, top, iso on one sheet).
--strip N: N frames of the animation side by side; --turntable N: N views around the model as an
animated PNG. --metadata M.json: kind, counts, bounds, materials, textures and every view's camera.
)";

int parse_int(const std::string& text, const char* what) {
    int v = 0;
    const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
    if (r.ec != std::errc() || r.ptr != text.data() + text.size())
        throw UsageError(std::string("--") + what + ": not a whole number: '" + text + "'");
    return v;
}

std::optional<std::array<uint8_t, 3>> parse_background(const std::string& text) {
    if (text == "transparent") return std::nullopt;
    auto hex = [](char c) {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    };
    if (text.size() == 7 && text[0] == '#') {
        std::array<uint8_t, 3> rgb{};
        bool ok = true;
        for (size_t k = 0; k < 3; ++k) {
            const int hi = hex(text[1 + 2 * k]), lo = hex(text[2 + 2 * k]);
            ok = ok && hi >= 0 && lo >= 0;
            rgb[k] = uint8_t(hi * 16 + lo);
        }
        if (ok) return rgb;
    }
    throw UsageError("--background must be transparent or #RRGGBB, got '" + text + "'");
}

void check_output(const Address& in, const fs::path& out, const po::variables_map& vm) {
    const std::string ext = lower_ascii(out.extension().string());
    if (ext != ".png" && ext != ".apng")
        throw UsageError("OUT must end in .png (or .apng): " + out.string());
    if (same_path(out, in.file)) throw UsageError("OUT is IN; inputs are never overwritten");
    if (vm.count("metadata")) {
        const fs::path m = vm["metadata"].as<std::string>();
        if (same_path(m, in.file))
            throw UsageError("--metadata is IN; inputs are never overwritten");
        if (same_path(m, out)) throw UsageError("--metadata and OUT are the same file");
    }
}

} // namespace

void add_preview_options(po::options_description& desc, bool standalone) {
    if (standalone)
        desc.add_options()("lod", po::value<std::string>()->default_value("0"),
                           "model: LOD 0..2 to show")("group",
                                                      po::value<std::string>()->default_value("0"),
                                                      "model: slot group 0..4 to show")(
            "fps", po::value<double>(), "frames per second for --time (default 24)")(
            "game-dir", po::value<std::string>(),
            "folder with Material.lib and Textures.lib (default: beside IN, maps: above it)");
    if (standalone) add_reading_option(desc);
    desc.add_options()("size", po::value<std::string>()->default_value("256"),
                       "W or WxH pixels of one view (a grid is 2 x 2 views)")(
        "view", po::value<std::string>(),
        "iso|front|back|left|right|top|grid (default: iso; maps: top)")(
        "frame", po::value<double>(), "model: pose at this animation frame (engine sampler)")(
        "time", po::value<double>(), "model: pose at this time in seconds (frame = time * fps)")(
        "strip", po::value<int>(), "model: N evenly spaced animation frames side by side")(
        "turntable", po::value<int>(), "model: N views around it as an animated PNG")(
        "background", po::value<std::string>()->default_value("transparent"),
        "transparent or #RRGGBB")("overlay", po::value<std::string>(),
                                  standalone ? "map: areal overlay none|outline|fill (default; "
                                               "with a legend)"
                                             : "maps: --to preview: none|outline|fill (default; "
                                               "with a legend); --to glb|gltf: raw (no draped "
                                               "layer: smaller, faster) or both (default)")(
        "samples", po::value<int>()->default_value(2),
        "supersampling per side: 2 = 4 samples per pixel")(
        "both-sides", "draw the inner side of closed shells too (slower; as before culling)")(
        "materials", po::value<std::string>(),
        "Material.lib to use")("textures", po::value<std::string>(), "Textures.lib to use")(
        "map", po::value<std::string>(), "map: the Land.map (default: beside IN)")(
        "wear1", po::value<std::string>(), "map: the layer-1 WEAR (default: beside IN)")(
        "wear2", po::value<std::string>(), "map: the layer-2 WEAR (default: beside IN)");
}

pipeline::PreviewSettings preview_settings(const po::variables_map& vm) {
    pipeline::PreviewSettings s;
    s.readings = readings_option(vm);
    const std::string size = vm["size"].as<std::string>();
    const auto x = size.find_first_of("xX");
    s.width = parse_int(size.substr(0, x), "size");
    s.height = x == std::string::npos ? s.width : parse_int(size.substr(x + 1), "size");
    if (vm.count("view")) s.view = vm["view"].as<std::string>();
    s.lod = parse_int(vm["lod"].as<std::string>(), "lod");
    s.group = parse_int(vm["group"].as<std::string>(), "group");
    if (s.lod < 0 || s.lod >= kLods) throw UsageError("--lod must be 0..2 (one LOD is shown)");
    if (s.group < 0 || s.group >= kGroups)
        throw UsageError("--group must be 0..4 (one group is shown)");
    if (vm.count("fps")) s.fps = vm["fps"].as<double>();
    if (vm.count("frame") && vm.count("time"))
        throw UsageError("--frame and --time do not go together");
    if (vm.count("frame")) s.frame = vm["frame"].as<double>();
    if (vm.count("time")) s.frame = vm["time"].as<double>() * s.fps;
    if (vm.count("strip")) s.strip = vm["strip"].as<int>();
    if (vm.count("turntable")) s.turntable = vm["turntable"].as<int>();
    if ((vm.count("strip") && s.strip < 1) || (vm.count("turntable") && s.turntable < 1))
        throw UsageError("--strip and --turntable need at least 1");
    s.background = parse_background(vm["background"].as<std::string>());
    const std::string overlay = vm.count("overlay") ? vm["overlay"].as<std::string>() : "fill";
    if (overlay == "none")
        s.overlay = pipeline::PreviewSettings::Overlay::None;
    else if (overlay == "outline")
        s.overlay = pipeline::PreviewSettings::Overlay::Outline;
    else if (overlay != "fill")
        throw UsageError("--overlay must be none, outline or fill, got '" + overlay + "'");
    s.samples_per_side = vm["samples"].as<int>();
    s.both_sides = vm.count("both-sides") > 0;
    if (const std::string problem = pipeline::preview_settings_problem(s); !problem.empty())
        throw UsageError(problem);
    return s;
}

pipeline::Preview preview_loaded(const Loaded& in, const po::variables_map& vm,
                                 const pipeline::PreviewSettings& settings,
                                 pipeline::PreviewTextureCache* cache,
                                 const ModelExportContext* context, nlohmann::json* view) {
    const std::string leaf = in.address.entries.empty() ? in.address.file.filename().string()
                                                        : in.address.entries.back();
    const std::string ext = lower_ascii(fs::path(leaf).extension().string());
    ContentKind kind = sniff(in.bytes, {leaf, std::nullopt});
    // A model or map too damaged to show its resources: its reader says why.
    if (kind == ContentKind::NResArchive || kind == ContentKind::DamagedNRes) {
        if (lower_ascii(leaf) == "land.msh")
            kind = ContentKind::Terrain;
        else if (ext == ".msh")
            kind = ContentKind::Model;
    }
    switch (kind) {
    case ContentKind::Model: {
        const pipeline::ModelExportInput input = model_export_input(in, vm, context);
        pipeline::Preview p = pipeline::preview_model(input, settings, cache);
        if (view) *view = pipeline::model_view(input, settings, p.metadata);
        return p;
    }
    case ContentKind::Terrain: {
        std::optional<mapping::MaterialLibraries> own;
        const pipeline::TerrainExportInput input =
            terrain_export_input(in, vm, context ? context->libraries : nullptr, own);
        pipeline::Preview p = pipeline::preview_terrain(input, settings, cache);
        if (view) *view = pipeline::terrain_view(input, settings, p.metadata);
        return p;
    }
    case ContentKind::Texm: {
        pipeline::Preview p = pipeline::preview_texture(in.bytes, in.address.display(), settings);
        if (view)
            *view = pipeline::texture_view(in.bytes, in.address.display(), settings, p.metadata);
        return p;
    }
    case ContentKind::DamagedNRes:
        nres::read(in.bytes, ReadMode::Tolerant, in.address.display(), in.bytes.keeper());
        break;
    default:
        if (ext == ".texm") texm::read(in.bytes, ReadMode::Strict, in.address.display());
        break;
    }
    throw FormatError(in.address.display(), 0,
                      std::string("cannot preview this input (") + to_string(kind) +
                          "): expected an MSH model, a Land.msh, a Texm texture or a "
                          ".gltf/.glb/.obj");
}

int run_preview(const Args& args) {
    po::options_description desc("preview options");
    desc.add_options()("input", po::value<std::string>()->required(), "file or archive entry")(
        "output", po::value<std::string>()->required(), "the PNG")(
        "metadata", po::value<std::string>(), "also write the facts and cameras as JSON");
    add_preview_options(desc, true);
    po::positional_options_description pos;
    pos.add("input", 1).add("output", 1);
    po::variables_map vm;
    if (!parse_options(args, kPreviewUsage, desc, pos, vm)) return 0;
    const Address in = parse_address(vm["input"].as<std::string>());
    const fs::path out = vm["output"].as<std::string>();
    check_output(in, out, vm);
    const pipeline::PreviewSettings settings = preview_settings(vm);

    const std::string ext = lower_ascii(in.file.extension().string());
    pipeline::Preview preview;
    if (in.entries.empty() && (ext == ".gltf" || ext == ".glb" || ext == ".obj" ||
                               assimp_read::handles(in.file.filename().string()))) {
        std::vector<std::string> warnings;
        const scene::Scene sc = pipeline::read_scene_file(in.file, warnings, false, true);
        for (const std::string& w : warnings) spdlog::warn("{}", w);
        preview = pipeline::preview_scene(sc, read_file(in.file), in.file.string(), settings);
    } else {
        preview = preview_loaded(load(in), vm, settings);
    }
    for (const std::string& w : preview.warnings) spdlog::warn("{}", w);
    // The picture and its metadata appear together or not at all.
    pipeline::OutputFiles also;
    if (vm.count("metadata")) {
        const std::string text = preview.metadata.dump(2) + "\n";
        also.push_back({vm["metadata"].as<std::string>(), Bytes(text.begin(), text.end())});
    }
    pipeline::write_outputs(out.parent_path(), {{out.filename().string(), preview.png}}, also);
    spdlog::info("{} -> {} ({})", in.display(), out.string(),
                 preview.metadata["kind"].get<std::string>());
    return 0;
}

} // namespace msh::cli
