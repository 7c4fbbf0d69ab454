// Identity: which element of the game files a scene element is (design.md §2). The exports set
// it and the imports read it back. In a glTF file it is a few keys of the element's extras
// (formats/gltf_identity.hpp); in an OBJ, two comments (formats/obj.cpp). Plain data.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace msh::scene {

// A slot's LOD or group as a file holds it. mshconv writes whole numbers; a foreign file may hold
// a fraction or a boolean, read as a JSON conversion reads them (1.5 -> 1, true -> 1), or any
// other JSON value, kept in `unreadable`: `get` then fails as that conversion fails
// (nlohmann::json::type_error).
struct SlotNumber {
    SlotNumber(int v = 0) : value(v) {} // NOLINT: a whole number is a SlotNumber
    int value;
    std::optional<nlohmann::json> unreadable;
    int get() const { return unreadable ? unreadable->get<int>() : value; }
    bool operator==(const SlotNumber& o) const {
        return value == o.value && unreadable == o.unreadable;
    }
    bool operator!=(const SlotNumber& o) const { return !(*this == o); }
};

struct NodeIdentity {
    // An MSH node: its index (the import matches nodes by it) and its Res1 header words
    // (msh.md §3), for reading only: the import takes the header from the sidecar's original.
    std::optional<int> index;
    std::optional<uint16_t> flags, parent, map_start, fallback_key;
    // A slot's own node beside its MSH node's shown slot: which LOD, group and Res2 slot.
    std::optional<SlotNumber> lod, group;
    std::optional<uint16_t> slot;
    // The one node of a legacy (stride-24) model, and its node count.
    std::optional<bool> legacy_nodes;
    std::optional<uint64_t> node_count;

    bool operator==(const NodeIdentity& o) const {
        return index == o.index && flags == o.flags && parent == o.parent &&
               map_start == o.map_start && fallback_key == o.fallback_key && lod == o.lod &&
               group == o.group && slot == o.slot && legacy_nodes == o.legacy_nodes &&
               node_count == o.node_count;
    }
    bool operator!=(const NodeIdentity& o) const { return !(*this == o); }
};

struct MeshIdentity {
    // A slot's mesh: the MSH node, LOD, group and Res2 slot it holds.
    std::optional<int> node;
    std::optional<SlotNumber> lod, group;
    std::optional<uint16_t> slot;
    // One skinned mesh of every slot of a (LOD, group) (mapping/skin.hpp).
    std::optional<bool> skinned;
    // The one mesh of a legacy (stride-24) model.
    std::optional<bool> legacy_nodes;

    bool operator==(const MeshIdentity& o) const {
        return node == o.node && lod == o.lod && group == o.group && slot == o.slot &&
               skinned == o.skinned && legacy_nodes == o.legacy_nodes;
    }
    bool operator!=(const MeshIdentity& o) const { return !(*this == o); }
};

struct MaterialIdentity {
    // The WEAR row of a model's batches or of Land1 faces, and the LIGHTMAPS row of a lit one.
    std::optional<int> wear_row, lightmap_row;
    // Terrain: the WEAR file the row is in, and a layer-2 face's Land2 row.
    std::optional<std::string> wear;
    std::optional<int> wear2_row;
    // An areal map class: its class id and logic flag (terrain.md).
    std::optional<uint32_t> class_id, logic_flag;

    bool operator==(const MaterialIdentity& o) const {
        return wear_row == o.wear_row && lightmap_row == o.lightmap_row && wear == o.wear &&
               wear2_row == o.wear2_row && class_id == o.class_id && logic_flag == o.logic_flag;
    }
    bool operator!=(const MaterialIdentity& o) const { return !(*this == o); }
};

struct SceneIdentity {
    // The pairing token of the export and its sidecar (sidecar/pairing.hpp).
    std::optional<std::string> pair;

    bool operator==(const SceneIdentity& o) const { return pair == o.pair; }
    bool operator!=(const SceneIdentity& o) const { return !(*this == o); }
};

} // namespace msh::scene
