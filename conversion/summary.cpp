#include "summary.hpp"

#include "address.hpp"

#include "formats/cp1251.hpp"
#include "formats/material.hpp"
#include "formats/sniff.hpp"
#include "formats/texm.hpp"

#include <cctype>
#include <map>

namespace msh::conversion {

using nlohmann::json;

std::string type_label(uint32_t type) {
    std::string s;
    for (int i = 0; i < 4; ++i) {
        char c = char((type >> (8 * i)) & 0xFF);
        if (!std::isprint(static_cast<unsigned char>(c))) return std::to_string(type);
        s += c;
    }
    return s;
}

json summarize_model(const Model& m) {
    json j;
    json order = json::array();
    for (const nres::Entry& e : m.container.entries) order.push_back(e.type);
    j["entry_order"] = order;
    j["legacy_node_table"] = m.legacy_nodes;
    j["node_count"] = m.node_count();
    j["slot_count"] = m.slots.size();
    j["batch_count"] = m.batches.size();
    j["vertex_count"] = m.positions.size();
    j["index_count"] = m.indices.size();
    j["triangle_count"] = m.indices.size() / 3;
    j["triangle_descriptor_count"] = m.triangles.size();

    // usage[lod][group]: slots referenced and the triangles they draw.
    json usage = json::array();
    for (int lod = 0; lod < kLods; ++lod)
        for (int group = 0; group < kGroups; ++group) {
            size_t slots = 0, tris = 0, batches = 0;
            for (size_t n = 0; n < m.nodes.size(); ++n)
                if (const Slot* s = m.find_slot(n, lod, group)) {
                    ++slots;
                    tris += s->tri_count;
                    batches += s->batch_count;
                }
            if (slots)
                usage.push_back({{"lod", lod},
                                 {"group", group},
                                 {"slots", slots},
                                 {"batches", batches},
                                 {"triangles", tris}});
        }
    j["lod_group_usage"] = usage;

    json nodes = json::array();
    for (size_t i = 0; i < m.nodes.size(); ++i) {
        const Node& n = m.nodes[i];
        json slots = json::array();
        for (int s = 0; s < kSlotWords; ++s)
            if (n.slots[size_t(s)] != kNone)
                slots.push_back(
                    {{"lod", s / kGroups}, {"group", s % kGroups}, {"slot", n.slots[size_t(s)]}});
        size_t first = i == 0 ? 0 : size_t(m.nodes[i - 1].fallback_key) + 1;
        size_t keys = n.fallback_key >= first ? n.fallback_key - first + 1 : 0;
        nodes.push_back({{"index", i},
                         {"name", cp1251_to_utf8(m.node_name(i))},
                         {"parent", n.parent == kNone ? json(nullptr) : json(n.parent)},
                         {"flags", n.flags},
                         {"animated", n.map_start != kNone},
                         {"keys", keys},
                         {"slots", slots}});
    }
    j["nodes"] = nodes;

    size_t animated = 0;
    for (const Node& n : m.nodes) animated += n.map_start != kNone;
    j["animation"] = {{"frame_count", m.animation.frame_count},
                      {"key_count", m.animation.keys.size()},
                      {"frame_map_words", m.animation.words.size()},
                      {"animated_nodes", animated}};
    json raw = json::array();
    for (const nres::Entry& e : m.container.entries)
        if (!(e.type < 32 && m.has(ResType(e.type))))
            raw.push_back({{"type", e.type}, {"size", e.data.size()}});
    j["raw_resources"] = raw;
    return j;
}

namespace {

const char* format_name(uint32_t code) {
    switch (code) {
    case 0:
        return "indexed (palette)";
    case 565:
        return "R5G6B5";
    case 556:
        return "R5G5B6";
    case 4444:
        return "A4R4G4B4";
    case 88:
        return "L8A8";
    case 888:
        return "X8R8G8B8";
    case 8888:
        return "A8R8G8B8";
    }
    return "unknown";
}

} // namespace

json summarize_texture(ByteView payload, const std::string& name, const std::string& where) {
    DiagnosticSink sink(ReadMode::Tolerant);
    json j = {{"payload_size", payload.size()}};
    texm::Texture t;
    try {
        t = texm::read(payload, sink, where);
    } catch (const FormatError& e) {
        j["error"] = e.what();
        return j;
    }
    const texm::Header& h = t.header;
    j["width"] = h.width;
    j["height"] = h.height;
    j["format"] = h.format;
    j["format_name"] = format_name(h.format);
    j["mip_count"] = h.mip_count;
    j["flags4"] = h.flags4;
    j["flags5"] = h.flags5;
    j["unknown6"] = h.unknown6;
    json bits = json::array();
    if (h.flags5 & texm::kFlags5AlphaKey) bits.push_back("alpha key (palette index 0 transparent)");
    if (h.flags5 & texm::kFlags5Fade) bits.push_back("palette fade");
    if (h.flags5 & texm::kFlags5Exporter) bits.push_back("exporter bit");
    if (h.flags5 & texm::kFlags5Lightmap) bits.push_back("lightmap set");
    j["flags5_bits"] = bits;
    j["core_size"] = texm::core_size(h);
    j["embedded_palette"] = !t.palette.empty();
    if (t.page) {
        json rects = json::array();
        for (const texm::PageRect& r : *t.page)
            rects.push_back({{"x", r.x}, {"w", r.w}, {"y", r.y}, {"h", r.h}});
        j["page"] = rects;
    } else {
        j["page"] = nullptr;
    }
    if (!t.tail.empty()) j["unparsed_tail_bytes"] = t.tail.size();
    j["interpretable"] = !t.raw_only && t.format().has_value();
    const material::PaletteRef pal = material::palette_slot(name);
    j["valid_texture_name"] = pal.valid_name;
    if (pal.valid_name && pal.slot >= 0 && pal.slot < material::kPaletteSlots)
        j["external_palette"] = material::palette_file_name(pal.slot);
    json diagnostics = json::array();
    for (const Diagnostic& d : sink.diagnostics()) diagnostics.push_back(d.to_string());
    j["diagnostics"] = diagnostics;
    return j;
}

json summarize_terrain(const terrain::Terrain& t) {
    std::map<unsigned, size_t> layer1, layer2;
    size_t usable = 0;
    for (size_t f = 0; f < t.faces.size(); ++f) {
        if (!terrain::face_usable(t, f)) continue;
        ++usable;
        ++layer1[t.faces[f].material];
        if (t.faces[f].aux != terrain::kNoLayer2) ++layer2[t.faces[f].aux];
    }
    json extent = nullptr;
    if (!t.positions.empty()) {
        terrain::Vec3 lo = t.positions[0], hi = t.positions[0];
        for (const terrain::Vec3& p : t.positions) {
            lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
            hi = {std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
        }
        extent = {{"min", {lo.x, lo.y, lo.z}}, {"max", {hi.x, hi.y, hi.z}}};
    }
    auto rows = [](const std::map<unsigned, size_t>& m) {
        json j = json::object();
        for (const auto& [row, faces] : m) j[std::to_string(row)] = faces;
        return j;
    };
    return {{"faces", t.faces.size()},
            {"usable_faces", usable},
            {"vertices", t.positions.size()},
            {"slots", t.slots.size()},
            {"nodes", t.nodes.size()},
            {"layer1_faces_by_row", rows(layer1)},
            {"layer2_faces_by_row", rows(layer2)},
            {"extent", extent}};
}

json summarize_areal_map(const arealmap::ArealMap& map) {
    std::map<uint32_t, size_t> by_class;
    size_t vertices = 0;
    double area = 0;
    for (const arealmap::Areal& a : map.areals) {
        ++by_class[a.class_id];
        vertices += a.vertices.size();
        area += a.area;
    }
    json classes = json::object();
    for (const auto& [c, n] : by_class) classes[std::to_string(c)] = n;
    size_t occupied = 0;
    for (const auto& cell : map.grid.cells) occupied += !cell.empty();
    return {{"decoded", map.decoded},
            {"areals", map.areals.size()},
            {"areals_by_class", classes},
            {"polygon_vertices", vertices},
            {"total_area", area},
            {"grid",
             {{"cells_x", map.grid.cells_x},
              {"cells_y", map.grid.cells_y},
              {"occupied_cells", occupied}}}};
}

json summarize_archive(const nres::Archive& ar, const std::string& where) {
    json entries = json::array();
    for (size_t i = 0; i < ar.entries.size(); ++i) {
        const nres::Entry& e = ar.entries[i];
        json je = {{"index", i},
                   {"name", e.display_name()},
                   {"type", type_label(e.type)},
                   {"size", e.data.size()},
                   {"attr1", e.attr1},
                   {"attr2", e.attr2},
                   {"attr3", e.attr3},
                   {"sort_index", e.sort_index}};
        const ContentKind kind = sniff(e.data, {e.name(), e.type});
        if (kind == ContentKind::NResArchive) je["nested"] = "archive";
        if (kind == ContentKind::Terrain) je["nested"] = "terrain";
        if (kind == ContentKind::ArealMap) je["nested"] = "areal map";
        if (kind == ContentKind::Texm)
            je["texture"] = summarize_texture(e.data, e.name(), where + ":" + e.display_name());
        if (kind == ContentKind::Model) {
            DiagnosticSink sink(ReadMode::Tolerant);
            try {
                je["model"] =
                    summarize_model(read_model(e.data, sink, where + ":" + e.display_name()));
                je["diagnostics"] = sink.diagnostics().size();
            } catch (const FormatError& err) {
                je["error"] = err.what();
            }
        }
        entries.push_back(std::move(je));
    }
    // Which case fold the stored order follows (nres.md §5): the fold the engine's lookup needs.
    return {{"kind", "archive"},
            {"entry_count", ar.entries.size()},
            {"sort_fold", nres::evidence_name(ar.fold_evidence)},
            {"entries", entries}};
}

} // namespace msh::conversion
