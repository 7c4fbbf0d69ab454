// Which derived values of a model follow the writer rules of msh.md §11 (the self-check rule):
// after an edit only those are recomputed, the others are kept. An import that has the original
// model computes this from it (mapping/bounds.hpp derived_rules); a binding sidecar records it,
// because the original positions it is computed from are in the glTF, where an edit changes them.
#pragma once

#include <array>
#include <optional>
#include <vector>

namespace msh {

struct SlotRule {
    bool drawn = false; // the slot draws triangles (an empty slot has nothing to check)
    bool box = false, sphere = false, area = false, volume = false;
};

struct HeaderRule {
    bool posed = false; // the model has drawn vertices at its first key
    // Per hull component (8 corners x 3): true when it is the maximum, false the minimum of its
    // axis; none when a component is neither (the hull is kept).
    std::optional<std::array<bool, 24>> hull_max;
    bool sphere = false, capsule = false;
};

struct DerivedRules {
    std::vector<SlotRule> slots;
    HeaderRule header;
    std::vector<bool> triangle_normals; // per Res7 record: its normal is the face normal (+-1)
};

} // namespace msh
