// convert, terrain level (Land.msh + Land.map + Land1.wea/Land2.wea) -> glTF 2.0 (.gltf + .bin,
// or .glb) or OBJ + MTL, plus OUT_STEM.sidecar.json (kind "terrain"). The scene layout and the
// identity scheme are documented in mapping/terrain_to_scene.hpp, the sidecar in
// sidecar/terrain_sidecar.hpp.
//
// Siblings: for IN = <dir>/<base>.msh the level files <base>.map, <base>1.wea and <base>2.wea are
// looked up next to it (case-insensitive; inside the same archive when IN is an archive entry);
// --map, --wear1 and --wear2 name them explicitly. No Land.map: terrain only; no WEAR: materials
// named land1_row_<id>.
//
// OBJ: the terrain is one object `Terrain` with one `g Terrain.batch<materialId>` + `usemtl` group
// per material (TEXCOORD_0 as vt; OBJ has one UV set); the overlay is a second object
// `ArealMap_outlines` with one closed `l` polyline per areal (lift baked into the positions), and
// with --areal-faces also the object `ArealMap_areas` (triangulated polygons).
#include "address.hpp"
#include "commands.hpp"
#include "convert.hpp"
#include "options.hpp"

#include "formats/arealmap.hpp"
#include "formats/file_io.hpp"
#include "formats/gltf.hpp"
#include "formats/nres.hpp"
#include "formats/obj.hpp"
#include "formats/terrain.hpp"
#include "formats/wear.hpp"
#include "mapping/terrain_to_scene.hpp"
#include "scene/transform.hpp"
#include "sidecar/terrain_sidecar.hpp"

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <charconv>
#include <optional>

namespace msh::cli {

namespace fs = std::filesystem;

namespace {

std::string stem_of(const std::string& name) {
    const auto dot = name.rfind('.');
    return dot == std::string::npos || dot == 0 ? name : name.substr(0, dot);
}

std::optional<Sibling> level_file(const Address& in, const po::variables_map& vm,
                                  const char* option, const std::string& leaf) {
    if (vm.count(option)) {
        const std::string path = vm[option].as<std::string>();
        return Sibling{path, read_file(path)};
    }
    return find_sibling(in, leaf);
}

std::vector<std::string> wear_rows(const std::optional<Sibling>& w) {
    if (!w) return {};
    try {
        return wear::material_names(wear::read(w->bytes, w->address));
    } catch (const FormatError& e) {
        spdlog::warn("{} (materials named by row)", e.what());
        return {};
    }
}

void put_float(std::string& out, float v) {
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
}

// The OBJ: obj::write for the triangle meshes (terrain, and the filled areals with
// --areal-faces), then the outlines as `l` polylines appended as their own object.
std::pair<std::string, std::string> write_obj(const scene::Scene& sc, const std::string& mtl_name,
                                              bool areal_faces) {
    scene::Scene tri = sc;
    int outlines = scene::kNoIndex;
    for (size_t i = 0; i < tri.nodes.size(); ++i) {
        scene::Node& n = tri.nodes[i];
        if (n.name == mapping::kArealOutlinesNode) outlines = int(i), n.mesh = scene::kNoIndex;
        if (n.name == mapping::kArealAreasNode && !areal_faces) n.mesh = scene::kNoIndex;
        if (n.name == mapping::kTerrainNode && n.mesh != scene::kNoIndex)
            // obj::write names groups `<object>.batch<TEXCOORD_1.y>`: carry the materialId there.
            for (scene::Primitive& p : tri.meshes[size_t(n.mesh)].primitives) {
                const auto& names = tri.materials[size_t(p.material)].extras;
                const float row = names.contains("wear_row") ? names["wear_row"].get<float>() : 0;
                auto& uv1 = p.attributes["TEXCOORD_1"];
                for (size_t k = 1; k < uv1.data.size(); k += 2)
                    uv1.data[k - 1] = 0, uv1.data[k] = row;
            }
    }
    obj::Files files = obj::write(tri, mtl_name);
    if (outlines != scene::kNoIndex) {
        size_t v_count = 0;
        for (size_t pos = 0; pos < files.obj.size();) {
            if (files.obj.compare(pos, 2, "v ") == 0) ++v_count;
            const size_t nl = files.obj.find('\n', pos);
            if (nl == std::string::npos) break;
            pos = nl + 1;
        }
        const auto world = scene::world_transforms(sc);
        const scene::Node& node = sc.nodes[size_t(outlines)];
        const scene::Primitive& p = sc.meshes[size_t(node.mesh)].primitives.at(0);
        const auto& pos = p.attributes.at("POSITION");
        const auto& id = p.attributes.at("TEXCOORD_0");
        std::string& o = files.obj;
        o += "o " + std::string(mapping::kArealOutlinesNode) + "\n";
        for (size_t v = 0; v < pos.count(); ++v) {
            const auto w =
                scene::apply(world[size_t(outlines)],
                               {pos.data[3 * v], pos.data[3 * v + 1], pos.data[3 * v + 2]});
            o += 'v';
            for (float c : w) o += ' ', put_float(o, c);
            o += '\n';
        }
        // Vertices of one areal are consecutive (TEXCOORD_0.x = areal index): one closed polyline.
        for (size_t v = 0; v < pos.count();) {
            size_t end = v;
            while (end < pos.count() && id.data[2 * end] == id.data[2 * v]) ++end;
            o += 'l';
            for (size_t k = v; k < end; ++k) o += ' ' + std::to_string(v_count + 1 + k);
            o += ' ' + std::to_string(v_count + 1 + v) + '\n';
            v = end;
        }
    }
    return {std::move(files.obj), std::move(files.mtl)};
}

} // namespace

bool is_terrain(ByteView bytes) {
    if (!nres::looks_like_nres(bytes)) return false;
    try {
        const nres::Archive ar = nres::read(bytes, ReadMode::Tolerant, "");
        return ar.find_type(terrain::kFaces) && ar.find_type(terrain::kPositions);
    } catch (const FormatError&) {
        return false;
    }
}

int export_terrain(const Loaded& in, const fs::path& out, const po::variables_map& vm) {
    const std::string ext = lower_ascii(out.extension().string());
    if (ext != ".gltf" && ext != ".glb" && ext != ".obj")
        throw UsageError("OUT must end in .gltf, .glb or .obj: " + out.string());
    const bool areal_faces = ext != ".obj" || vm.count("areal-faces") > 0;

    const std::string where = in.address.display();
    DiagnosticSink sink(ReadMode::Tolerant);
    const terrain::Terrain t = terrain::read(in.bytes, sink, where);
    for (const Diagnostic& d : sink.diagnostics()) spdlog::warn("{}", d.to_string());
    sink.throw_if_errors();

    const std::string base =
        stem_of(in.address.entries.empty() ? in.address.file.filename().string()
                                           : in.address.entries.back());
    const std::optional<Sibling> map_file = level_file(in.address, vm, "map", base + ".map");
    const std::optional<Sibling> wear1 = level_file(in.address, vm, "wear1", base + "1.wea");
    const std::optional<Sibling> wear2 = level_file(in.address, vm, "wear2", base + "2.wea");

    std::optional<arealmap::ArealMap> areal_map;
    if (map_file) {
        DiagnosticSink map_sink(ReadMode::Tolerant);
        areal_map = arealmap::read(map_file->bytes, map_sink, map_file->address);
        for (const Diagnostic& d : map_sink.diagnostics()) spdlog::warn("{}", d.to_string());
        map_sink.throw_if_errors();
    } else {
        spdlog::info("{}: no {}.map next to it; exporting the terrain without the areal overlay",
                     where, base);
    }

    mapping::TerrainSceneOptions opt;
    opt.layer1_names = wear_rows(wear1);
    opt.layer2_names = wear_rows(wear2);
    opt.areal_faces = areal_faces;
    scene::Scene sc = mapping::terrain_to_scene(t, areal_map ? &*areal_map : nullptr, opt);

    const fs::path sidecar_path = vm.count("sidecar")
                                      ? fs::path(vm["sidecar"].as<std::string>())
                                      : out.parent_path() / (out.stem().string() + ".sidecar.json");
    auto& extras = sc.extras["mshconv"];
    extras["source"] = where;
    extras["kind"] = "terrain";
    extras["sidecar"] = sidecar_path.filename().string();

    sidecar::TerrainExportRecord record;
    record.source = where;
    record.output = out.filename().string();
    record.format = ext.substr(1);
    if (map_file) record.map_source = map_file->address;
    if (wear1) record.wear1_source = wear1->address;
    if (wear2) record.wear2_source = wear2->address;
    record.wear1_rows = opt.layer1_names;
    record.wear2_rows = opt.layer2_names;
    record.options = {{"lift", opt.areal_lift}, {"areal_faces", areal_faces}};
    const std::string sidecar_text =
        sidecar::terrain_sidecar_text(t, in.bytes, areal_map ? &*areal_map : nullptr,
                                      map_file ? ByteView(map_file->bytes) : ByteView(), record);

    // Encode everything first, then write each file atomically.
    if (ext == ".obj") {
        const std::string mtl_name = out.stem().string() + ".mtl";
        const auto [obj_text, mtl_text] = write_obj(sc, mtl_name, areal_faces);
        write_file_atomic(out.parent_path() / mtl_name, Bytes(mtl_text.begin(), mtl_text.end()));
        write_file_atomic(out, Bytes(obj_text.begin(), obj_text.end()));
    } else {
        gltf::write(sc, out);
    }
    write_file_atomic(sidecar_path, Bytes(sidecar_text.begin(), sidecar_text.end()));
    spdlog::info("{} -> {} ({} faces, {} areals, {} materials)", where, out.string(),
                 t.faces.size(), areal_map ? areal_map->areals.size() : 0, sc.materials.size());
    return 0;
}

} // namespace msh::cli
