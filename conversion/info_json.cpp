// The JSON form of an Info (`mshconv info --json`, docs/cli.md#info): every field of the typed
// description under the names the report has always used.
#include "summary.hpp"

namespace msh::conversion {

using nlohmann::json;

namespace {

json model_json(const mshconv::ModelInfo& m) {
    json usage = json::array();
    for (const mshconv::ModelInfo::Usage& u : m.lod_group_usage)
        usage.push_back({{"lod", u.lod},
                         {"group", u.group},
                         {"slots", u.slots},
                         {"batches", u.batches},
                         {"triangles", u.triangles}});
    json nodes = json::array();
    for (const mshconv::ModelInfo::Node& n : m.nodes) {
        json slots = json::array();
        for (const mshconv::ModelInfo::NodeSlot& s : n.slots)
            slots.push_back({{"lod", s.lod}, {"group", s.group}, {"slot", s.slot}});
        nodes.push_back({{"index", n.index},
                         {"name", n.name},
                         {"parent", n.parent ? json(*n.parent) : json(nullptr)},
                         {"flags", n.flags},
                         {"animated", n.animated},
                         {"keys", n.keys},
                         {"slots", slots}});
    }
    json raw = json::array();
    for (const mshconv::ModelInfo::RawResource& r : m.raw_resources)
        raw.push_back({{"type", r.type}, {"size", r.size}});
    return {{"entry_order", m.entry_order},
            {"legacy_node_table", m.legacy_node_table},
            {"node_count", m.node_count},
            {"slot_count", m.slot_count},
            {"batch_count", m.batch_count},
            {"vertex_count", m.vertex_count},
            {"index_count", m.index_count},
            {"triangle_count", m.triangle_count},
            {"triangle_descriptor_count", m.triangle_descriptor_count},
            {"lod_group_usage", usage},
            {"nodes", nodes},
            {"animation",
             {{"frame_count", m.frame_count},
              {"key_count", m.key_count},
              {"frame_map_words", m.frame_map_words},
              {"animated_nodes", m.animated_nodes}}},
            {"raw_resources", raw}};
}

template <class Key> json rows_json(const std::map<Key, std::size_t>& rows) {
    json j = json::object();
    for (const auto& [row, count] : rows) j[std::to_string(row)] = count;
    return j;
}

json terrain_json(const mshconv::TerrainInfo& t) {
    json extent = nullptr;
    if (t.extent) extent = {{"min", (*t.extent)[0]}, {"max", (*t.extent)[1]}};
    return {{"faces", t.faces},
            {"usable_faces", t.usable_faces},
            {"vertices", t.vertices},
            {"slots", t.slots},
            {"nodes", t.nodes},
            {"layer1_faces_by_row", rows_json(t.layer1_faces_by_row)},
            {"layer2_faces_by_row", rows_json(t.layer2_faces_by_row)},
            {"extent", extent}};
}

json areal_map_json(const mshconv::ArealMapInfo& a) {
    return {
        {"decoded", a.decoded},
        {"areals", a.areals},
        {"areals_by_class", rows_json(a.areals_by_class)},
        {"polygon_vertices", a.polygon_vertices},
        {"total_area", a.total_area},
        {"grid",
         {{"cells_x", a.cells_x}, {"cells_y", a.cells_y}, {"occupied_cells", a.occupied_cells}}}};
}

json archive_json(const mshconv::ArchiveInfo& a) {
    json entries = json::array();
    for (const mshconv::ArchiveInfo::Entry& e : a.entries) {
        json je = {{"index", e.index}, {"name", e.name},
                   {"type", e.type},   {"size", e.size},
                   {"attr1", e.attr1}, {"attr2", e.attr2},
                   {"attr3", e.attr3}, {"sort_index", e.sort_index}};
        if (e.nested) // the report's words, which predate InfoKind's names
            je["nested"] = *e.nested == mshconv::InfoKind::ArealMap ? "areal map"
                                                                    : mshconv::to_string(*e.nested);
        if (e.texture) je["texture"] = texture_json(*e.texture);
        if (e.model) je["model"] = model_json(*e.model);
        if (e.diagnostics) je["diagnostics"] = *e.diagnostics;
        if (e.error) je["error"] = *e.error;
        entries.push_back(std::move(je));
    }
    json j = {{"kind", "archive"},
              {"entry_count", a.entry_count},
              {"sort_fold", a.sort_fold},
              {"entries", entries}};
    if (const auto& t = a.truncated)
        j["truncated"] = {{"have", t->have},
                          {"need", t->need},
                          {"entries_read", t->entries_read},
                          {"entries_unread", t->entries_unread},
                          {"message", t->message}};
    return j;
}

} // namespace

json texture_json(const mshconv::TextureInfo& t) {
    json j = {{"payload_size", t.payload_size}};
    if (t.error) {
        j["error"] = *t.error;
        return j;
    }
    j["width"] = t.width;
    j["height"] = t.height;
    j["format"] = t.format;
    j["format_name"] = t.format_name;
    j["mip_count"] = t.mip_count;
    j["flags4"] = t.flags4;
    j["flags5"] = t.flags5;
    j["unknown6"] = t.unknown6;
    j["flags5_bits"] = t.flags5_bits;
    j["core_size"] = t.core_size;
    j["embedded_palette"] = t.embedded_palette;
    j["page"] = nullptr;
    if (t.page) {
        json rects = json::array();
        for (const mshconv::TextureInfo::Rect& r : *t.page)
            rects.push_back({{"x", r.x}, {"w", r.w}, {"y", r.y}, {"h", r.h}});
        j["page"] = rects;
    }
    if (t.unparsed_tail_bytes) j["unparsed_tail_bytes"] = *t.unparsed_tail_bytes;
    j["interpretable"] = t.interpretable;
    j["valid_texture_name"] = t.valid_texture_name;
    if (t.external_palette) j["external_palette"] = *t.external_palette;
    j["diagnostics"] = t.diagnostics;
    return j;
}

json info_json(const mshconv::Info& info) {
    json j;
    if (info.archive) j = archive_json(*info.archive);
    if (info.model) j = {{"kind", "model"}, {"model", model_json(*info.model)}};
    if (info.terrain) j = {{"kind", "terrain"}, {"terrain", terrain_json(*info.terrain)}};
    if (info.areal_map) j = {{"kind", "areal_map"}, {"areal_map", areal_map_json(*info.areal_map)}};
    if (info.texture) j = {{"kind", "texture"}, {"texture", texture_json(*info.texture)}};
    if (info.wear)
        j = {{"kind", "wear"},
             {"wear", {{"materials", info.wear->materials}, {"lightmaps", info.wear->lightmaps}}}};
    if (info.mission) j = {{"kind", "mission"}, {"mission", mission_json(*info.mission)}};
    if (info.assembly) j = {{"kind", "assembly"}, {"assembly", assembly_json(*info.assembly)}};
    if (info.registry) j = {{"kind", "registry"}, {"registry", registry_json(*info.registry)}};
    if (info.diagnostics) j["diagnostics"] = *info.diagnostics;
    j["file"] = info.file;
    j["size"] = info.size;
    return j;
}

} // namespace msh::conversion

std::string mshconv::to_json(const Info& info) {
    return msh::conversion::info_json(info).dump(2, ' ', false,
                                                 nlohmann::json::error_handler_t::replace);
}
