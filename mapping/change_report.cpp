#include "change_report.hpp"

namespace msh::mapping {

using nlohmann::json;

json to_json(const TopologyReport& t) {
    return {{"triangles_kept", t.triangles_kept},
            {"triangles_added", t.triangles_added},
            {"triangles_removed", t.triangles_removed},
            {"vertices_added", t.vertices_added},
            {"vertices_removed", t.vertices_removed},
            {"vertices_moved", t.vertices_moved},
            {"batches", t.batches},
            {"batches_split", t.batches_split},
            {"slots_added", t.slots_added},
            {"slots_removed", t.slots_removed},
            {"links_kept", t.links_kept},
            {"links_made", t.links_made}};
}

json to_json(const ModelChangeReport& r) {
    json nodes = json::array();
    for (const NodeChange& c : r.nodes) {
        json n = {{"index", c.index}, {"name", c.name}};
        if (c.vertices_moved) n["vertices_moved"] = c.vertices_moved;
        if (c.normals_changed) n["normals_changed"] = c.normals_changed;
        if (c.uvs_changed) n["uvs_changed"] = c.uvs_changed;
        if (c.renamed_to) n["renamed_to"] = *c.renamed_to;
        if (c.reparented) n["new_parent"] = c.new_parent ? json(*c.new_parent) : json(nullptr);
        if (c.animation_rebuilt) n["animation_rebuilt"] = true;
        nodes.push_back(std::move(n));
    }
    json j = {{"nodes", std::move(nodes)},
              {"warnings", r.warnings},
              {"identical", r.identical},
              {"summary",
               {{"vertices_moved", r.vertices_moved},
                {"normals_changed", r.normals_changed},
                {"uvs_changed", r.uvs_changed},
                {"slots_with_bounds_recomputed", r.slots_with_bounds_recomputed},
                {"animation_rebuilt", r.animation_rebuilt},
                {"header_recomputed", r.header_recomputed}}}};
    if (!r.new_parts.empty()) j["new_parts"] = r.new_parts;
    if (r.topology) j["topology"] = to_json(*r.topology);
    if (!r.sidecar_edits.empty()) j["sidecar_edits"] = r.sidecar_edits;
    return j;
}

json to_json(const NewModelSummary& s) {
    return {{"nodes", s.nodes},
            {"slots", s.slots},
            {"batches", s.batches},
            {"vertices", s.vertices},
            {"triangles", s.triangles},
            {"keys", s.keys},
            {"frame_count", s.frame_count},
            {"animated_nodes", s.animated_nodes},
            {"split_primitives", s.split_primitives},
            {"defaults", s.defaults},
            {"warnings", s.warnings}};
}

json to_json(const TerrainImportReport& r) {
    json j = {{"summary",
               {{"vertices_moved", r.vertices_moved},
                {"vertex_normals_recomputed", r.vertex_normals_recomputed},
                {"layer1_uvs_edited", r.layer1_uv_vertices.size()},
                {"layer2_uvs_edited", r.layer2_uv_vertices.size()},
                {"weights_edited", r.weight_vertices.size()},
                {"vertex_normals_edited", r.normal_vertices.size()},
                {"face_normals_recomputed", r.face_normals_recomputed},
                {"slots_with_bounds_recomputed", r.slots_with_bounds_recomputed},
                {"header_recomputed", r.header_recomputed},
                {"areals_changed", r.changed_areals.size()},
                {"areals_deleted", r.deleted_areals.size()},
                {"grid_rebuilt", r.grid_rebuilt},
                {"land_msh_identical", r.land_msh_identical},
                {"land_map_identical", r.land_map_identical}}},
              {"moved_vertices", r.moved_vertices},
              {"layer1_uv_vertices", r.layer1_uv_vertices},
              {"layer2_uv_vertices", r.layer2_uv_vertices},
              {"weight_vertices", r.weight_vertices},
              {"normal_vertices", r.normal_vertices},
              {"changed_areals", r.changed_areals},
              {"deleted_areals", r.deleted_areals},
              {"warnings", r.warnings}};
    if (!r.sidecar_edits.empty()) j["sidecar_edits"] = r.sidecar_edits;
    return j;
}

} // namespace msh::mapping
