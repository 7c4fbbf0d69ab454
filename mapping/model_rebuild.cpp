#include "model_rebuild.hpp"

#include "bounds.hpp"
#include "scene_identity.hpp"

#include "formats/diagnostics.hpp"
#include "sidecar/binding_fields.hpp"

#include <cmath>
#include <cstring>
#include <limits>

namespace msh::mapping {

namespace {

Vec3 model_position(const Seen& s) {
    const F3 q = from_gltf(s.pos);
    return {q[0], q[1], q[2]};
}

PackedUv model_uv(const Seen& s) {
    return {encode_uv(s.uv[0]), encode_uv(s.uv[1])};
}

// Where the model sidecar's checks tables are (sidecar::edited_rows).
sidecar::CheckedTable model_checked_table(const std::string& table) {
    if (table == "keys") return {"/animation/keys/rows", false};
    if (table == "frame_map") return {"/animation/frame_map", true};
    if (table == "header") return {"/header", true};
    if (table == "node_strings") return {"/node_strings", false};
    if (table == "container") return {"/container", true};
    if (table == "blocks") return {"/blocks", false};
    if (table == "vertices") return {"/vertices", true};
    return {"/" + table + "/rows", false};
}

} // namespace

std::vector<bool> held_vertices(const Model& m, const scene::Scene& exported, bool world_space) {
    const size_t n = m.positions.size();
    std::vector<bool> held(n, false);
    if (world_space || n == 0) return held;
    const bool uvs = m.uvs.size() == n;
    const Observed o = observe(exported, n, Observe::copies);
    for (size_t v = 0; v < n; ++v) {
        const auto copies = o.by_vid[v];
        bool exact = !copies.empty();
        for (const Seen& s : copies) {
            exact = exact && same_bits(model_position(s), m.positions[v]);
            if (uvs) exact = exact && s.has_uv && model_uv(s) == m.uvs[v];
        }
        held[v] = exact;
    }
    return held;
}

RebuiltOriginal rebuild_original(const sidecar::ModelBinding& b, const scene::Scene& incoming,
                                 const std::string& where) {
    RebuiltOriginal out;
    const size_t n = b.vertex_count;
    const float nan = std::numeric_limits<float>::quiet_NaN();
    std::vector<Vec3> positions(n, Vec3{nan, nan, nan});
    std::vector<PackedUv> uvs(b.has_uvs ? n : 0, PackedUv{0, 0});
    std::vector<bool> carried(n, false);
    size_t k = 0;
    for (const sidecar::VertexRange& r : b.carried)
        for (uint32_t v = r.first; v < r.first + r.count; ++v, ++k) {
            carried[v] = true;
            positions[v] = b.carried_positions[k];
            if (b.has_uvs) uvs[v] = b.carried_uvs[k];
        }
    out.uv_unknown.assign(n, false);
    if (n > 0) {
        const Observed got = observe(incoming, n, Observe::copies);
        size_t h = 0; // index among the vertices the file holds
        for (size_t v = 0; v < n; ++v) {
            if (carried[v]) continue;
            const uint32_t position_print = b.position_fingerprints[h];
            const uint8_t uv_print = b.has_uvs ? b.uv_fingerprints[h] : 0;
            ++h;
            const auto copies = got.by_vid[v];
            bool known = false;
            for (const Seen& s : copies) {
                const Vec3 p = model_position(s);
                if (sidecar::position_fingerprint(p) == position_print) {
                    positions[v] = p;
                    known = true;
                    break;
                }
            }
            out.positions_unknown += !known;
            if (copies.empty() && !out.first_unheld) out.first_unheld = uint32_t(v);
            if (!b.has_uvs) continue;
            bool uv_known = false;
            for (const Seen& s : copies) {
                if (!s.has_uv) continue;
                const PackedUv uv = model_uv(s);
                if (sidecar::uv_fingerprint(uv) == uv_print) {
                    uvs[v] = uv;
                    uv_known = true;
                    break;
                }
            }
            if (!uv_known) {
                // The incoming value stands in; the import is told it is not the original.
                for (const Seen& s : copies)
                    if (s.has_uv) {
                        uvs[v] = model_uv(s);
                        break;
                    }
                out.uv_unknown[v] = true;
                ++out.uvs_unknown;
            }
        }
    }

    // Res7's normals follow from the positions: the rule's value of each record's triangle.
    Model shape;
    shape.positions = positions;
    shape.batches = b.batches;
    shape.slots = b.slots;
    shape.triangles.resize(b.triangle_records.size() / sidecar::kTriangleRecord);
    for (size_t i = 0; i < b.content.size(); ++i)
        if (b.directory.entries[i].type == kIndices) {
            const Bytes& res6 = b.blocks[i];
            shape.indices.resize(res6.size() / 2);
            if (!shape.indices.empty())
                std::memcpy(shape.indices.data(), res6.data(), 2 * shape.indices.size());
            break;
        }
    const sidecar::RuleNormals rule_normals = rule_face_normals(shape);

    Model tables;
    tables.nodes = b.nodes;
    tables.batches = b.batches;
    tables.node_strings = b.node_strings;
    tables.animation.keys = b.keys;
    nres::Archive archive = b.directory;
    for (size_t i = 0; i < archive.entries.size(); ++i) {
        Bytes payload;
        switch (b.content[i]) {
        case sidecar::EntryContent::Nodes:
            payload = encode_resource(tables, kNodes);
            break;
        case sidecar::EntryContent::HeaderSlots:
            payload = encode_header_slots(b.header, b.slots);
            break;
        case sidecar::EntryContent::Positions:
            payload = pod_bytes(positions);
            break;
        case sidecar::EntryContent::Uvs:
            payload = pod_bytes(uvs);
            break;
        case sidecar::EntryContent::Keys:
            payload = encode_resource(tables, kKeys);
            break;
        case sidecar::EntryContent::FrameMap:
            payload = pod_bytes(b.frame_map);
            break;
        case sidecar::EntryContent::NodeStrings:
            payload = encode_resource(tables, kNodeStrings);
            break;
        case sidecar::EntryContent::Batches:
            payload = encode_resource(tables, kBatches);
            break;
        case sidecar::EntryContent::Block:
            payload = b.blocks[i];
            break;
        case sidecar::EntryContent::Triangles:
            payload = sidecar::triangle_payload(b, rule_normals);
            break;
        }
        if (payload.size() > std::numeric_limits<uint32_t>::max())
            throw FormatError(where, Location::whole(),
                              "sidecar entry " + std::to_string(i) + " is too large");
        archive.entries[i].data = std::move(payload);
    }
    out.image = nres::write(archive);
    out.edited_rows = sidecar::edited_rows(sidecar::table_checks(b), b.checks, model_checked_table);
    return out;
}

} // namespace msh::mapping
