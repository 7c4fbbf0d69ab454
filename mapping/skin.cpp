#include "skin.hpp"

#include "scene/transform.hpp"

#include <map>

namespace msh::mapping {

using scene::apply;
using scene::apply_rotation;
using scene::inverse;
using scene::Rigid;
using scene::to_matrix;
using scene::world_transforms;

scene::Scene skin_scene(scene::Scene in, size_t joint_count) {
    const std::vector<Rigid> world = world_transforms(in);
    scene::Scene out;
    out.materials = std::move(in.materials);
    out.animations = std::move(in.animations);
    out.identity = std::move(in.identity);
    out.extras = std::move(in.extras);
    out.extras["mshconv"]["skin"] = true;

    scene::Skin skin;
    skin.name = "nodes";
    for (size_t j = 0; j < joint_count; ++j) {
        skin.joints.push_back(int(j));
        const auto m = to_matrix(inverse(world[j]));
        skin.inverse_bind.insert(skin.inverse_bind.end(), m.begin(), m.end());
    }
    out.skins.push_back(std::move(skin));

    // (lod, group) -> skinned mesh under construction
    std::map<std::pair<int, int>, scene::Mesh> meshes;
    for (size_t i = 0; i < in.nodes.size(); ++i) {
        const scene::Node& node = in.nodes[i];
        if (node.mesh == scene::kNoIndex) continue;
        const size_t joint = i < joint_count ? i : size_t(node.parent);
        const scene::Mesh& src = in.meshes[size_t(node.mesh)];
        const int lod = src.identity.lod ? src.identity.lod->get() : 0,
                  group = src.identity.group ? src.identity.group->get() : 0;
        scene::Mesh& dst = meshes[{lod, group}];
        for (scene::Primitive p : src.primitives) {
            auto& pos = p.attributes["POSITION"];
            for (size_t v = 0; v + 2 < pos.data.size(); v += 3) {
                const auto w = apply(world[i], {pos.data[v], pos.data[v + 1], pos.data[v + 2]});
                std::copy(w.begin(), w.end(), pos.data.begin() + long(v));
            }
            if (auto n = p.attributes.find("NORMAL"); n != p.attributes.end())
                for (size_t v = 0; v + 2 < n->second.data.size(); v += 3) {
                    const auto w =
                        apply_rotation(world[i], {n->second.data[v], n->second.data[v + 1],
                                                  n->second.data[v + 2]});
                    std::copy(w.begin(), w.end(), n->second.data.begin() + long(v));
                }
            const size_t count = pos.count();
            scene::Attribute joints{4, {}, true}, weights{4, {}};
            joints.data.reserve(count * 4);
            weights.data.reserve(count * 4);
            for (size_t v = 0; v < count; ++v) {
                joints.data.insert(joints.data.end(), {float(joint), 0, 0, 0});
                weights.data.insert(weights.data.end(), {1, 0, 0, 0});
            }
            p.attributes["JOINTS_0"] = std::move(joints);
            p.attributes["WEIGHTS_0"] = std::move(weights);
            dst.primitives.push_back(std::move(p));
        }
    }

    // Joint nodes keep their TRS, parents and animation; slot children are folded away.
    out.nodes.assign(in.nodes.begin(), in.nodes.begin() + long(joint_count));
    for (scene::Node& n : out.nodes) n.mesh = scene::kNoIndex;
    for (auto& [key, mesh] : meshes) {
        const auto [lod, group] = key;
        std::string suffix;
        if (lod) suffix += "lod" + std::to_string(lod);
        if (group) suffix += "g" + std::to_string(group);
        mesh.name = suffix.empty() ? "skin" : "skin@" + suffix;
        mesh.identity.lod = lod;
        mesh.identity.group = group;
        mesh.identity.skinned = true;
        scene::Node holder;
        holder.name = mesh.name;
        holder.mesh = int(out.meshes.size());
        holder.skin = 0;
        out.meshes.push_back(std::move(mesh));
        out.nodes.push_back(std::move(holder));
    }
    return out;
}

} // namespace msh::mapping
