// What an import with a sidecar kept, rebuilt and recomputed (docs/import.md): a typed report
// whose JSON form (to_json) is written only at the edge (`convert --report`, batch reports).
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
    std::vector<std::string> warnings;
};

nlohmann::json to_json(const TopologyReport& topology);
nlohmann::json to_json(const ModelChangeReport& report);

} // namespace msh::mapping
