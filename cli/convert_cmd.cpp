// `mshconv convert IN OUT [options]`: the arguments become a mshconv::ConvertRequest, the
// library's convert runs it (conversion/convert.cpp), and its messages are printed.
#include "commands.hpp"
#include "convert_options.hpp"

#include "formats/png.hpp"

#include <mshconv/convert.hpp>

#include <omp.h>

#include <algorithm>

namespace msh::cli {

namespace {

constexpr const char* kConvertUsage = R"(convert IN OUT [options]

The direction comes from IN's content (file or archive entry) and OUT's name:
  MSH model                    -> .gltf (+ .bin) | .glb | .obj (+ .mtl)   + OUT_STEM.sidecar.json
  Land.msh (+ Land.map, WEARs) -> .gltf | .glb | .obj                     + OUT_STEM.sidecar.json
  Texm texture                 -> .png (--mips: every level)              + OUT_STEM.sidecar.json
  .gltf | .glb | .obj          -> .msh or ARCHIVE:ENTRY.msh  (model sidecar beside IN, or the one
                                 its extras or pairing token name: the edits merged into the
                                 original; none: a new model, refused where OUT exists unless
                                 --new-model)
  .gltf | .glb | .obj          -> Land.msh (+ Land.map)      (terrain sidecar beside IN)
  .png                         -> .texm or Textures.lib:NAME.0 (sidecar beside IN: the original
                                 format, byte-identical when unchanged; none: a new texture)
IN and OUT may name an archive entry (static.rlb:TANK.msh). A whole archive as IN is refused with
a hint: how many models and textures it holds, one entry to name, and the `batch` line that
converts them all. An existing archive as OUT needs its entry named (Textures.lib:NAME.0): a
whole archive is never replaced by one entry.
)";

} // namespace

int run_convert(const Args& args) {
    po::options_description desc("convert options");
    desc.add_options()("lod", po::value<std::string>()->default_value("0")->value_name("N|all"),
                       "export: LOD 0..2 or all")(
        "group", po::value<std::string>()->default_value("0")->value_name("N|all"),
        "export: slot group 0..4 or all")(
        "fps", po::value<double>()->value_name("F"),
        "frames per second of key times (export default 24; import: the sidecar's)")(
        "skin", "export glTF: one skinned mesh per LOD/group whose joints are the nodes")(
        "msft-lod", "export glTF with --lod all: also write the MSFT_lod extension")(
        "sidecar", po::value<std::string>()->value_name("PATH"),
        "sidecar path (default OUT_STEM.sidecar.json / IN_STEM.sidecar.json)")(
        "report", po::value<std::string>()->value_name("R.json"),
        "import: write the change report as JSON")(
        "animation", po::value<std::string>()->value_name("all|NAME|INDEX"),
        "import: several glTF animations -> all (default: merged into the one MSH timeline; two "
        "driving the same node property are an error) or one, by NAME or INDEX")(
        "force", "import: accept a file whose pairing token is not its sidecar's (another "
                 "export's sidecar; the result may mix the two)")(
        "full-read",
        "import: read and compare the file even when it is, byte for byte, the one its sidecar's "
        "export wrote (by default that file gives the original without being read)")(
        "mips", "texture export: also write every mip level as OUT_STEM.mip<k>.png")(
        "png-level", po::value<int>()->value_name("N"),
        "PNG encoding, zlib level 0..9 with adaptive row filters (9: smallest files); default: "
        "the fast setting (ISA-L igzip level 0, Up filter; same pixels)")(
        "format", po::value<std::string>()->value_name("F"),
        "texture import: Texm format 0, 565, 556, 4444, 88, 888 or 8888 (new textures; a "
        "different format re-encodes); new model: the format of every texture it adds (default "
        "565, 8888 with alpha)")(
        "new-model",
        "import without a sidecar as a new model, also where OUT already holds a model or entry "
        "(replaced; without this an import that finds no sidecar never replaces one)")(
        "replace", "new model: overwrite materials of the same name in Material.lib (default: "
                   "keep them)")(
        "max-texture-size", po::value<uint32_t>()->default_value(256)->value_name("N"),
        "new model: textures larger than this (a power of two) are resized down")(
        "max-pixels", po::value<uint64_t>()->default_value(png::kDefaultMaxPixels)->value_name("N"),
        "texture import: refuse PNGs of more pixels, before decoding (default 8192 x 8192)")(
        "game-dir", po::value<std::string>()->value_name("DIR"),
        "model export: folder with Material.lib, Textures.lib, palettes.lib, LightMap.lib; new "
        "model: the folder whose libraries receive its materials and textures")(
        "materials", po::value<std::string>()->value_name("F"),
        "model export / new model: Material.lib to use")(
        "textures", po::value<std::string>()->value_name("F"),
        "model export / new model: Textures.lib to use");
    add_reading_option(desc);
    // ---- Terrain export options (export_terrain.cpp) ----
    desc.add_options()("map", po::value<std::string>()->value_name("F"),
                       "terrain export: the Land.map (default: <base>.map next to IN)")(
        "wear1", po::value<std::string>()->value_name("F"),
        "terrain export: the layer-1 WEAR (default: <base>1.wea next to IN)")(
        "wear2", po::value<std::string>()->value_name("F"),
        "terrain export: the layer-2 WEAR (default: <base>2.wea next to IN)")(
        "areal-faces", "terrain export to OBJ: also write the areals as filled faces")(
        "overlay", po::value<std::string>()->value_name("raw|draped|both"),
        "terrain export to glTF: raw (the areal polygons as stored) or draped / both (default: "
        "also laid on the terrain as ArealMap_draped, coloured per class, outlines as ribbons)")(
        "jobs,j", po::value<int>()->value_name("N"),
        "terrain export: threads draping the areal overlay (default: all cores; same output)");
    po::variables_map vm;
    if (!parse_options(args, kConvertUsage, desc, {{"input", "IN"}, {"output", "OUT"}}, vm))
        return 0;

    mshconv::ConvertRequest request{vm["input"].as<std::string>(), vm["output"].as<std::string>(),
                                    convert_options(vm)};
    // Without -j, as many threads as batch takes (OMP_NUM_THREADS counts).
    if (!request.options.threads)
        request.options.threads = unsigned(std::max(1, omp_get_max_threads()));
    mshconv::convert(request, mshconv::disk(), print_message);
    return 0;
}

} // namespace msh::cli
