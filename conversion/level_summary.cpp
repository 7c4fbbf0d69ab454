// What `info` says of a level's files (conversion/summary.hpp): a mission's data.tma, a unit .dat
// and the objects.rlb registry, typed and as JSON.
#include "summary.hpp"

#include "formats/cp1251.hpp"

namespace msh::conversion {

mshconv::MissionInfo summarize_mission(const mission::Mission& m) {
    mshconv::MissionInfo info;
    info.version = m.version;
    info.clan_version = m.clan_version;
    info.object_version = m.object_version;
    info.mission_word = m.mission_flag;
    info.routes = m.routes.size();
    for (const mission::Route& r : m.routes) info.route_points += r.points.size();
    info.lodes = m.lodes.size();
    for (const mission::Clan& c : m.clans) {
        info.clans.push_back(cp1251_to_utf8(c.name));
        info.zones += c.zones.size();
    }
    info.objects = m.objects.size();
    for (const mission::PlacedObject& o : m.objects) {
        ++info.objects_by_kind[o.kind <= 3 ? mission::to_string(mission::ObjectKind(o.kind))
                                           : "kind" + std::to_string(o.kind)];
        info.properties += o.properties.size();
        info.housed_units += o.host != -1;
        info.scaled_scenery +=
            mission::is_scenery(o.kind) && (o.scale.x != 1 || o.scale.y != 1 || o.scale.z != 1);
    }
    info.map_path = cp1251_to_utf8(m.map_path);
    info.description = cp1251_to_utf8(mission::description_text(m));
    info.description_size = m.description.size();
    info.tail = m.tail.size();
    return info;
}

mshconv::AssemblyInfo summarize_assembly(const assembly::Assembly& a) {
    mshconv::AssemblyInfo info;
    info.class_word = a.class_word;
    const std::vector<int> parents = a.parents();
    for (size_t i = 0; i < a.components.size(); ++i) {
        const assembly::Component& c = a.components[i];
        mshconv::AssemblyInfo::Component out;
        out.index = i;
        if (parents[i] >= 0) out.parent = size_t(parents[i]);
        out.record = cp1251_to_utf8(assembly::text(c.record));
        out.description = cp1251_to_utf8(assembly::text(c.description));
        out.part_class = assembly::part_class_name(c.part_class);
        out.attach = c.attach;
        info.components.push_back(std::move(out));
    }
    return info;
}

mshconv::RegistryInfo summarize_registry(const registry::Registry& r) {
    mshconv::RegistryInfo info;
    info.records = r.archive().entries.size();
    info.sort_fold = nres::evidence_name(r.archive().fold_evidence);
    for (const nres::Entry& e : r.archive().entries) {
        ++info.records_by_type[type_label(e.type)];
        info.slots += e.data.size() / registry::kSlotSize;
        if (!r.model(e.name())) ++info.without_model;
    }
    return info;
}

nlohmann::json mission_json(const mshconv::MissionInfo& m) {
    return {{"version", m.version},
            {"clan_version", m.clan_version},
            {"object_version", m.object_version},
            {"routes", m.routes},
            {"route_points", m.route_points},
            {"clans", m.clans},
            {"zones", m.zones},
            {"objects", m.objects},
            {"objects_by_kind", m.objects_by_kind},
            {"properties", m.properties},
            {"housed_units", m.housed_units},
            {"scaled_scenery", m.scaled_scenery},
            {"map_path", m.map_path},
            {"mission_word", m.mission_word},
            {"description", m.description},
            {"description_size", m.description_size},
            {"lodes", m.lodes},
            {"tail", m.tail}};
}

nlohmann::json assembly_json(const mshconv::AssemblyInfo& a) {
    nlohmann::json parts = nlohmann::json::array();
    for (const mshconv::AssemblyInfo::Component& c : a.components)
        parts.push_back({{"index", c.index},
                         {"parent", c.parent ? nlohmann::json(*c.parent) : nlohmann::json()},
                         {"record", c.record},
                         {"description", c.description},
                         {"class", c.part_class},
                         {"attach", c.attach}});
    return {{"class_word", a.class_word}, {"components", std::move(parts)}};
}

nlohmann::json registry_json(const mshconv::RegistryInfo& r) {
    return {{"records", r.records},
            {"slots", r.slots},
            {"records_by_type", r.records_by_type},
            {"sort_fold", r.sort_fold},
            {"without_model", r.without_model}};
}

} // namespace msh::conversion
