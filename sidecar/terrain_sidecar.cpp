#include "terrain_sidecar.hpp"

#include "base64.hpp"
#include "model_sidecar.hpp"

#include <cmath>
#include <cstdio>

namespace msh::sidecar {

using nlohmann::json;

namespace {

std::string hex32(uint32_t v) {
    char buf[11];
    std::snprintf(buf, sizeof buf, "0x%08x", v);
    return buf;
}

// NaN/inf print as null; the original payload is the authority.
json num(float f) {
    return std::isfinite(f) ? json(f) : json(nullptr);
}

json directory(const nres::Archive& ar) {
    json entries = json::array();
    for (const nres::Entry& e : ar.entries)
        entries.push_back({{"type", e.type},
                           {"name", e.name()},
                           {"attr1", e.attr1},
                           {"attr2", e.attr2},
                           {"attr3", e.attr3},
                           {"sort_index", e.sort_index},
                           {"size", e.data.size()}});
    return entries;
}

json payload(const std::string& address, ByteView bytes) {
    return {{"address", address},
            {"size", bytes.size()},
            {"fnv1a64", hex64(fnv1a64(bytes))},
            {"base64", to_base64(bytes)}};
}

json faces_json(const terrain::Terrain& t) {
    json rows = json::array();
    rows.get_ref<json::array_t&>().reserve(t.faces.size());
    for (const terrain::Face& f : t.faces)
        rows.push_back(json::array({hex32(f.flags), f.material, f.aux, f.unk06, f.v[0], f.v[1],
                                    f.v[2], f.n[0], f.n[1], f.n[2], f.normal[0], f.normal[1],
                                    f.normal[2], f.edge_class, f.unk27}));
    return {{"columns",
             {"flags", "material_land1_row", "aux_land2_row", "unk06", "i0", "i1", "i2", "n0", "n1",
              "n2", "nx", "ny", "nz", "edge_class", "unk27"}},
            {"rows", std::move(rows)}};
}

json areals_json(const arealmap::ArealMap& map) {
    json out = json::array();
    out.get_ref<json::array_t&>().reserve(map.areals.size());
    for (size_t i = 0; i < map.areals.size(); ++i) {
        const arealmap::Areal& a = map.areals[i];
        json links = json::array();
        for (const auto& l : a.links) links.push_back({l.area_ref, l.edge_ref});
        json o = {{"index", i},
                  {"anchor", {num(a.anchor.x), num(a.anchor.y), num(a.anchor.z)}},
                  {"area", num(a.area)},
                  {"normal", {num(a.normal.x), num(a.normal.y), num(a.normal.z)}},
                  {"class_id", a.class_id},
                  {"logic_flag", a.logic_flag},
                  {"vertices", a.vertices.size()},
                  {"links", std::move(links)},
                  {"sub_blocks", a.sub_blocks.size()}};
        if (a.reserved12 != 0 || a.reserved36 != 0 || a.reserved44 != 0)
            o["reserved"] = {num(a.reserved12), a.reserved36, a.reserved44};
        out.push_back(std::move(o));
    }
    return out;
}

void dump_into(const json& j, size_t width, int depth, std::string& out) {
    const bool container = j.is_object() || j.is_array();
    if (!container || j.empty()) {
        out += j.dump();
        return;
    }
    if (std::string flat = j.dump(); flat.size() <= width) {
        out += flat;
        return;
    }
    const std::string pad(size_t(depth + 1), ' ');
    out += j.is_object() ? "{\n" : "[\n";
    bool first = true;
    for (auto it = j.begin(); it != j.end(); ++it) {
        if (!first) out += ",\n";
        first = false;
        out += pad;
        if (j.is_object()) out += json(it.key()).dump() + ": ";
        dump_into(it.value(), width, depth + 1, out);
    }
    out += '\n' + std::string(size_t(depth), ' ') + (j.is_object() ? '}' : ']');
}

} // namespace

std::string dump_readable(const json& doc, size_t width) {
    std::string out;
    dump_into(doc, width, 0, out);
    out += '\n';
    return out;
}

json make_terrain_sidecar(const terrain::Terrain& t, ByteView land_msh,
                          const arealmap::ArealMap* map, ByteView land_map,
                          const TerrainExportRecord& r) {
    json doc = {
        {"schema", kSchema},
        {"kind", "terrain"},
        {"generator", "mshconv"},
        {"export",
         {{"source", r.source},
          {"output", r.output},
          {"format", r.format},
          {"options", r.options}}},
        {"conventions",
         {{"axes", "(x, y, z) -> (x, z, -y), no scaling"},
          {"terrain_identity", "unshared vertices; TEXCOORD_2 = (face index, corner 0..2), "
                               "TEXCOORD_3 = (Land.msh vertex index, type-14 layer-1 weight)"},
          {"terrain_uv", "TEXCOORD_0 = type 5, TEXCOORD_1 = type 18, i16 / 1024"},
          {"areal_identity", "TEXCOORD_0 = (areal index, polygon vertex index)"},
          {"areal_lift", "ArealMap node translated along world +Z by options.lift"}}},
        {"land_msh", payload(r.source, land_msh)},
        {"land_msh_directory", directory(t.container)},
        {"terrain",
         {{"vertices", t.positions.size()},
          {"has_weights", t.has(terrain::kWeights)},
          {"nodes", t.nodes.size()},
          {"slots", t.slots.size()},
          {"cell_pairs", t.cell_pairs.size()},
          {"faces", faces_json(t)}}},
        {"wear",
         {{"land1", {{"address", r.wear1_source}, {"rows", r.wear1_rows}}},
          {"land2", {{"address", r.wear2_source}, {"rows", r.wear2_rows}}}}},
    };
    if (map) {
        doc["land_map"] = payload(r.map_source, land_map);
        doc["land_map_directory"] = directory(map->container);
        doc["areal_map"] = {
            {"decoded", map->decoded},
            {"grid", {{"cells_x", map->grid.cells_x}, {"cells_y", map->grid.cells_y}}},
            {"areals", areals_json(*map)}};
    } else {
        doc["land_map"] = nullptr;
    }
    return doc;
}

} // namespace msh::sidecar
