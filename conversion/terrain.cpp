// OBJ: the terrain is one object `Terrain` with one `g Terrain.batch<materialId>` + `usemtl` group
// per material (TEXCOORD_0 as vt; OBJ has one UV set); the overlay is a second object
// `ArealMap_outlines` with one closed `l` polyline per areal (lift baked into the positions), and
// with areal_faces also the object `ArealMap_areas` (triangulated polygons).
#include "terrain.hpp"

#include "formats/arealmap.hpp"
#include "formats/diagnostics.hpp"
#include "formats/file_io.hpp"
#include "formats/obj.hpp"
#include "formats/terrain.hpp"
#include "formats/wear.hpp"
#include "mapping/drape.hpp"
#include "mapping/materials.hpp"
#include "mapping/terrain_rebuild.hpp"
#include "mapping/terrain_to_scene.hpp"
#include "model_import.hpp"
#include "scene/transform.hpp"
#include "sidecar/json_at.hpp"
#include "sidecar/pairing.hpp"
#include "sidecar/portable_address.hpp"
#include "sidecar/terrain_sidecar.hpp"

#include <optional>
#include <string_view>

namespace msh::conversion {

namespace {

std::vector<std::string> wear_rows(const std::optional<NamedBytes>& w,
                                   std::vector<std::string>& warnings) {
    if (!w) return {};
    try {
        return wear::material_names(wear::read(w->bytes, w->address));
    } catch (const FormatError& e) {
        warnings.push_back(std::string(e.what()) + " (materials named by row)");
        return {};
    }
}

// The readers' diagnostics as warning lines (their text: the front end adds "warning:").
void take_diagnostics(const DiagnosticSink& sink, std::vector<std::string>& warnings) {
    for (const Diagnostic& d : sink.diagnostics()) warnings.push_back(d.text());
    sink.throw_if_errors();
}

Bytes to_bytes(const std::string& text) {
    return Bytes(text.begin(), text.end());
}

} // namespace

// The OBJ: obj::write for the triangle meshes (terrain, and the filled areals with
// --areal-faces), then the outlines as `l` polylines appended as their own object.
obj::Files terrain_obj_files(const scene::Scene& sc, const std::string& mtl_name, bool areal_faces,
                             const std::string& image_prefix) {
    scene::Scene tri = sc;
    int outlines = scene::kNoIndex;
    for (size_t i = 0; i < tri.nodes.size(); ++i) {
        scene::Node& n = tri.nodes[i];
        if (n.name == mapping::kArealOutlinesNode) outlines = int(i), n.mesh = scene::kNoIndex;
        if (n.name == mapping::kArealAreasNode && !areal_faces) n.mesh = scene::kNoIndex;
        if (n.name == mapping::kTerrainNode && n.mesh != scene::kNoIndex)
            // obj::write names groups `<object>.batch<TEXCOORD_1.y>`: carry the materialId there.
            for (scene::Primitive& p : tri.meshes[size_t(n.mesh)].primitives) {
                const auto& row_of = tri.materials[size_t(p.material)].identity.wear_row;
                const float row = row_of ? float(*row_of) : 0;
                auto& uv1 = p.attributes["TEXCOORD_1"];
                for (size_t k = 1; k < uv1.data.size(); k += 2)
                    uv1.data[k - 1] = 0, uv1.data[k] = row;
            }
    }
    obj::Files files = obj::write(tri, mtl_name, image_prefix);
    if (outlines != scene::kNoIndex) {
        const auto world = scene::world_transforms(sc);
        const scene::Node& node = sc.nodes[size_t(outlines)];
        const scene::Primitive& p = sc.meshes[size_t(node.mesh)].primitives.at(0);
        const auto& pos = p.attributes.at("POSITION");
        const auto& id = p.attributes.at("TEXCOORD_0");
        std::vector<std::array<float, 3>> points;
        for (size_t v = 0; v < pos.count(); ++v)
            points.push_back(
                scene::apply(world[size_t(outlines)],
                             {pos.data[3 * v], pos.data[3 * v + 1], pos.data[3 * v + 2]}));
        // Vertices of one areal are consecutive (TEXCOORD_0.x = areal index): one closed polyline.
        std::vector<std::pair<size_t, size_t>> runs;
        for (size_t v = 0; v < pos.count();) {
            size_t end = v;
            while (end < pos.count() && id.data[2 * end] == id.data[2 * v]) ++end;
            runs.emplace_back(v, end);
            v = end;
        }
        obj::append_closed_polylines(files, mapping::kArealOutlinesNode, points, runs);
    }
    return files;
}

namespace {

// Layer 2 (Land2.wea rows, the materials `Terrain_layer2` uses) through the same chain; the
// materials keep their alpha blending (the weights are in the vertex colours).
void texture_layer2(scene::Scene& sc, const std::vector<std::string>& rows,
                    const mapping::MaterialLibraries& libraries, const png::EncodeOptions& png,
                    const std::string& where, std::vector<std::string>& warnings) {
    bool used = false;
    for (const scene::Material& m : sc.materials) used = used || m.identity.wear2_row;
    if (!used) return;
    DiagnosticSink sink(ReadMode::Tolerant);
    const auto resolved = mapping::resolve_materials(rows, libraries, sink, png);
    for (scene::Material& m : sc.materials) {
        if (!m.identity.wear2_row) continue;
        const size_t row = size_t(*m.identity.wear2_row);
        if (row < resolved.size() && resolved[row].image) m.base_color = resolved[row].image;
    }
    for (const std::string& w : sink.warning_texts()) warnings.push_back(where + ": " + w);
}

// Everything encode_terrain does before the sidecar and the encoding.
struct PreparedTerrain {
    TerrainScene built;
    mapping::TerrainSceneOptions options;
};

// `drape`: the draped overlay's options, none for no draped overlay.
PreparedTerrain prepare_terrain(const TerrainExportInput& in, bool areal_faces, bool layer2,
                                const png::EncodeOptions& png,
                                const std::optional<mapping::DrapeOptions>& drape) {
    const std::string& where = in.address;
    PreparedTerrain p;
    TerrainScene& out = p.built;
    DiagnosticSink sink(ReadMode::Tolerant);
    out.terrain = std::make_shared<const terrain::Terrain>(terrain::read(in.land_msh, sink, where));
    take_diagnostics(sink, out.warnings);
    if (in.land_map) {
        DiagnosticSink map_sink(ReadMode::Tolerant);
        out.map = std::make_shared<const arealmap::ArealMap>(
            arealmap::read(in.land_map->bytes, map_sink, in.land_map->address));
        take_diagnostics(map_sink, out.warnings);
    } else {
        out.notes.push_back(where +
                            ": no areal map (.map) given; exporting the terrain without the "
                            "areal overlay");
    }
    mapping::TerrainSceneOptions& opt = p.options;
    // Byte 4 names a row of Land1.wea, byte 5 one of Land2.wea; or the other way round.
    const bool swapped = in.readings.face_material == FaceMaterial::Land2First;
    const std::optional<NamedBytes>& byte4_wear = swapped ? in.wear2 : in.wear1;
    const std::optional<NamedBytes>& byte5_wear = swapped ? in.wear1 : in.wear2;
    if (swapped) std::swap(opt.layer1_wear, opt.layer2_wear);
    opt.layer1_names = wear_rows(byte4_wear, out.warnings);
    opt.layer2_names = wear_rows(byte5_wear, out.warnings);
    opt.areal_faces = areal_faces;
    opt.layer2 = layer2;
    mapping::ArealTriangles areal_triangles; // ArealMap_areas', for the drape
    out.scene = mapping::terrain_to_scene(*out.terrain, out.map.get(), opt, &areal_triangles);
    if (in.libraries && !opt.layer1_names.empty()) {
        // Layer 1 textured through the game's chain (texm-materials.md §12; terrain.md §4).
        DiagnosticSink material_sink(ReadMode::Tolerant);
        const auto resolved =
            mapping::resolve_materials(opt.layer1_names, *in.libraries, material_sink, png);
        mapping::apply_materials(out.scene, resolved);
        for (const std::string& w : material_sink.warning_texts())
            out.warnings.push_back(where + ": " + w);
    }
    if (in.libraries && layer2 && !opt.layer2_names.empty())
        texture_layer2(out.scene, opt.layer2_names, *in.libraries, png, where, out.warnings);
    if (out.map && drape)
        mapping::add_draped_overlay(out.scene, *out.terrain, *out.map, *drape,
                                    areal_faces ? &areal_triangles : nullptr);
    return p;
}

} // namespace

TerrainScene terrain_scene(const TerrainExportInput& in, bool draped,
                           const png::EncodeOptions& png) {
    std::optional<mapping::DrapeOptions> drape;
    if (draped) drape.emplace().tight_arrays = false; // no GLB made
    return prepare_terrain(in, true, true, png, drape).built;
}

TerrainExport encode_terrain(const TerrainExportInput& in, const TerrainExportSettings& settings) {
    const bool obj_out = settings.format == SceneFormat::Obj;
    const bool areal_faces = !obj_out || settings.areal_faces;
    const std::string& where = in.address;
    std::optional<mapping::DrapeOptions> drape;
    if (!obj_out && settings.overlay == TerrainExportSettings::Overlay::Both) {
        drape.emplace().threads = settings.threads;
        // Cut to size only where the whole GLB is then assembled beside the arrays.
        drape->tight_arrays = settings.glb == gltf::Assembly::Whole;
    }
    PreparedTerrain prepared = prepare_terrain(in, areal_faces, !obj_out, settings.png, drape);
    TerrainExport out;
    out.warnings = std::move(prepared.built.warnings);
    out.notes = std::move(prepared.built.notes);
    const auto decoded = prepared.built.terrain;
    const terrain::Terrain& t = *decoded;
    const auto areal_map = prepared.built.map;
    const arealmap::ArealMap* map = areal_map.get();
    const mapping::TerrainSceneOptions& opt = prepared.options;
    scene::Scene& sc = prepared.built.scene;
    auto& extras = sc.extras["mshconv"];
    extras["source"] = sidecar::portable_address(where);
    extras["kind"] = "terrain";
    extras["sidecar"] = settings.sidecar_name.empty() ? default_sidecar_name(settings.output_name)
                                                      : settings.sidecar_name;

    sidecar::TerrainExportRecord record;
    record.source = sidecar::portable_address(where);
    record.output = settings.output_name;
    record.format = std::string(extension_of(settings.format)).substr(1);
    if (in.land_map) record.map_source = sidecar::portable_address(in.land_map->address);
    if (in.wear1) record.wear1_source = sidecar::portable_address(in.wear1->address);
    if (in.wear2) record.wear2_source = sidecar::portable_address(in.wear2->address);
    // Land1.wea's and Land2.wea's rows, whichever face byte names them.
    const bool swapped = in.readings.face_material == FaceMaterial::Land2First;
    record.wear1_rows = swapped ? opt.layer2_names : opt.layer1_names;
    record.wear2_rows = swapped ? opt.layer1_names : opt.layer2_names;
    record.readings = in.readings;
    record.lift = opt.areal_lift;
    record.areal_faces = areal_faces;
    record.pair = sidecar::terrain_pairing_token(
        in.land_msh, in.land_map ? ByteView(in.land_map->bytes) : ByteView(), record);
    sc.identity.pair = record.pair;
    for (const auto& [name, variant] : reading_map(in.readings)) extras["readings"][name] = variant;
    out.sidecar.record = std::move(record);
    out.sidecar.land_msh.assign(in.land_msh.begin(), in.land_msh.end());
    if (in.land_map) out.sidecar.land_map = in.land_map->bytes;
    out.sidecar.terrain = decoded;
    out.sidecar.map = areal_map;
    const mapping::TerrainRuleFacts facts = mapping::terrain_rule_facts(t);
    if (auto binding = sidecar::bind_terrain(
            t, in.land_msh, map, in.land_map ? ByteView(in.land_map->bytes) : ByteView(),
            opt.areal_lift, !obj_out, facts.slot_bounds, facts.header))
        out.sidecar.binding = std::make_shared<const sidecar::TerrainBinding>(std::move(*binding));

    if (obj_out) {
        const std::string mtl_name = file_stem(settings.output_name) + ".mtl";
        obj::Files obj =
            terrain_obj_files(sc, mtl_name, areal_faces, file_stem(settings.output_name) + "_");
        for (scene::ImageFile& f : obj.images) out.files.push_back({f.name, std::move(f.png)});
        out.files.push_back({mtl_name, to_bytes(obj.mtl)});
        out.files.push_back({settings.output_name, to_bytes(obj.obj)});
    } else {
        out.files = scene_files(sc, settings.format, settings.output_name, settings.glb);
        out.sidecar.record.written = written_file(out.files, settings.format, settings.output_name);
    }
    out.summary = {t.faces.size(), map ? map->areals.size() : 0, sc.materials.size()};
    keep_scene_for(out.files, std::move(sc)); // what a GLB in pieces is written from
    return out;
}

scene::Scene read_terrain_scene_file(const std::filesystem::path& file,
                                     std::vector<std::string>& warnings, mshconv::Io& io) {
    return read_scene_file(file, warnings, true, false, mapping::terrain_import_nodes(), io);
}

mapping::TerrainImportResult rebuild_terrain(const scene::Scene& scene,
                                             const sidecar::TerrainSidecar& sidecar,
                                             const TerrainImportSettings& settings) {
    const sidecar::Pairing pairing =
        sidecar::check_pairing(sidecar::scene_pairing_token(scene), sidecar.record.pair,
                               settings.where, settings.sidecar_name, settings.force);
    mapping::TerrainImportResult r = mapping::import_terrain_scene(scene, sidecar, settings.where);
    r.pairing = sidecar::to_string(pairing);
    return r;
}

std::optional<mapping::TerrainImportResult>
rebuild_unchanged_terrain(const std::filesystem::path& file, const sidecar::TerrainSidecar& sidecar,
                          const TerrainImportSettings& settings, mshconv::Io& io) {
    if (sidecar.record.pair.empty() || !is_written_file(file, sidecar.record.written, io))
        return std::nullopt;
    mapping::TerrainImportResult r; // identical, nothing moved or recomputed
    if (const auto& b = sidecar.binding) {
        // Rebuilt with the file's positions and polygon vertices (the scene is read for them,
        // compared with nothing).
        std::vector<std::string> warnings;
        mapping::RebuiltLevel level;
        try {
            const scene::Scene scene = read_terrain_scene_file(file, warnings, io);
            level = mapping::rebuild_level(*b, mapping::gltf_corner_copies(scene),
                                           mapping::gltf_areal_copies(scene), sidecar.record.lift,
                                           settings.where);
        } catch (const FormatError&) {
            return std::nullopt; // the full import says what is wrong
        }
        if (!mapping::is_recorded_msh(*b, level.land_msh) ||
            (level.land_map && !mapping::is_recorded_map(*b, *level.land_map)))
            return std::nullopt; // the full import says what is wrong
        r.land_msh = std::move(level.land_msh);
        if (level.land_map) r.land_map = std::move(*level.land_map);
    } else {
        r.land_msh = sidecar.land_msh;
        if (sidecar.land_map) r.land_map = *sidecar.land_map;
    }
    r.pairing = sidecar::to_string(sidecar::Pairing::Verified);
    return r;
}

mapping::TerrainImportResult rebuild_terrain_from_file(const std::filesystem::path& file,
                                                       const sidecar::TerrainSidecar& sidecar,
                                                       const TerrainImportSettings& settings,
                                                       std::vector<std::string>& warnings,
                                                       mshconv::Io& io) {
    warnings.insert(warnings.end(), sidecar.unread.begin(), sidecar.unread.end());
    if (scene_format_of(file.filename().string()) == SceneFormat::Obj) {
        const mshconv::FileBytes text = io.read(file);
        return rebuild_terrain_from_obj(std::string(text.bytes.begin(), text.bytes.end()), sidecar,
                                        settings);
    }
    if (!settings.full_read)
        if (auto unchanged = rebuild_unchanged_terrain(file, sidecar, settings, io))
            return std::move(*unchanged);
    return rebuild_terrain(read_terrain_scene_file(file, warnings, io), sidecar, settings);
}

mapping::TerrainImportResult rebuild_terrain_from_obj(const std::string& obj_text,
                                                      const sidecar::TerrainSidecar& sidecar,
                                                      const TerrainImportSettings& settings) {
    const sidecar::Pairing pairing =
        sidecar::check_pairing(obj::pairing_comment(obj_text), sidecar.record.pair, settings.where,
                               settings.sidecar_name, settings.force);
    mapping::TerrainImportResult r = mapping::import_terrain_obj(obj_text, sidecar, settings.where);
    r.pairing = sidecar::to_string(pairing);
    return r;
}

} // namespace msh::conversion
