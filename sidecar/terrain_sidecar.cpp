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

// The pairing token hashes its facts as nlohmann's compact text: a fixed form, so that the
// tokens in sidecars already written are computed again the same.
#include <nlohmann/json.hpp>

namespace msh::sidecar {

namespace {

void write_directory_entries(ReadableJson& w, const nres::Archive& ar) {
    w.begin_array();
    for (const nres::Entry& e : ar.entries) {
        w.begin_object();
        w.member("attr1", e.attr1);
        w.member("attr2", e.attr2);
        w.member("attr3", e.attr3);
        w.member("name", e.display_name());
        w.member("size", uint64_t(e.data.size()));
        w.member("sort_index", e.sort_index);
        w.member("type", e.type);
        w.end_object();
    }
    w.end_array();
}

// A first layout's payload: its address, size and hash, and its base64 straight into the text.
void write_payload(ReadableJson& w, const std::string& address, ByteView bytes) {
    w.begin_object();
    w.member("address", address);
    w.key("base64");
    w.plain_string_with([&](std::string& out) { append_base64(out, bytes); });
    w.member("size", uint64_t(bytes.size()));
    w.member(kPayloadHashKey, hex64(payload_hash(bytes)));
    w.end_object();
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

void write_faces(ReadableJson& w, const terrain::Terrain& t) {
    w.begin_object();
    w.key("columns");
    w.begin_array();
    for (const char* c : kFaceColumns) w.value(c);
    w.end_array();
    w.key("rows");
    w.rows_with(t.faces.size(), [&](size_t i, std::string& out) { put_face_row(t.faces[i], out); });
    w.end_object();
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

// One areal, compact, its keys in order.
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
    nlohmann::json facts = {r.wear1_rows, r.wear2_rows, r.lift, msh_size};
    if (r.readings != Readings{}) facts.push_back(describe(r.readings)); // defaults: as before
    // Over Land.msh and Land.map (each file's hash; the facts carry the second).
    return pairing_token_of_hash(msh_hash, hex64(map_hash) + '\n' + facts.dump());
}

namespace {

void write_export(ReadableJson& w, const TerrainExportRecord& r, bool with_source) {
    w.begin_object();
    w.member("format", r.format);
    w.key("options");
    w.begin_object();
    w.member("areal_faces", r.areal_faces);
    w.member("lift", double(r.lift));
    w.end_object();
    w.member("output", r.output);
    w.member("pair", r.pair);
    w.key("readings");
    w.begin_object();
    for (const auto& [reading, value] : reading_map(r.readings)) w.member(reading, value);
    w.end_object();
    if (with_source) w.member("source", r.source);
    if (r.written.recorded()) {
        w.key("written");
        write_written_file(w, r.written);
    }
    w.end_object();
}

void write_conventions(ReadableJson& w) {
    const std::map<std::string_view, std::string_view> sorted(std::begin(kTerrainConventions),
                                                              std::end(kTerrainConventions));
    w.begin_object();
    for (const auto& [key, text] : sorted) w.member(key, text);
    w.end_object();
}

void write_wear(ReadableJson& w, const TerrainExportRecord& r) {
    w.begin_object();
    for (const auto& [key, address, rows] :
         {std::tuple(std::string_view("land1"), &r.wear1_source, &r.wear1_rows),
          std::tuple(std::string_view("land2"), &r.wear2_source, &r.wear2_rows)}) {
        w.key(key);
        w.begin_object();
        w.member("address", *address);
        w.member("rows", *rows);
        w.end_object();
    }
    w.end_object();
}

// The first layout: the payloads, and a readable view of the level that is not read back.
void write_first_layout(ReadableJson& w, const terrain::Terrain& t, ByteView land_msh,
                        const arealmap::ArealMap* map, ByteView land_map,
                        const TerrainExportRecord& r) {
    w.begin_object();
    if (map) {
        w.key("areal_map");
        w.begin_object();
        w.key("areals");
        w.rows_with(map->areals.size(),
                    [&](size_t i, std::string& out) { put_areal(map->areals[i], i, out); });
        w.member("decoded", map->decoded);
        w.key("grid");
        w.begin_object();
        w.member("cells_x", map->grid.cells_x);
        w.member("cells_y", map->grid.cells_y);
        w.end_object();
        w.end_object();
    }
    w.key("conventions");
    write_conventions(w);
    w.key("export");
    write_export(w, r, true);
    w.member("generator", "mshconv");
    w.member("kind", "terrain");
    w.key("land_map");
    if (map) {
        write_payload(w, r.map_source, land_map);
        w.key("land_map_directory");
        write_directory_entries(w, map->container);
    } else {
        w.null();
    }
    w.key("land_msh");
    write_payload(w, r.source, land_msh);
    w.key("land_msh_directory");
    write_directory_entries(w, t.container);
    w.member("schema", kSchema);
    w.key("terrain");
    w.begin_object();
    w.member("cell_pairs", uint64_t(t.cell_pairs.size()));
    w.key("faces");
    write_faces(w, t);
    w.member("has_weights", t.has(terrain::kWeights));
    w.member("nodes", uint64_t(t.nodes.size()));
    w.member("slots", uint64_t(t.slots.size()));
    w.member("vertices", uint64_t(t.positions.size()));
    w.end_object();
    w.key("wear");
    write_wear(w, r);
    w.end_object();
}

// The binding layout (sidecar/terrain_binding.hpp): the record, then the binding's members.
void write_binding_layout(ReadableJson& w, const TerrainSidecar& sidecar) {
    const TerrainExportRecord& r = sidecar.record;
    // The record's members, in key order between the binding's (write_terrain_binding).
    const char* const record_keys[] = {"conventions", "export", "generator",
                                       "kind",        "schema", "wear"};
    size_t next = 0;
    const auto record_member = [&](std::string_view key) {
        w.key(key);
        if (key == "conventions")
            write_conventions(w);
        else if (key == "export")
            write_export(w, r, false);
        else if (key == "generator")
            w.value("mshconv");
        else if (key == "kind")
            w.value("terrain");
        else if (key == "schema")
            w.value(kBindingSchema);
        else // wear
            write_wear(w, r);
    };
    w.begin_object();
    write_terrain_binding(
        *sidecar.binding, w, r.source, r.map_source, [&](std::string_view before) {
            while (next < std::size(record_keys) &&
                   (before.empty() || std::string_view(record_keys[next]) < before))
                record_member(record_keys[next++]);
        });
    w.end_object();
}

} // namespace

std::string terrain_sidecar_text(const TerrainSidecar& sidecar, size_t width) {
    std::string text;
    if (sidecar.binding) {
        const TerrainBinding& b = *sidecar.binding;
        size_t blocks = 0;
        for (const Bytes& x : b.land_msh.blocks) blocks += x.size();
        if (b.land_map)
            for (const Bytes& x : b.land_map->blocks) blocks += x.size();
        // Generous (untouched capacity costs no memory): a face row is at most 100 characters.
        text.reserve(65536 + 104 * b.faces.size() + (blocks + 6) / 3 * 4 +
                     8 * b.position_fingerprints.size() + 24 * b.carried_positions.size());
        {
            ReadableJson w(text, width);
            write_binding_layout(w, sidecar);
        }
        text += '\n';
        return text;
    }
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
    // Generous: a face row is at most 90 characters, a payload byte 4/3, an areal a few hundred.
    text.reserve(65536 + 96 * t.faces.size() + (land_msh.size() + land_map.size() + 6) / 3 * 4 +
                 (map ? 1024 * map->areals.size() : 0));
    {
        ReadableJson w(text, width);
        write_first_layout(w, t, land_msh, map, land_map, sidecar.record);
    }
    text += '\n';
    return text;
}

} // namespace msh::sidecar
