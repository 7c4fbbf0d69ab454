#include "summary.hpp"

#include "address.hpp"

#include "formats/cp1251.hpp"
#include "formats/material.hpp"
#include "formats/sniff.hpp"
#include "formats/texm.hpp"

#include <cctype>
#include <map>

namespace msh::conversion {

std::string type_label(uint32_t type) {
    std::string s;
    for (int i = 0; i < 4; ++i) {
        char c = char((type >> (8 * i)) & 0xFF);
        if (!std::isprint(static_cast<unsigned char>(c))) return std::to_string(type);
        s += c;
    }
    return s;
}

mshconv::ModelInfo summarize_model(const Model& m) {
    mshconv::ModelInfo j;
    for (const nres::Entry& e : m.container.entries) j.entry_order.push_back(e.type);
    j.legacy_node_table = m.legacy_nodes;
    j.node_count = m.node_count();
    j.slot_count = m.slots.size();
    j.batch_count = m.batches.size();
    j.vertex_count = m.positions.size();
    j.index_count = m.indices.size();
    j.triangle_count = m.indices.size() / 3;
    j.triangle_descriptor_count = m.triangles.size();

    // usage[lod][group]: slots referenced and the triangles they draw.
    for (int lod = 0; lod < kLods; ++lod)
        for (int group = 0; group < kGroups; ++group) {
            size_t slots = 0, tris = 0, batches = 0;
            for (size_t n = 0; n < m.nodes.size(); ++n)
                if (const Slot* s = m.find_slot(n, lod, group)) {
                    ++slots;
                    tris += s->tri_count;
                    batches += s->batch_count;
                }
            if (slots) j.lod_group_usage.push_back({lod, group, slots, batches, tris});
        }

    for (size_t i = 0; i < m.nodes.size(); ++i) {
        const Node& n = m.nodes[i];
        mshconv::ModelInfo::Node node;
        for (int s = 0; s < kSlotWords; ++s)
            if (n.slots[size_t(s)] != kNone)
                node.slots.push_back({s / kGroups, s % kGroups, n.slots[size_t(s)]});
        const size_t first = i == 0 ? 0 : size_t(m.nodes[i - 1].fallback_key) + 1;
        node.index = i;
        node.name = cp1251_to_utf8(m.node_name(i));
        if (n.parent != kNone) node.parent = n.parent;
        node.flags = n.flags;
        node.animated = n.map_start != kNone;
        node.keys = n.fallback_key >= first ? n.fallback_key - first + 1 : 0;
        j.nodes.push_back(std::move(node));
    }

    for (const Node& n : m.nodes) j.animated_nodes += n.map_start != kNone;
    j.frame_count = m.animation.frame_count;
    j.key_count = m.animation.keys.size();
    j.frame_map_words = m.animation.words.size();
    for (const nres::Entry& e : m.container.entries)
        if (!(e.type < 32 && m.has(ResType(e.type))))
            j.raw_resources.push_back({e.type, e.data.size()});
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

mshconv::TextureInfo summarize_texture(ByteView payload, const std::string& name,
                                       const std::string& where) {
    DiagnosticSink sink(ReadMode::Tolerant);
    mshconv::TextureInfo j;
    j.payload_size = payload.size();
    texm::Texture t;
    try {
        t = texm::read(payload, sink, where);
    } catch (const FormatError& e) {
        j.error = e.what();
        return j;
    }
    const texm::Header& h = t.header;
    j.width = h.width;
    j.height = h.height;
    j.format = h.format;
    j.format_name = format_name(h.format);
    j.mip_count = h.mip_count;
    j.flags4 = h.flags4;
    j.flags5 = h.flags5;
    j.unknown6 = h.unknown6;
    if (h.flags5 & texm::kFlags5AlphaKey)
        j.flags5_bits.push_back("alpha key (palette index 0 transparent)");
    if (h.flags5 & texm::kFlags5Fade) j.flags5_bits.push_back("palette fade");
    if (h.flags5 & texm::kFlags5Exporter) j.flags5_bits.push_back("exporter bit");
    if (h.flags5 & texm::kFlags5Lightmap) j.flags5_bits.push_back("lightmap set");
    j.core_size = texm::core_size(h);
    j.embedded_palette = !t.palette.empty();
    if (t.page) {
        j.page.emplace();
        for (const texm::PageRect& r : *t.page) j.page->push_back({r.x, r.w, r.y, r.h});
    }
    if (!t.tail.empty()) j.unparsed_tail_bytes = t.tail.size();
    j.interpretable = !t.raw_only && t.format().has_value();
    const material::PaletteRef pal = material::palette_slot(name);
    j.valid_texture_name = pal.valid_name;
    if (pal.valid_name && pal.slot >= 0 && pal.slot < material::kPaletteSlots)
        j.external_palette = material::palette_file_name(pal.slot);
    for (const Diagnostic& d : sink.diagnostics()) j.diagnostics.push_back(d.to_string());
    return j;
}

mshconv::TerrainInfo summarize_terrain(const terrain::Terrain& t) {
    mshconv::TerrainInfo j;
    for (size_t f = 0; f < t.faces.size(); ++f) {
        if (!terrain::face_usable(t, f)) continue;
        ++j.usable_faces;
        ++j.layer1_faces_by_row[t.faces[f].material];
        if (t.faces[f].aux != terrain::kNoLayer2) ++j.layer2_faces_by_row[t.faces[f].aux];
    }
    if (!t.positions.empty()) {
        terrain::Vec3 lo = t.positions[0], hi = t.positions[0];
        for (const terrain::Vec3& p : t.positions) {
            lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
            hi = {std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
        }
        j.extent = {{{lo.x, lo.y, lo.z}, {hi.x, hi.y, hi.z}}};
    }
    j.faces = t.faces.size();
    j.vertices = t.positions.size();
    j.slots = t.slots.size();
    j.nodes = t.nodes.size();
    return j;
}

mshconv::ArealMapInfo summarize_areal_map(const arealmap::ArealMap& map) {
    mshconv::ArealMapInfo j;
    double area = 0;
    for (const arealmap::Areal& a : map.areals) {
        ++j.areals_by_class[a.class_id];
        j.polygon_vertices += a.vertices.size();
        area += a.area;
    }
    for (const auto& cell : map.grid.cells) j.occupied_cells += !cell.empty();
    j.decoded = map.decoded;
    j.areals = map.areals.size();
    j.total_area = area;
    j.cells_x = map.grid.cells_x;
    j.cells_y = map.grid.cells_y;
    return j;
}

mshconv::ArchiveInfo summarize_archive(const nres::Archive& ar, const std::string& where) {
    mshconv::ArchiveInfo out;
    for (size_t i = 0; i < ar.entries.size(); ++i) {
        const nres::Entry& e = ar.entries[i];
        mshconv::ArchiveInfo::Entry je;
        je.index = i;
        je.name = e.display_name();
        je.type = type_label(e.type);
        je.size = e.data.size();
        je.attr1 = e.attr1, je.attr2 = e.attr2, je.attr3 = e.attr3, je.sort_index = e.sort_index;
        const ContentKind kind = sniff(e.data, {e.name(), e.type});
        if (kind == ContentKind::NResArchive) je.nested = mshconv::InfoKind::Archive;
        if (kind == ContentKind::Terrain) je.nested = mshconv::InfoKind::Terrain;
        if (kind == ContentKind::ArealMap) je.nested = mshconv::InfoKind::ArealMap;
        if (kind == ContentKind::Texm)
            je.texture = summarize_texture(e.data, e.name(), where + ":" + e.display_name());
        if (kind == ContentKind::Model) {
            DiagnosticSink sink(ReadMode::Tolerant);
            try {
                je.model =
                    summarize_model(read_model(e.data, sink, where + ":" + e.display_name()));
                je.diagnostics = sink.diagnostics().size();
            } catch (const FormatError& err) {
                je.error = err.what();
            }
        }
        out.entries.push_back(std::move(je));
    }
    // Which case fold the stored order follows (nres.md §5): the fold the engine's lookup needs.
    out.entry_count = ar.entries.size();
    out.sort_fold = nres::evidence_name(ar.fold_evidence);
    return out;
}

} // namespace msh::conversion
