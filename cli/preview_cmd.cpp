#include "preview_cmd.hpp"
#include "log.hpp"

#include "commands.hpp"
#include "convert_options.hpp"

#include "formats/names.hpp"

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

void check_output(const fs::path& in, const fs::path& out, const po::variables_map& vm) {
    mshconv::Io& disk = mshconv::disk();
    const std::string ext = lower_ascii(out.extension().string());
    if (ext != ".png" && ext != ".apng")
        throw UsageError("OUT must end in .png (or .apng): " + out.string());
    if (disk.same_file(out, in)) throw UsageError("OUT is IN; inputs are never overwritten");
    if (vm.count("metadata")) {
        const fs::path m = vm["metadata"].as<std::string>();
        if (disk.same_file(m, in))
            throw UsageError("--metadata is IN; inputs are never overwritten");
        if (disk.same_file(m, out)) throw UsageError("--metadata and OUT are the same file");
    }
}

} // namespace

void add_preview_options(po::options_description& desc, PreviewUse use) {
    if (use != PreviewUse::Batch) {
        desc.add_options()("lod", po::value<std::string>()->default_value("0")->value_name("N"),
                           use == PreviewUse::View ? "model: LOD 0..2 shown first"
                                                   : "model: LOD 0..2 to show")(
            "group", po::value<std::string>()->default_value("0")->value_name("N"),
            use == PreviewUse::View ? "model: slot group 0..4 shown first"
                                    : "model: slot group 0..4 to show")(
            "fps", po::value<double>()->value_name("F"),
            use == PreviewUse::View ? "model: frames per second of the animation's key times "
                                      "(default 24)"
                                    : "frames per second for --time (default 24)")(
            "game-dir", po::value<std::string>()->value_name("DIR"),
            "folder with Material.lib and Textures.lib (default: beside IN, maps: above it)");
        add_reading_option(desc);
    }
    desc.add_options()("size", po::value<std::string>()->default_value("256")->value_name("W[xH]"),
                       use == PreviewUse::View
                           ? "W or WxH pixels of the thumbnail whose camera the view opens at"
                           : "W or WxH pixels of one view (a grid is 2 x 2 views)")(
        "view", po::value<std::string>()->value_name("iso|front|back|left|right|top|grid"),
        use == PreviewUse::View ? "the camera it opens at (default: iso; maps: top)"
                                : "default: iso; maps: top");
    if (use != PreviewUse::View)
        desc.add_options()("frame", po::value<double>()->value_name("F"),
                           "model: pose at this animation frame (engine sampler)")(
            "time", po::value<double>()->value_name("S"),
            "model: pose at this time in seconds (frame = time * fps)")(
            "strip", po::value<int>()->value_name("N"),
            "model: N evenly spaced animation frames side by side")(
            "turntable", po::value<int>()->value_name("N"),
            "model: N views around it as an animated PNG")("background",
                                                           po::value<std::string>()
                                                               ->default_value("transparent")
                                                               ->value_name("transparent|#RRGGBB"),
                                                           "the picture's background")(
            "overlay-style", po::value<std::string>()->value_name("none|outline|fill"),
            "map: the areal overlay (default: fill, with a legend)")(
            "samples", po::value<int>()->default_value(2)->value_name("N"),
            "supersampling per side: 2 = 4 samples per pixel")(
            "both-sides", "draw the inner side of closed shells too (slower; as before culling)");
    // One asset's own files: a batch finds each asset's beside it.
    if (use == PreviewUse::Batch) return;
    desc.add_options()("materials", po::value<std::string>()->value_name("F"),
                       "Material.lib to use")("textures", po::value<std::string>()->value_name("F"),
                                              "Textures.lib to use")(
        "map", po::value<std::string>()->value_name("F"), "map: the Land.map (default: beside IN)")(
        "wear1", po::value<std::string>()->value_name("F"),
        "map: the layer-1 WEAR (default: beside IN)")("wear2",
                                                      po::value<std::string>()->value_name("F"),
                                                      "map: the layer-2 WEAR (default: beside IN)");
}

void add_old_overlay_spelling(po::options_description& hidden) {
    hidden.add_options()("overlay", po::value<std::string>(), "");
}

void adopt_old_overlay_spelling(po::variables_map& vm) {
    if (!vm.count("overlay")) return;
    const std::string style = vm["overlay"].as<std::string>();
    if (style != "none" && style != "outline" && style != "fill") return;
    if (vm.count("overlay-style"))
        throw UsageError("--overlay " + style + " is --overlay-style " + style +
                         ", given as well; give --overlay-style alone");
    log_warn("--overlay " + style + " is now --overlay-style " + style);
    auto node = vm.extract("overlay");
    node.key() = "overlay-style";
    vm.insert(std::move(node));
}

namespace {

mshconv::PreviewView preview_view(const std::string& name) {
    const auto view = mshconv::parse_preview_view(name);
    if (!view) throw UsageError("view must be iso, front, back, left, right, top or grid");
    return *view;
}

mshconv::OverlayStyle overlay_style(const std::string& name) {
    if (const auto style = mshconv::parse_overlay_style(name)) return *style;
    throw UsageError("--overlay-style must be none, outline or fill, got '" + name + "'");
}

} // namespace

mshconv::PreviewOptions preview_options(const po::variables_map& vm) {
    mshconv::PreviewOptions o;
    if (vm.count("size")) {
        const std::string size = vm["size"].as<std::string>();
        const auto x = size.find_first_of("xX");
        o.width = parse_int(size.substr(0, x), "size");
        o.height = x == std::string::npos ? o.width : parse_int(size.substr(x + 1), "size");
    }
    if (vm.count("view")) o.view = preview_view(vm["view"].as<std::string>());
    o.lod = parse_int(vm["lod"].as<std::string>(), "lod");
    o.group = parse_int(vm["group"].as<std::string>(), "group");
    if (vm.count("fps")) o.fps = vm["fps"].as<double>();
    if (vm.count("frame") && vm.count("time"))
        throw UsageError("--frame and --time do not go together");
    if (vm.count("frame")) o.frame = vm["frame"].as<double>();
    if (vm.count("time")) o.frame = vm["time"].as<double>() * o.fps;
    if (vm.count("strip")) o.strip = vm["strip"].as<int>();
    if (vm.count("turntable")) o.turntable = vm["turntable"].as<int>();
    if ((vm.count("strip") && o.strip < 1) || (vm.count("turntable") && o.turntable < 1))
        throw UsageError("--strip and --turntable need at least 1");
    if (vm.count("background")) o.background = parse_background(vm["background"].as<std::string>());
    if (vm.count("overlay-style")) o.overlay = overlay_style(vm["overlay-style"].as<std::string>());
    if (vm.count("samples")) o.samples_per_side = vm["samples"].as<int>();
    o.both_sides = vm.count("both-sides") > 0;
    return o;
}

int run_preview(const Args& args) {
    po::options_description desc("preview options");
    desc.add_options()("metadata", po::value<std::string>()->value_name("M.json"),
                       "also write the facts and cameras as JSON");
    add_preview_options(desc, PreviewUse::Preview);
    po::options_description hidden;
    add_old_overlay_spelling(hidden);
    po::variables_map vm;
    if (!parse_options(args, kPreviewUsage, desc, {{"input", "IN"}, {"output", "OUT"}}, vm, hidden))
        return 0;
    adopt_old_overlay_spelling(vm);
    if (vm.count("overlay"))
        throw UsageError("--overlay " + vm["overlay"].as<std::string>() +
                         " is a map export's (raw|draped|both); a preview's areal overlay is "
                         "--overlay-style none|outline|fill");
    const std::string input = vm["input"].as<std::string>();
    const fs::path out = vm["output"].as<std::string>();
    check_output(mshconv::address_file(input), out, vm);
    const mshconv::PreviewRequest request{input, preview_options(vm), convert_options(vm)};
    const mshconv::Preview preview = mshconv::preview(request, mshconv::disk(), print_message);
    // The picture and its metadata appear together or not at all.
    std::vector<mshconv::FileToWrite> files = {{out, {preview.png}}};
    if (vm.count("metadata"))
        files.push_back({vm["metadata"].as<std::string>(),
                         {std::span(reinterpret_cast<const uint8_t*>(preview.metadata_json.data()),
                                    preview.metadata_json.size())}});
    mshconv::disk().write_set(files);
    log_info(input + " -> " + out.string() + " (" + mshconv::to_string(preview.kind) + ")");
    return 0;
}

} // namespace msh::cli
