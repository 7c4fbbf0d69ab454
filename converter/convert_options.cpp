#include "convert_options.hpp"
#include "log.hpp"

#include "formats/readings.hpp"

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

} // namespace

mshconv::ConvertOptions convert_options(const po::variables_map& vm) {
    mshconv::ConvertOptions o;
    o.sidecar = path_of(vm, "sidecar");
    o.report = path_of(vm, "report");
    o.lod = given<std::string>(vm, "lod");
    o.group = given<std::string>(vm, "group");
    o.fps = given<double>(vm, "fps");
    o.skin = vm.count("skin") > 0;
    o.msft_lod = vm.count("msft-lod") > 0;
    o.mips = vm.count("mips") > 0;
    o.png_level = given<int>(vm, "png-level");
    o.format = given<std::string>(vm, "format");
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
    if (vm.count("reading")) o.readings = vm["reading"].as<std::vector<std::string>>();
    o.map = path_of(vm, "map");
    o.wear1 = path_of(vm, "wear1");
    o.wear2 = path_of(vm, "wear2");
    o.areal_faces = vm.count("areal-faces") > 0;
    o.overlay = given<std::string>(vm, "overlay");
    if (const auto jobs = given<int>(vm, "jobs")) {
        if (*jobs < 1) throw UsageError("-j must be at least 1");
        o.threads = unsigned(*jobs);
    }
    return o;
}

void add_reading_option(po::options_description& desc) {
    std::string help = "select a contested reading of the formats (repeatable; docs/formats/"
                       "README.md): ";
    for (const ReadingInfo& info : reading_infos()) {
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
