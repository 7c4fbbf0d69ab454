// `mshconv convert IN OUT [--lod N|all] [--group N|all] [--fps F]`: MSH model (file or archive
// entry) -> glTF 2.0 (.gltf + .bin, or .glb by extension) plus OUT_STEM.sidecar.json.
#include "address.hpp"
#include "commands.hpp"
#include "options.hpp"

#include "formats/file_io.hpp"
#include "formats/gltf.hpp"
#include "formats/msh.hpp"
#include "formats/nres.hpp"
#include "formats/wear.hpp"
#include "mapping/model_to_scene.hpp"

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

std::string lower(std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::string stem_of(const std::string& name) {
    const auto dot = name.rfind('.');
    return dot == std::string::npos || dot == 0 ? name : name.substr(0, dot);
}

// The model's WEAR: `<stem>.wea` in the same archive, or next to a plain model file.
std::optional<std::pair<std::string, Bytes>> find_wear(const Address& address) {
    if (!address.entries.empty()) {
        Address parent = address;
        const std::string model_name = parent.entries.back();
        parent.entries.pop_back();
        Loaded archive = load(parent);
        nres::Archive ar = nres::read(archive.bytes, ReadMode::Tolerant, parent.display());
        const std::string wanted = stem_of(model_name) + ".wea";
        if (auto i = ar.find(wanted)) {
            Address a = parent;
            a.entries.push_back(ar.entries[*i].name());
            return std::make_pair(a.display(), std::move(ar.entries[*i].data));
        }
        return std::nullopt;
    }
    const fs::path dir =
        address.file.parent_path().empty() ? fs::path(".") : address.file.parent_path();
    const std::string wanted = lower(stem_of(address.file.filename().string()) + ".wea");
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec))
        if (e.is_regular_file() && lower(e.path().filename().string()) == wanted)
            return std::make_pair(e.path().string(), read_file(e.path()));
    return std::nullopt;
}

uint64_t fnv1a64(ByteView bytes) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (uint8_t b : bytes) h = (h ^ b) * 0x100000001b3ull;
    return h;
}

std::string hex64(uint64_t v) {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
    return buf;
}

nlohmann::json choice_json(int v) {
    return v == mapping::kAll ? nlohmann::json("all") : nlohmann::json(v);
}

} // namespace

int run_convert(const Args& args) {
    po::options_description desc("convert options");
    desc.add_options()("input", po::value<std::string>()->required(),
                       "model file or archive entry")(
        "output", po::value<std::string>()->required(), "OUT.gltf (+ .bin) or OUT.glb")(
        "lod", po::value<std::string>()->default_value("0"), "LOD to export: 0..2 or all")(
        "group", po::value<std::string>()->default_value("0"), "slot group to export: 0..4 or all")(
        "fps", po::value<double>()->default_value(24.0), "frames per second for key times");
    po::positional_options_description pos;
    pos.add("input", 1).add("output", 1);
    po::variables_map vm;
    if (!parse_options(args, "convert IN OUT [--lod N|all] [--group N|all] [--fps F]", desc, pos,
                       vm))
        return 0;

    const fs::path out = vm["output"].as<std::string>();
    const std::string ext = lower(out.extension().string());
    if (ext != ".gltf" && ext != ".glb")
        throw UsageError("OUT must end in .gltf or .glb: " + out.string());
    mapping::ExportOptions opt;
    opt.lod = parse_choice(vm["lod"].as<std::string>(), kLods, "lod");
    opt.group = parse_choice(vm["group"].as<std::string>(), kGroups, "group");
    opt.fps = vm["fps"].as<double>();
    if (!(opt.fps > 0) || !std::isfinite(opt.fps))
        throw UsageError("--fps must be a positive number");

    Loaded in = load(parse_address(vm["input"].as<std::string>()));
    const std::string where = in.address.display();
    if (classify(in.bytes) != Kind::Model)
        throw FormatError(where, 0,
                          "not an MSH model (convert takes a model file or archive entry)");
    DiagnosticSink sink(ReadMode::Tolerant);
    Model model = read_model(in.bytes, sink, where);
    for (const Diagnostic& d : sink.diagnostics()) spdlog::warn("{}", d.to_string());
    sink.throw_if_errors();

    nlohmann::json wear_json = nullptr;
    if (auto w = find_wear(in.address)) {
        try {
            opt.material_names = wear::material_names(wear::read(w->second, w->first));
            wear_json = w->first;
            spdlog::debug("{}: {} materials", w->first, opt.material_names.size());
        } catch (const FormatError& e) {
            spdlog::warn("{} (materials named mat_<row>)", e.what());
        }
    } else {
        spdlog::info("{}: no sibling .wea; materials named mat_<row>", where);
    }

    scene::Scene sc = mapping::model_to_scene(model, opt);
    const std::string hash = hex64(fnv1a64(in.bytes));
    const fs::path sidecar_path = out.parent_path() / (out.stem().string() + ".sidecar.json");
    auto& extras = sc.extras["mshconv"];
    extras["source"] = where;
    extras["source_fnv1a64"] = hash;
    extras["sidecar"] = sidecar_path.filename().string();

    nlohmann::json sidecar = {
        {"schema", "mshconv-sidecar/1"},
        {"source", where},
        {"source_fnv1a64", hash},
        {"source_size", in.bytes.size()},
        {"fps", opt.fps},
        {"wear", wear_json},
        {"options", {{"lod", choice_json(opt.lod)}, {"group", choice_json(opt.group)}}},
        {"output", out.filename().string()}};
    const std::string sidecar_text = sidecar.dump(2) + "\n";

    gltf::write(sc, out);
    write_file_atomic(sidecar_path, Bytes(sidecar_text.begin(), sidecar_text.end()));
    spdlog::info("{} -> {} ({} nodes, {} meshes, {} materials{})", where, out.string(),
                 sc.nodes.size(), sc.meshes.size(), sc.materials.size(),
                 sc.animations.empty() ? "" : ", animated");
    return 0;
}

} // namespace msh::cli
