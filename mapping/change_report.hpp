// What an import did, as typed reports whose JSON form (to_json) is written only at the edge
// (`convert --report`, batch reports): a model import with a sidecar (what was kept, rebuilt and
// recomputed, docs/import.md), a new model built without one, a terrain import.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace msh::mapping {

// The re-topology of an import whose triangles changed (mapping/retopology.hpp).
struct TopologyReport {
    size_t triangles_kept = 0, triangles_added = 0, triangles_removed = 0;
    size_t vertices_added = 0, vertices_removed = 0, vertices_moved = 0;
    size_t batches = 0, batches_split = 0;
    size_t slots_added = 0, slots_removed = 0;
    size_t links_kept = 0, links_made = 0;
};

// One MSH node that changed; only the changed fields are set.
struct NodeChange {
    size_t index = 0;
    std::string name; // as exported
    size_t vertices_moved = 0, normals_changed = 0, uvs_changed = 0;
    std::optional<std::string> renamed_to;
    bool reparented = false;
    std::optional<uint16_t> new_parent; // none with `reparented`: now a root
    bool animation_rebuilt = false;
};

struct ModelChangeReport {
    bool identical = true; // the original image, byte for byte
    size_t vertices_moved = 0, normals_changed = 0, uvs_changed = 0;
    size_t slots_with_bounds_recomputed = 0;
    bool animation_rebuilt = false;
    bool header_recomputed = false;
    std::vector<NodeChange> nodes;
    std::vector<std::string> new_parts; // new nodes (topology edits)
    std::optional<TopologyReport> topology;
    // The sidecar's own fields a person edited (binding sidecars): JSON pointers of their rows.
    std::vector<std::string> sidecar_edits;
    std::vector<std::string> warnings;
};

// A model built from a scene alone (mapping/scene_to_new_model.hpp).
struct NewModelSummary {
    size_t nodes = 0, slots = 0, batches = 0, vertices = 0, triangles = 0, keys = 0;
    uint32_t frame_count = 0;
    size_t animated_nodes = 0;
    size_t split_primitives = 0;       // primitives split into several batches
    std::vector<std::string> defaults; // the values the scene could not give
    std::vector<std::string> warnings;
};

// A terrain import with its sidecar (mapping/scene_to_terrain.hpp).
struct TerrainImportReport {
    size_t vertices_moved = 0;
    size_t vertex_normals_recomputed = 0, face_normals_recomputed = 0;
    size_t slots_with_bounds_recomputed = 0;
    bool header_recomputed = false;
    bool grid_rebuilt = false;
    bool land_msh_identical = true, land_map_identical = true;
    std::vector<uint32_t> moved_vertices; // the first 1,000
    // The vertices whose type-5 / type-18 UVs, type-14 weight or type-4 normal the file changed.
    std::vector<uint32_t> layer1_uv_vertices, layer2_uv_vertices, weight_vertices, normal_vertices;
    // Areal indices as exported (the sidecar's), before deleted areals are dropped.
    std::vector<uint32_t> changed_areals, deleted_areals;
    // JSON pointers of the rows a binding sidecar's text changed (/faces/rows/3, /blocks/2, ...).
    std::vector<std::string> sidecar_edits;
    std::vector<std::string> warnings;
};

nlohmann::json to_json(const TopologyReport& topology);
nlohmann::json to_json(const ModelChangeReport& report);
nlohmann::json to_json(const NewModelSummary& summary);
nlohmann::json to_json(const TerrainImportReport& report);

} // namespace msh::mapping
