#include "readings.hpp"

#include <stdexcept>

namespace msh {

namespace {

// The variant index of each reading in `r`, in reading_infos() order.
std::vector<size_t> indices(const Readings& r) {
    return {size_t(r.key_quaternion), size_t(r.face_material), size_t(r.batch_material),
            size_t(r.texm_rgb), size_t(r.slots)};
}

void assign(Readings& r, size_t reading, size_t variant) {
    switch (reading) {
    case 0:
        r.key_quaternion = KeyQuaternion(variant);
        break;
    case 1:
        r.face_material = FaceMaterial(variant);
        break;
    case 2:
        r.batch_material = BatchMaterial(variant);
        break;
    case 3:
        r.texm_rgb = ChannelOrder(variant);
        break;
    case 4:
        r.slots = SlotNames(variant);
        break;
    default:
        break;
    }
}

std::string joined(const std::vector<const char*>& v) {
    std::string s;
    for (const char* x : v) s += (s.empty() ? "" : ", ") + std::string(x);
    return s;
}

void set(Readings& r, std::string_view name, std::string_view variant) {
    const auto& infos = reading_infos();
    for (size_t i = 0; i < infos.size(); ++i) {
        if (name != infos[i].name) continue;
        for (size_t v = 0; v < infos[i].variants.size(); ++v)
            if (variant == infos[i].variants[v]) return assign(r, i, v);
        throw std::invalid_argument("reading " + std::string(name) + " has no variant '" +
                                    std::string(variant) + "' (" + joined(infos[i].variants) + ")");
    }
    std::vector<const char*> names;
    for (const ReadingInfo& info : infos) names.push_back(info.name);
    throw std::invalid_argument("unknown reading '" + std::string(name) + "' (" + joined(names) +
                                ")");
}

} // namespace

const std::vector<ReadingInfo>& reading_infos() {
    static const std::vector<ReadingInfo> infos = {
        {"key-quaternion", {"xyzw", "wxyz"}, "Res8 key rotation order at +16..+22"},
        {"face-material",
         {"land1-land2", "land2-land1"},
         "Land.msh face bytes +4/+5 -> Land1.wea/Land2.wea rows"},
        {"batch-material", {"row", "wear-id"}, "Res13 batch material: +2 row or +4 WEAR id"},
        {"texm-rgb", {"bgr", "rgb"}, "byte order of 888 pixels and palette entries"},
        {"slots",
         {"lod-group", "state-lod"},
         "the 15 slots: 3 LODs x 5 groups or 3 states x 5 LODs"},
    };
    return infos;
}

const std::vector<ReadingInfo>& level_reading_infos() {
    static const std::vector<ReadingInfo> infos = {
        {"assembly", {"sockets", "root"}, "a unit's parts at their sockets or all at its origin"},
        {"rest-pose",
         {"first-frame", "fallback-key"},
         "a level's animated parts: first or last key"},
        {"parts", {"drawn", "all"}, "a level's part classes shown: chassis, turrets, guns, or all"},
    };
    return infos;
}

void set_reading(Readings& r, std::string_view assignment) {
    const size_t eq = assignment.find('=');
    if (eq == std::string_view::npos)
        throw std::invalid_argument("--reading takes NAME=VARIANT, got '" +
                                    std::string(assignment) + "'");
    set(r, assignment.substr(0, eq), assignment.substr(eq + 1));
}

std::map<std::string, std::string> reading_map(const Readings& r) {
    std::map<std::string, std::string> m;
    const auto& infos = reading_infos();
    const std::vector<size_t> at = indices(r);
    for (size_t i = 0; i < infos.size(); ++i) m[infos[i].name] = infos[i].variants[at[i]];
    return m;
}

Readings readings_from_map(const std::map<std::string, std::string>& m) {
    Readings r;
    for (const auto& [name, variant] : m) set(r, name, variant);
    return r;
}

std::string describe(const Readings& r) {
    std::string s;
    for (const auto& [name, variant] : reading_map(r))
        s += (s.empty() ? "" : ", ") + name + "=" + variant;
    return s;
}

} // namespace msh
