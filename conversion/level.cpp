// encode_level: a mission's placement, its map and its models -> one glTF / GLB scene + the level
// sidecar (conversion/level.hpp).
#include "level.hpp"

#include "formats/assembly.hpp"
#include "formats/cp1251.hpp"
#include "formats/msh.hpp"
#include "sidecar/portable_address.hpp"

namespace msh::conversion {

namespace {

// The hall-way graph of a model (MSH Res17: 20-byte nodes, x, y, z and two words), model space.
std::vector<Vec3> hall_way(const Model& model) {
    std::vector<Vec3> points;
    const nres::Entry* e = model.entry(kPathGraph);
    if (!e) return points;
    const ByteView b = e->data.bytes();
    for (size_t at = 0; at + 20 <= b.size(); at += 20)
        points.push_back(
            {msh::load<float>(b, at), msh::load<float>(b, at + 4), msh::load<float>(b, at + 8)});
    return points;
}

} // namespace

std::map<std::string, std::string> level_readings(const LevelExportSettings& s) {
    return {
        {"assembly", s.assembly == mapping::AssemblyReading::Sockets ? "sockets" : "root"},
        {"rest-pose", s.rest_pose == mapping::RestPose::FirstKey ? "first-frame" : "fallback-key"},
        {"parts", s.shown_classes == LevelExportSettings{}.shown_classes ? "drawn" : "all"}};
}

LevelScene level_scene(const LevelExportInput& in, const LevelExportSettings& settings) {
    LevelScene out;
    const std::string& where = in.mission.address;
    DiagnosticSink sink(ReadMode::Tolerant);
    const mission::Mission m = mission::read(in.mission.bytes, sink, where);
    for (const Diagnostic& d : sink.diagnostics()) out.warnings.push_back(d.text());
    sink.throw_if_errors();

    scene::Scene terrain_scene_built;
    std::shared_ptr<const terrain::Terrain> terrain;
    if (in.terrain) {
        TerrainScene ts = terrain_scene(*in.terrain, true, settings.png);
        out.warnings.insert(out.warnings.end(), ts.warnings.begin(), ts.warnings.end());
        out.notes.insert(out.notes.end(), ts.notes.begin(), ts.notes.end());
        terrain_scene_built = std::move(ts.scene);
        terrain = ts.terrain;
    }

    std::vector<mapping::LevelModel> models;
    for (const ModelExportInput& model : in.models) {
        ModelExportSettings ms;
        ms.format = settings.format;
        ms.output_name = settings.output_name;
        ms.png = settings.png;
        ms.rest_pose = settings.rest_pose;
        ModelScene built = model_scene(model, ms);
        out.warnings.insert(out.warnings.end(), built.warnings.begin(), built.warnings.end());
        out.notes.insert(out.notes.end(), built.notes.begin(), built.notes.end());
        if (!built.scene.animations.empty())
            out.notes.push_back(model.address + ": animated; in the level at its rest pose");
        models.push_back({model.address, std::move(built.scene), hall_way(built.model)});
    }

    mapping::LevelSceneOptions options;
    options.assembly = settings.assembly;
    options.shown_classes = settings.shown_classes;
    out.scene = mapping::level_to_scene(m, std::move(terrain_scene_built), terrain.get(), models,
                                        in.objects, options, out.warnings);
    auto& extras = out.scene.extras["mshconv"];
    extras["kind"] = "level";
    for (const auto& [name, variant] : level_readings(settings)) extras["readings"][name] = variant;
    extras["map"] = cp1251_to_utf8(m.map_path);
    out.summary.objects = m.objects.size();
    for (const mapping::LevelObject& o : in.objects) out.summary.unresolved += o.parts.empty();
    out.summary.models = models.size();
    out.summary.meshes = out.scene.meshes.size();
    out.summary.nodes = out.scene.nodes.size();
    return out;
}

LevelExport encode_level(const LevelExportInput& in, const LevelExportSettings& settings) {
    LevelScene built = level_scene(in, settings);
    LevelExport out;
    out.warnings = std::move(built.warnings);
    out.notes = std::move(built.notes);
    out.summary = built.summary;
    scene::Scene& sc = built.scene;
    const std::string& where = in.mission.address;
    sidecar::LevelSidecar& record = out.sidecar;
    record.source = sidecar::portable_address(where);
    record.output = settings.output_name;
    record.format = std::string(extension_of(settings.format)).substr(1);
    record.readings = level_readings(settings);
    record.mission = in.mission.bytes;
    record.pair = sidecar::level_pairing_token(in.mission.bytes, record.readings);
    sc.identity.pair = record.pair;
    auto& extras = sc.extras["mshconv"];
    extras["source"] = record.source;
    extras["sidecar"] = settings.sidecar_name.empty() ? default_sidecar_name(settings.output_name)
                                                      : settings.sidecar_name;
    out.files = settings.format == SceneFormat::Obj
                    ? level_obj_files(sc, settings.output_name)
                    : scene_files(sc, settings.format, settings.output_name);
    return out;
}

} // namespace msh::conversion
