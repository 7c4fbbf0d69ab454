#include "convert_options.hpp"
#include "log.hpp"

#include "formats/readings.hpp"

#include <charconv>
#include <cstdio>

namespace msh::cli {

namespace {

template <class T> std::optional<T> given(const po::variables_map& vm, const char* name) {
    if (!vm.count(name) || vm[name].defaulted()) return std::nullopt;
    return vm[name].as<T>();
}

std::filesystem::path path_of(const po::variables_map& vm, const char* name) {
    return vm.count(name) ? std::filesystem::path(vm[name].as<std::string>())
                          : std::filesystem::path();
}

// --lod and --group: an index below `count`, or "all".
std::optional<int> index_or_all(const po::variables_map& vm, const char* name, int count) {
    const std::optional<std::string> text = given<std::string>(vm, name);
    if (!text) return std::nullopt;
    if (*text == "all") return mshconv::kAll;
    int v = -1;
    const auto r = std::from_chars(text->data(), text->data() + text->size(), v);
    if (r.ec != std::errc() || r.ptr != text->data() + text->size() || v < 0 || v >= count)
        throw UsageError(std::string("--") + name + " must be 0.." + std::to_string(count - 1) +
                         " or 'all', got '" + *text + "'");
    return v;
}

std::optional<mshconv::MapOverlay> map_overlay(const po::variables_map& vm) {
    const std::optional<std::string> o = given<std::string>(vm, "overlay");
    if (!o) return std::nullopt;
    if (*o == "raw") return mshconv::MapOverlay::Raw;
    if (*o == "draped" || *o == "both") return mshconv::MapOverlay::Draped;
    throw UsageError("--overlay " + *o + ": maps to glTF take raw, draped or both" +
                     (*o == "none" || *o == "outline" || *o == "fill"
                          ? std::string(" (none, outline and fill are a preview's --overlay-style)")
                          : std::string()));
}

} // namespace

mshconv::ConvertOptions convert_options(const po::variables_map& vm) {
    mshconv::ConvertOptions o;
    o.sidecar = path_of(vm, "sidecar");
    o.report = path_of(vm, "report");
    o.lod = index_or_all(vm, "lod", 3);
    o.group = index_or_all(vm, "group", 5);
    o.fps = given<double>(vm, "fps");
    o.skin = vm.count("skin") > 0;
    o.msft_lod = vm.count("msft-lod") > 0;
    o.mips = vm.count("mips") > 0;
    o.png_level = given<int>(vm, "png-level");
    if (const std::optional<std::string> f = given<std::string>(vm, "format")) {
        uint32_t code = 0;
        const auto r = std::from_chars(f->data(), f->data() + f->size(), code);
        if (r.ec != std::errc() || r.ptr != f->data() + f->size())
            throw UsageError("--format must be a Texm format code (0, 565, 556, 4444, 88, 888 or "
                             "8888), got '" +
                             *f + "'");
        o.format = code;
    }
    o.max_pixels = given<uint64_t>(vm, "max-pixels");
    o.animation = given<std::string>(vm, "animation");
    o.force = vm.count("force") > 0;
    o.full_read = vm.count("full-read") > 0;
    o.replace = vm.count("replace") > 0;
    o.new_model = vm.count("new-model") > 0;
    o.max_texture_size = given<uint32_t>(vm, "max-texture-size");
    o.game_dir = path_of(vm, "game-dir");
    o.materials = path_of(vm, "materials");
    o.textures = path_of(vm, "textures");
    if (vm.count("reading"))
        for (const std::string& a : vm["reading"].as<std::vector<std::string>>()) {
            const size_t eq = a.find('=');
            if (eq == std::string::npos)
                throw UsageError("--reading takes NAME=VARIANT, got '" + a + "'");
            o.readings.push_back({a.substr(0, eq), a.substr(eq + 1)});
        }
    o.map = path_of(vm, "map");
    o.wear1 = path_of(vm, "wear1");
    o.wear2 = path_of(vm, "wear2");
    o.areal_faces = vm.count("areal-faces") > 0;
    o.overlay = map_overlay(vm);
    if (const auto jobs = given<int>(vm, "jobs")) {
        if (*jobs < 1) throw UsageError("-j must be at least 1");
        o.threads = unsigned(*jobs);
    }
    return o;
}

void add_reading_option(po::options_description& desc) {
    std::string help = "select a contested reading of the formats (repeatable; docs/formats/"
                       "README.md): ";
    std::vector<ReadingInfo> all = reading_infos();
    for (const ReadingInfo& info : level_reading_infos()) all.push_back(info);
    for (const ReadingInfo& info : all) {
        help.append(info.name).append("=");
        for (size_t v = 0; v < info.variants.size(); ++v)
            help.append(v ? "|" : "").append(info.variants[v]);
        help.append(" (default ").append(info.variants.front()).append("); ");
    }
    help += "`mshconv survey` says which the game's files support";
    desc.add_options()(
        "reading", po::value<std::vector<std::string>>()->composing()->value_name("NAME=VARIANT"),
        help.c_str());
}

void print_message(mshconv::MessageLevel level, const std::string& text) {
    switch (level) {
    case mshconv::MessageLevel::Debug:
        log_debug(text);
        break;
    case mshconv::MessageLevel::Info:
        log_info(text);
        break;
    case mshconv::MessageLevel::Warning:
        log_warn(text);
        break;
    case mshconv::MessageLevel::Report:
        if (log_shows(LogLevel::Warn)) std::printf("%s\n", text.c_str());
        break;
    }
}

} // namespace msh::cli
