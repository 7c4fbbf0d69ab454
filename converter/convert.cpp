// `mshconv convert IN OUT [options]`: picks the direction from IN's content (NRes model) or
// extension (.gltf, .glb, .obj) and OUT's extension, then hands over to one file per direction.
#include "convert.hpp"

#include "commands.hpp"

#include "formats/diagnostics.hpp"

#include <cctype>

namespace msh::cli {

namespace fs = std::filesystem;

std::string lower_ascii(std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
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
        "mips", "texture export: also write every mip level as OUT_STEM.mip<k>.png")(
        "format", po::value<std::string>(),
        "texture import: Texm format 0, 565, 556, 4444, 88, 888 or 8888 (new textures; a "
        "different format re-encodes)")(
        "game-dir", po::value<std::string>(),
        "model export: folder with Material.lib, Textures.lib, palettes.lib, LightMap.lib")(
        "materials", po::value<std::string>(), "model export: Material.lib to use")(
        "textures", po::value<std::string>(), "model export: Textures.lib to use");
    // ---- Terrain export options (export_terrain.cpp) ----
    desc.add_options()("map", po::value<std::string>(),
                       "terrain export: the Land.map (default: <base>.map next to IN)")(
        "wear1", po::value<std::string>(),
        "terrain export: the layer-1 WEAR (default: <base>1.wea next to IN)")(
        "wear2", po::value<std::string>(),
        "terrain export: the layer-2 WEAR (default: <base>2.wea next to IN)")(
        "areal-faces", "terrain export to OBJ: also write the areals as filled faces");
    po::positional_options_description pos;
    pos.add("input", 1).add("output", 1);
    po::variables_map vm;
    if (!parse_options(args, "convert IN OUT [options]", desc, pos, vm)) return 0;

    const std::string in_spec = vm["input"].as<std::string>();
    const std::string out_spec = vm["output"].as<std::string>();
    const Address in = parse_address(in_spec);
    const std::string in_ext = lower_ascii(
        fs::path(in.entries.empty() ? in.file : fs::path(in.entries.back())).extension().string());
    // ---- Terrain import: a .gltf/.glb/.obj whose sidecar has "kind": "terrain" ----
    if (in.entries.empty() && (in_ext == ".gltf" || in_ext == ".glb" || in_ext == ".obj"))
        if (const auto sidecar = terrain_sidecar(in.file, vm))
            return import_terrain(in, out_spec, vm, *sidecar);
    // ---- end terrain import ----
    if (in.entries.empty() && (in_ext == ".gltf" || in_ext == ".glb" || in_ext == ".obj"))
        return import_model(in, out_spec, vm);
    if (in.entries.empty() && in_ext == ".png") return import_texture(in.file, out_spec, vm);

    Loaded loaded = load(in);
    // ---- Terrain export: Land.msh (NRes with type-21 face records; classify() says Archive) ----
    if (is_terrain(loaded.bytes)) return export_terrain(loaded, fs::path(out_spec), vm);
    if (classify(loaded.bytes) == Kind::Model) return export_model(loaded, fs::path(out_spec), vm);
    if (is_texm(loaded.bytes) && lower_ascii(fs::path(out_spec).extension().string()) == ".png")
        return export_texture(loaded, fs::path(out_spec), vm);
    throw FormatError(loaded.address.display(), 0,
                      "cannot convert this input: expected an MSH model or a Texm texture (file or "
                      "archive entry; a texture converts to .png) or a .gltf/.glb/.obj/.png file");
}

} // namespace msh::cli
