#include "gltf_identity.hpp"

#include <cstdint>
#include <limits>

namespace msh::gltf {

namespace {

using nlohmann::json;

template <class T> void put(json& o, const char* key, const std::optional<T>& field) {
    if (field) o[key] = *field;
}

void put(json& o, const char* key, const std::optional<scene::SlotNumber>& field) {
    if (field) o[key] = field->unreadable ? *field->unreadable : json(field->value);
}

// `extras` with `add`'s keys written into (a copy of) it; `extras` itself when `add` writes none.
template <class Add> json merged(const json& extras, Add add) {
    json keys = json::object();
    add(keys);
    if (keys.empty()) return extras;
    json out = extras.is_null() ? json::object() : extras;
    for (auto& [key, value] : keys.items()) out[key] = std::move(value);
    return out;
}

// The reading side: each key moved into its field when its type is one the imports accept.
struct Taker {
    json& extras;
    bool took = false;

    json::iterator find(const char* key) {
        return extras.is_object() ? extras.find(key) : extras.end();
    }
    void erase(json::iterator it) {
        extras.erase(it);
        took = true;
    }

    // A whole number that fits T.
    template <class T> void whole(const char* key, std::optional<T>& field) {
        const auto it = find(key);
        if (it == extras.end() || !it->is_number_integer()) return;
        using L = std::numeric_limits<T>;
        const bool fits = it->is_number_unsigned()
                              ? it->template get<uint64_t>() <= uint64_t(L::max())
                              : it->template get<int64_t>() >= int64_t(L::min()) &&
                                    (it->template get<int64_t>() < 0 ||
                                     uint64_t(it->template get<int64_t>()) <= uint64_t(L::max()));
        if (!fits) return;
        field = it->template get<T>();
        erase(it);
    }
    void boolean(const char* key, std::optional<bool>& field) {
        const auto it = find(key);
        if (it == extras.end() || !it->is_boolean()) return;
        field = it->get<bool>();
        erase(it);
    }
    void text(const char* key, std::optional<std::string>& field) {
        const auto it = find(key);
        if (it == extras.end() || !it->is_string()) return;
        field = it->get<std::string>();
        erase(it);
    }
    // Any value: numbers and booleans as a JSON conversion reads them, others kept to refuse.
    void slot_number(const char* key, std::optional<scene::SlotNumber>& field) {
        const auto it = find(key);
        if (it == extras.end()) return;
        scene::SlotNumber n;
        if (it->is_number() || it->is_boolean())
            n.value = it->get<int>();
        else
            n.unreadable = *it;
        field = std::move(n);
        erase(it);
    }
    ~Taker() {
        if (took && extras.empty()) extras = nullptr;
    }
};

} // namespace

json extras_with(const json& extras, const scene::NodeIdentity& id) {
    return merged(extras, [&](json& o) {
        put(o, "index", id.index);
        put(o, "flags", id.flags);
        put(o, "parent", id.parent);
        put(o, "map_start", id.map_start);
        put(o, "fallback_key", id.fallback_key);
        put(o, "lod", id.lod);
        put(o, "group", id.group);
        put(o, "slot", id.slot);
        put(o, "legacy_nodes", id.legacy_nodes);
        put(o, "node_count", id.node_count);
    });
}

json extras_with(const json& extras, const scene::MeshIdentity& id) {
    return merged(extras, [&](json& o) {
        put(o, "node", id.node);
        put(o, "lod", id.lod);
        put(o, "group", id.group);
        put(o, "slot", id.slot);
        put(o, "skinned", id.skinned);
        put(o, "legacy_nodes", id.legacy_nodes);
    });
}

json extras_with(const json& extras, const scene::MaterialIdentity& id) {
    return merged(extras, [&](json& o) {
        put(o, "wear_row", id.wear_row);
        put(o, "lightmap_row", id.lightmap_row);
        put(o, "wear", id.wear);
        put(o, "wear2_row", id.wear2_row);
        put(o, "class_id", id.class_id);
        put(o, "logic_flag", id.logic_flag);
    });
}

json extras_with(const json& extras, const scene::SceneIdentity& id) {
    if (!id.pair) return extras;
    json out = extras.is_null() ? json::object() : extras;
    out["mshconv"]["pair"] = *id.pair;
    return out;
}

scene::NodeIdentity take_node_identity(json& extras) {
    scene::NodeIdentity id;
    Taker t{extras};
    t.whole("index", id.index);
    t.whole("flags", id.flags);
    t.whole("parent", id.parent);
    t.whole("map_start", id.map_start);
    t.whole("fallback_key", id.fallback_key);
    t.slot_number("lod", id.lod);
    t.slot_number("group", id.group);
    t.whole("slot", id.slot);
    t.boolean("legacy_nodes", id.legacy_nodes);
    t.whole("node_count", id.node_count);
    return id;
}

scene::MeshIdentity take_mesh_identity(json& extras) {
    scene::MeshIdentity id;
    Taker t{extras};
    t.whole("node", id.node);
    t.slot_number("lod", id.lod);
    t.slot_number("group", id.group);
    t.whole("slot", id.slot);
    t.boolean("skinned", id.skinned);
    t.boolean("legacy_nodes", id.legacy_nodes);
    return id;
}

scene::MaterialIdentity take_material_identity(json& extras) {
    scene::MaterialIdentity id;
    Taker t{extras};
    t.whole("wear_row", id.wear_row);
    t.whole("lightmap_row", id.lightmap_row);
    t.text("wear", id.wear);
    t.whole("wear2_row", id.wear2_row);
    t.whole("class_id", id.class_id);
    t.whole("logic_flag", id.logic_flag);
    return id;
}

scene::SceneIdentity take_scene_identity(json& extras) {
    scene::SceneIdentity id;
    if (!extras.is_object()) return id;
    const auto ours = extras.find("mshconv");
    if (ours == extras.end()) return id;
    bool took = false;
    {
        Taker t{*ours};
        t.text("pair", id.pair);
        took = t.took;
    } // `mshconv` null when the token was all it held
    if (!took) return id;
    if (ours->is_null()) extras.erase(ours);
    if (extras.empty()) extras = nullptr;
    return id;
}

} // namespace msh::gltf
