// `mshconv convert IN OUT [options]`: picks the direction from IN's content (NRes model) or
// extension (.gltf, .glb, .obj) and OUT's extension, then hands over to one file per direction.
#include "convert.hpp"

#include "commands.hpp"

#include "formats/assimp_read.hpp"
#include "formats/diagnostics.hpp"
#include "formats/file_io.hpp"
#include "formats/nres.hpp"
#include "formats/png.hpp"
#include "formats/sniff.hpp"
#include "formats/texm.hpp"

#include <cctype>
#include <omp.h>

namespace msh::cli {

namespace fs = std::filesystem;

namespace {

constexpr const char* kConvertUsage = R"(convert IN OUT [options]

The direction comes from IN's content (file or archive entry) and OUT's name:
  MSH model                    -> .gltf (+ .bin) | .glb | .obj (+ .mtl)   + OUT_STEM.sidecar.json
  Land.msh (+ Land.map, WEARs) -> .gltf | .glb | .obj                     + OUT_STEM.sidecar.json
  Texm texture                 -> .png (--mips: every level)              + OUT_STEM.sidecar.json
  .gltf | .glb | .obj          -> .msh or ARCHIVE:ENTRY.msh  (model sidecar beside IN: the edits
                                 merged into the original; none: a new model)
  .gltf | .glb | .obj          -> Land.msh (+ Land.map)      (terrain sidecar beside IN)
  .png                         -> .texm or Textures.lib:NAME.0 (sidecar beside IN: the original
                                 format, byte-identical when unchanged; none: a new texture)
An archive as IN is refused with the names of its models: convert one entry, or use `batch`.
)";

// `convert static.rlb out.glb`: the archive holds many things; say what and how to get at them.
std::string archive_hint(const Loaded& in, const std::string& out_spec) {
    const nres::Archive ar =
        nres::read(in.bytes, ReadMode::Tolerant, in.address.display(), in.bytes.keeper());
    std::vector<std::string> models, textures;
    for (const nres::Entry& e : ar.entries) {
        const ContentKind k = sniff(e.data, {e.name(), e.type});
        if (k == ContentKind::Model) models.push_back(e.display_name());
        if (k == ContentKind::Texm) textures.push_back(e.display_name());
    }
    const std::string where = in.address.display();
    std::string text = where + " is an NRes archive of " + std::to_string(ar.entries.size()) +
                       " entries (" + std::to_string(models.size()) + " models, " +
                       std::to_string(textures.size()) +
                       " textures); convert converts one thing: name an entry";
    const std::vector<std::string>& pick = models.empty() ? textures : models;
    if (!pick.empty())
        text += ", e.g. `mshconv convert " + where + ":" + pick.front() + " " + out_spec + "`";
    return text + ", or convert them all with `mshconv batch " + where + " -o DIR --to " +
           (models.empty() ? "png" : "glb") + "`";
}

// Inputs are never overwritten and outputs never collide: OUT, --report and an export's sidecar
// must differ from IN (the whole file, archive or not), from an import's sidecar and from one
// another. An existing archive as OUT needs its entry named: a whole archive is never replaced
// by one entry's content.
void check_output_paths(const Address& in, const Address& out, const po::variables_map& vm,
                        bool import) {
    std::vector<std::pair<std::string, fs::path>> inputs{{"IN", in.file}},
        outputs{{"OUT", out.file}};
    (import ? inputs : outputs)
        .emplace_back("the sidecar", import ? import_sidecar_path(in.file, vm)
                                            : export_sidecar_path(out.file, vm));
    if (vm.count("report")) outputs.emplace_back("--report", vm["report"].as<std::string>());
    for (size_t i = 0; i < outputs.size(); ++i) {
        for (const auto& [what, path] : inputs)
            if (same_path(outputs[i].second, path))
                throw UsageError(outputs[i].first + " (" + outputs[i].second.string() + ") is " +
                                 what + "; inputs are never overwritten");
        for (size_t j = i + 1; j < outputs.size(); ++j)
            if (same_path(outputs[i].second, outputs[j].second))
                throw UsageError(outputs[i].first + " and " + outputs[j].first +
                                 " are the same file (" + outputs[i].second.string() + ")");
    }
    std::error_code ec;
    if (import && out.entries.empty() && fs::is_regular_file(out.file, ec)) {
        const Bytes existing = read_file(out.file);
        if (sniff(existing, {out.file.filename().string(), std::nullopt}) ==
            ContentKind::NResArchive) {
            const nres::Archive ar = nres::read(existing, ReadMode::Tolerant, out.file.string());
            throw UsageError(out.file.string() + " is an NRes archive of " +
                             std::to_string(ar.entries.size()) +
                             " entries; name the entry to replace (" + out.file.string() +
                             ":ENTRY): a whole archive is never replaced by one entry");
        }
    }
}

// Threads for a map's draped overlay: -j N, else all cores as batch (OMP_NUM_THREADS too).
unsigned drape_threads(const po::variables_map& vm) {
    if (!vm.count("jobs")) return unsigned(std::max(1, omp_get_max_threads()));
    const int n = vm["jobs"].as<int>();
    if (n < 1) throw UsageError("-j must be at least 1");
    return unsigned(n);
}

} // namespace

bool same_path(const fs::path& a, const fs::path& b) {
    std::error_code ec;
    if (fs::absolute(a, ec).lexically_normal() == fs::absolute(b, ec).lexically_normal())
        return true;
    return fs::exists(a, ec) && fs::exists(b, ec) && fs::equivalent(a, b, ec);
}

int run_convert(const Args& args) {
    po::options_description desc("convert options");
    desc.add_options()("input", po::value<std::string>()->required(), "file or archive entry")(
        "output", po::value<std::string>()->required(), "file or archive entry")(
        "lod", po::value<std::string>()->default_value("0"), "export: LOD 0..2 or all")(
        "group", po::value<std::string>()->default_value("0"), "export: slot group 0..4 or all")(
        "fps", po::value<double>(),
        "frames per second of key times (export default 24; import: the sidecar's)")(
        "skin", "export glTF: one skinned mesh per LOD/group whose joints are the nodes")(
        "msft-lod", "export glTF with --lod all: also write the MSFT_lod extension")(
        "sidecar", po::value<std::string>(),
        "sidecar path (default OUT_STEM.sidecar.json / IN_STEM.sidecar.json)")(
        "report", po::value<std::string>(), "import: write the change report as JSON")(
        "animation", po::value<std::string>(),
        "import: several glTF animations -> all (default: merged into the one MSH timeline; two "
        "driving the same node property are an error) or one, by NAME or INDEX")(
        "force", "import: accept a file whose pairing token is not its sidecar's (another "
                 "export's sidecar; the result may mix the two)")(
        "full-read",
        "import: read and compare the file even when it is, byte for byte, the one its sidecar's "
        "export wrote (by default that file gives the original without being read)")(
        "mips", "texture export: also write every mip level as OUT_STEM.mip<k>.png")(
        "png-level", po::value<int>(),
        "PNG encoding, zlib level 0..9 with adaptive row filters (9: smallest files); default: "
        "the fast setting (ISA-L igzip level 0, Up filter; same pixels)")(
        "format", po::value<std::string>(),
        "texture import: Texm format 0, 565, 556, 4444, 88, 888 or 8888 (new textures; a "
        "different format re-encodes); new model: the format of every texture it adds (default "
        "565, 8888 with alpha)")(
        "replace",
        "new model: overwrite materials of the same name in Material.lib (default: "
        "keep them)")("max-texture-size", po::value<uint32_t>()->default_value(256),
                      "new model: textures larger than this (a power of two) are resized down")(
        "max-pixels", po::value<uint64_t>()->default_value(png::kDefaultMaxPixels),
        "texture import: refuse PNGs of more pixels, before decoding (default 8192 x 8192)")(
        "game-dir", po::value<std::string>(),
        "model export: folder with Material.lib, Textures.lib, palettes.lib, LightMap.lib; new "
        "model: the folder whose libraries receive its materials and textures")(
        "materials", po::value<std::string>(), "model export / new model: Material.lib to use")(
        "textures", po::value<std::string>(), "model export / new model: Textures.lib to use");
    add_reading_option(desc);
    // ---- Terrain export options (export_terrain.cpp) ----
    desc.add_options()("map", po::value<std::string>(),
                       "terrain export: the Land.map (default: <base>.map next to IN)")(
        "wear1", po::value<std::string>(),
        "terrain export: the layer-1 WEAR (default: <base>1.wea next to IN)")(
        "wear2", po::value<std::string>(),
        "terrain export: the layer-2 WEAR (default: <base>2.wea next to IN)")(
        "areal-faces", "terrain export to OBJ: also write the areals as filled faces")(
        "overlay", po::value<std::string>(),
        "terrain export to glTF: raw (the areal polygons as stored) or draped / both (default: "
        "also laid on the terrain as ArealMap_draped, coloured per class, outlines as ribbons)")(
        "jobs,j", po::value<int>(),
        "terrain export: threads draping the areal overlay (default: all cores; same output)");
    po::positional_options_description pos;
    pos.add("input", 1).add("output", 1);
    po::variables_map vm;
    if (!parse_options(args, kConvertUsage, desc, pos, vm)) return 0;

    const std::string in_spec = vm["input"].as<std::string>();
    const std::string out_spec = vm["output"].as<std::string>();
    const Address in = parse_address(in_spec);
    const std::string in_ext = lower_ascii(
        fs::path(in.entries.empty() ? in.file : fs::path(in.entries.back())).extension().string());
    // FBX, COLLADA, ... (what Assimp reads) import as new models like a glTF without sidecar.
    const bool foreign = in.entries.empty() && assimp_read::handles(in.file.filename().string());
    const bool import = foreign || (in.entries.empty() && (in_ext == ".gltf" || in_ext == ".glb" ||
                                                           in_ext == ".obj" || in_ext == ".png"));
    check_output_paths(in, parse_address(out_spec), vm, import);
    // ---- Terrain import: a .gltf/.glb/.obj whose sidecar has "kind": "terrain" ----
    if (in.entries.empty() && (in_ext == ".gltf" || in_ext == ".glb" || in_ext == ".obj"))
        if (const auto sidecar = terrain_sidecar(in.file, vm))
            return import_terrain(in, out_spec, vm, *sidecar);
    // ---- end terrain import ----
    if (foreign ||
        (in.entries.empty() && (in_ext == ".gltf" || in_ext == ".glb" || in_ext == ".obj")))
        return import_model(in, out_spec, vm);
    if (in.entries.empty() && in_ext == ".png") return import_texture(in.file, out_spec, vm);

    Loaded loaded = load(in);
    const std::string leaf = in.entries.empty() ? in.file.filename().string() : in.entries.back();
    const ContentKind kind = sniff(loaded.bytes, {leaf, std::nullopt});
    switch (kind) {
    case ContentKind::Terrain:
        return export_terrain(loaded, fs::path(out_spec), vm, nullptr, drape_threads(vm));
    case ContentKind::Model:
        return export_model(loaded, fs::path(out_spec), vm);
    case ContentKind::Texm:
        if (lower_ascii(fs::path(out_spec).extension().string()) == ".png")
            return export_texture(loaded, fs::path(out_spec), vm);
        break;
    case ContentKind::NResArchive:
        // A .msh whose container is too damaged to show its resources: the reader says why.
        if (lower_ascii(leaf) == "land.msh")
            return export_terrain(loaded, fs::path(out_spec), vm, nullptr, drape_threads(vm));
        if (lower_ascii(fs::path(leaf).extension().string()) == ".msh")
            return export_model(loaded, fs::path(out_spec), vm);
        throw UsageError(archive_hint(loaded, out_spec));
    case ContentKind::DamagedNRes: // the container's own error says what is wrong and where
        nres::read(loaded.bytes, ReadMode::Tolerant, loaded.address.display(),
                   loaded.bytes.keeper());
        break;
    default:
        // A file named .texm or .msh that its reader cannot read: the reader says why.
        if (lower_ascii(fs::path(leaf).extension().string()) == ".texm")
            texm::read(loaded.bytes, ReadMode::Strict, loaded.address.display());
        if (lower_ascii(fs::path(leaf).extension().string()) == ".msh")
            nres::read(loaded.bytes, ReadMode::Tolerant, loaded.address.display(),
                       loaded.bytes.keeper());
        break;
    }
    throw FormatError(loaded.address.display(), 0,
                      std::string("cannot convert this input (") + to_string(kind) +
                          "): expected an MSH model, a Land.msh or a Texm texture (file or "
                          "archive entry; a texture converts to .png) or a .gltf/.glb/.obj/.png "
                          "file");
}

} // namespace msh::cli
