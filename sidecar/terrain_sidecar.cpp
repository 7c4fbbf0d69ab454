#include "terrain_sidecar.hpp"

#include "base64.hpp"
#include "model_sidecar.hpp"
#include "pairing.hpp"
#include "payload_hash.hpp"
#include "readable_writer.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <functional>
#include <iterator>
#include <unordered_map>

namespace msh::sidecar {

using nlohmann::json;

namespace {

json directory(const nres::Archive& ar) {
    json entries = json::array();
    for (const nres::Entry& e : ar.entries)
        entries.push_back({{"type", e.type},
                           {"name", e.display_name()},
                           {"attr1", e.attr1},
                           {"attr2", e.attr2},
                           {"attr3", e.attr3},
                           {"sort_index", e.sort_index},
                           {"size", e.data.size()}});
    return entries;
}

// "base64" is a placeholder the text writer fills from the bytes (terrain_sidecar_text).
json payload(const std::string& address, ByteView bytes) {
    return {{"address", address},
            {"size", bytes.size()},
            {kPayloadHashKey, hex64(payload_hash(bytes))},
            {"base64", ""}};
}

template <class T> void put_int(std::string& out, T v) {
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
}

// One face row, compact: ["0x00000608",0,255,65535,i0,i1,i2,n0,n1,n2,nx,ny,nz,edge,unk27],
// built in a local buffer and appended once (with snprintf for the flags and an append per value
// the rows took 2.9x the instructions).
void put_face_row(const terrain::Face& f, std::string& out) {
    const int values[] = {f.material,  f.aux,       f.unk06,      f.v[0], f.v[1],
                          f.v[2],      f.n[0],      f.n[1],       f.n[2], f.normal[0],
                          f.normal[1], f.normal[2], f.edge_class, f.unk27};
    char row[16 + std::size(values) * 12]; // an int is at most 11 characters and its comma
    char* p = row;
    for (const char c : {'[', '"', '0', 'x'}) *p++ = c;
    for (int shift = 28; shift >= 0; shift -= 4)
        *p++ = "0123456789abcdef"[(f.flags >> shift) & 15u];
    *p++ = '"';
    for (const int v : values) {
        *p++ = ',';
        p = std::to_chars(p, row + sizeof row, v).ptr;
    }
    *p++ = ']';
    out.append(row, p);
}

// "rows" is a placeholder the text writer fills, one line per face.
json faces_json() {
    json columns = json::array();
    for (const char* c : kFaceColumns) columns.push_back(c);
    return {{"columns", std::move(columns)}, {"rows", json::array()}};
}

// Shortest round-trip text of a float; NaN/inf print as null (the original payload is the
// authority).
void put_float(std::string& out, float f) {
    if (!std::isfinite(f)) {
        out += "null";
        return;
    }
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, f);
    out.append(buf, r.ptr);
}

void put_vec3(std::string& out, const msh::Vec3& v) {
    out += '[';
    put_float(out, v.x);
    out += ',';
    put_float(out, v.y);
    out += ',';
    put_float(out, v.z);
    out += ']';
}

// One areal, compact, keys in the order nlohmann sorts them.
void put_areal(const arealmap::Areal& a, size_t index, std::string& out) {
    out += "{\"anchor\":";
    put_vec3(out, a.anchor);
    out += ",\"area\":";
    put_float(out, a.area);
    out += ",\"class_id\":";
    put_int(out, a.class_id);
    out += ",\"index\":";
    put_int(out, index);
    out += ",\"links\":[";
    for (size_t k = 0; k < a.links.size(); ++k) {
        if (k) out += ',';
        out += '[';
        put_int(out, a.links[k].area_ref);
        out += ',';
        put_int(out, a.links[k].edge_ref);
        out += ']';
    }
    out += "],\"logic_flag\":";
    put_int(out, a.logic_flag);
    out += ",\"normal\":";
    put_vec3(out, a.normal);
    if (a.reserved12 != 0 || a.reserved36 != 0 || a.reserved44 != 0) {
        out += ",\"reserved\":[";
        put_float(out, a.reserved12);
        out += ',';
        put_int(out, a.reserved36);
        out += ',';
        put_int(out, a.reserved44);
        out += ']';
    }
    out += ",\"sub_blocks\":";
    put_int(out, a.sub_blocks.size());
    out += ",\"vertices\":";
    put_int(out, a.vertices.size());
    out += '}';
}

} // namespace

std::string terrain_pairing_token(ByteView land_msh, ByteView land_map,
                                  const TerrainExportRecord& r) {
    return terrain_pairing_token_of(payload_hash(land_msh), land_msh.size(), payload_hash(land_map),
                                    r);
}

std::string terrain_pairing_token_of(uint64_t msh_hash, uint64_t msh_size, uint64_t map_hash,
                                     const TerrainExportRecord& r) {
    // Content only, never an address: the same level exported in any folder gets the same token.
    // Not areal_faces either: it shapes only the OBJ text, and one sidecar serves both formats.
    json facts = {r.wear1_rows, r.wear2_rows, r.lift, msh_size};
    if (r.readings != Readings{}) facts.push_back(describe(r.readings)); // defaults: as before
    // Over Land.msh and Land.map (each file's hash; the facts carry the second).
    return pairing_token_of_hash(msh_hash, hex64(map_hash) + '\n' + facts.dump());
}

namespace {

json export_json(const TerrainExportRecord& r, bool with_source) {
    json e = {{"output", r.output},
              {"format", r.format},
              {"options", {{"lift", r.lift}, {"areal_faces", r.areal_faces}}},
              {"readings", reading_map(r.readings)},
              {"pair", r.pair}};
    if (with_source) e["source"] = r.source;
    if (r.written.recorded()) e["written"] = to_json(r.written);
    return e;
}

json conventions_json() {
    json c = json::object();
    for (const auto& [key, text] : kTerrainConventions) c[key] = text;
    return c;
}

json wear_json(const TerrainExportRecord& r) {
    return {{"land1", {{"address", r.wear1_source}, {"rows", r.wear1_rows}}},
            {"land2", {{"address", r.wear2_source}, {"rows", r.wear2_rows}}}};
}

// Everything but the big parts, which are placeholders filled by terrain_sidecar_text.
json skeleton(const terrain::Terrain& t, ByteView land_msh, const arealmap::ArealMap* map,
              ByteView land_map, const TerrainExportRecord& r) {
    json doc = {
        {"schema", kSchema},
        {"kind", "terrain"},
        {"generator", "mshconv"},
        {"export", export_json(r, true)},
        {"conventions", conventions_json()},
        {"land_msh", payload(r.source, land_msh)},
        {"land_msh_directory", directory(t.container)},
        {"terrain",
         {{"vertices", t.positions.size()},
          {"has_weights", t.has(terrain::kWeights)},
          {"nodes", t.nodes.size()},
          {"slots", t.slots.size()},
          {"cell_pairs", t.cell_pairs.size()},
          {"faces", faces_json()}}},
        {"wear", wear_json(r)},
    };
    if (map) {
        doc["land_map"] = payload(r.map_source, land_map);
        doc["land_map_directory"] = directory(map->container);
        doc["areal_map"] = {
            {"decoded", map->decoded},
            {"grid", {{"cells_x", map->grid.cells_x}, {"cells_y", map->grid.cells_y}}},
            {"areals", json::array()}}; // placeholder, one line per areal
    } else {
        doc["land_map"] = nullptr;
    }
    return doc;
}

// The binding layout (sidecar/terrain_binding.hpp): the record, then the binding's members.
std::string binding_text(const TerrainSidecar& sidecar, size_t width) {
    const TerrainBinding& b = *sidecar.binding;
    const TerrainExportRecord& r = sidecar.record;
    json doc = {{"schema", kBindingSchema},
                {"kind", "terrain"},
                {"generator", "mshconv"},
                {"export", export_json(r, false)},
                {"conventions", conventions_json()},
                {"wear", wear_json(r)},
                {"source", {{"address", r.source}}}};
    if (b.land_map) doc["map_source"] = {{"address", r.map_source}};
    add_terrain_binding_json(b, doc);
    Deferred deferred;
    defer_terrain_binding(b, doc, deferred);
    size_t blocks = 0;
    for (const Bytes& x : b.land_msh.blocks) blocks += x.size();
    if (b.land_map)
        for (const Bytes& x : b.land_map->blocks) blocks += x.size();
    // Generous (untouched capacity costs no memory): a face row is at most 100 characters.
    const size_t reserve = 65536 + 104 * b.faces.size() + (blocks + 6) / 3 * 4 +
                           8 * b.position_fingerprints.size() + 24 * b.carried_positions.size();
    return readable_text(doc, width, deferred, reserve);
}

} // namespace

std::string terrain_sidecar_text(const TerrainSidecar& sidecar, size_t width) {
    if (sidecar.binding) return binding_text(sidecar, width);
    // A sidecar read back has no decoded level: decode the payloads it carries.
    std::shared_ptr<const terrain::Terrain> decoded_terrain = sidecar.terrain;
    if (!decoded_terrain)
        decoded_terrain = std::make_shared<const terrain::Terrain>(
            terrain::read(sidecar.land_msh, ReadMode::Tolerant, sidecar.record.source));
    std::shared_ptr<const arealmap::ArealMap> decoded_map = sidecar.map;
    if (!decoded_map && sidecar.land_map)
        decoded_map = std::make_shared<const arealmap::ArealMap>(
            arealmap::read(*sidecar.land_map, ReadMode::Tolerant, sidecar.record.map_source));
    const terrain::Terrain& t = *decoded_terrain;
    const arealmap::ArealMap* map = decoded_map.get();
    const ByteView land_msh = sidecar.land_msh;
    const ByteView land_map = sidecar.land_map ? ByteView(*sidecar.land_map) : ByteView();
    const json doc = skeleton(t, land_msh, map, land_map, sidecar.record);
    Deferred deferred;
    deferred[&doc["terrain"]["faces"]["rows"]] = [&](ReadableJson& w) {
        w.rows_with(t.faces.size(),
                    [&](size_t i, std::string& out) { put_face_row(t.faces[i], out); });
    };
    deferred[&doc["land_msh"]["base64"]] = [&](ReadableJson& w) {
        w.plain_string_with([&](std::string& out) { append_base64(out, land_msh); });
    };
    if (map) {
        deferred[&doc["land_map"]["base64"]] = [&](ReadableJson& w) {
            w.plain_string_with([&](std::string& out) { append_base64(out, land_map); });
        };
        deferred[&doc["areal_map"]["areals"]] = [&](ReadableJson& w) {
            w.rows_with(map->areals.size(),
                        [&](size_t i, std::string& out) { put_areal(map->areals[i], i, out); });
        };
    }
    // Generous (untouched capacity costs no memory): a face row is at most 90 characters, a
    // payload byte 4/3, an areal a few hundred.
    const size_t reserve = 65536 + 96 * t.faces.size() +
                           (land_msh.size() + land_map.size() + 6) / 3 * 4 +
                           (map ? 1024 * map->areals.size() : 0);
    return readable_text(doc, width, deferred, reserve);
}

} // namespace msh::sidecar
