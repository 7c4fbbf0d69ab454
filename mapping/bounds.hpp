// Derived geometry values of msh.md §11 (slot AABB/sphere, tail area/volume, header hull, sphere,
// capsule, Res7 face normals) and the self-check rule: a derived field is recomputed after an edit
// only when the rule reproduces the stored value of the unedited original (1e-4 relative).
#pragma once

#include "formats/derived_rules.hpp"
#include "formats/msh.hpp"

#include <optional>
#include <string>
#include <vector>

namespace msh::mapping {

// Which stored derived values of `original` its own rules reproduce (1e-4 relative; face normals
// within 1): the values an edit recomputes.
// The Res7 face normal the rule gives each record, by the slot that draws it (tri_start on,
// batch by batch); none for a record no slot draws. Non-finite positions give (0, 0, 0).
using RuleFaceNormals = std::vector<std::optional<std::array<int16_t, 3>>>;
RuleFaceNormals rule_face_normals(const Model& model);
// `normals`: rule_face_normals(original), for a caller that has them already.
DerivedRules derived_rules(const Model& original, const RuleFaceNormals& normals);
DerivedRules derived_rules(const Model& original);
// Rules read from a binding sidecar, which records only the values that do not follow: marks
// the slots that draw and whether the model is posed (the structure of `original` tells, not its
// positions), and every other value as following.
void complete_rules(DerivedRules& rules, const Model& original);
// The JSON pointer (below a binding sidecar's /derived) of the first value where `recorded`
// (completed) and `computed` differ, or "" when they agree.
std::string first_rule_difference(const DerivedRules& recorded, const DerivedRules& computed);

// Recomputes, for the slots in `touched`, the derived values whose rule reproduces the
// original's stored values (`rules`); the others are kept and named as warnings in `diagnostics`.
void recompute_slot_bounds(const Model& original, const DerivedRules& rules, Model& edited,
                           const std::vector<bool>& touched, DiagnosticSink& diagnostics);
// The same after a re-layout: origin[i] is the original index of new slot i, kNewSlot for a slot
// the edit created (the rule applies unchecked) or kUntouched (kept as it is).
constexpr int kNewSlot = -1;
constexpr int kUntouched = -2;
void recompute_slot_bounds(const Model& original, const DerivedRules& rules, Model& edited,
                           const std::vector<int>& origin, DiagnosticSink& diagnostics);
// The same for the Res2 header (hull, sphere, capsule) with every node at its first key.
void recompute_header(const Model& original, const DerivedRules& rules, Model& edited,
                      DiagnosticSink& diagnostics);
// Res7 face normal of a triangle: round(normalize((b - a) x (c - a)) * 32767), 0 when degenerate;
// and of index triple `t` of a batch.
std::array<int16_t, 3> face_normal(const Vec3& a, const Vec3& b, const Vec3& c);
std::array<int16_t, 3> face_normal(const Model& m, size_t batch, size_t triangle_in_batch);

} // namespace msh::mapping
