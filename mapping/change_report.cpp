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
    return j;
}

} // namespace msh::mapping
