#include "obj.hpp"

#include "mapping/transform.hpp"

#include <charconv>

namespace msh::obj {

namespace {

void put_float(std::string& out, float v) {
    char buf[32];
    auto r = std::to_chars(buf, buf + sizeof buf, v); // shortest round-trip form
    out.append(buf, r.ptr);
}

void put_line(std::string& out, const char* tag, std::initializer_list<float> values) {
    out += tag;
    for (float v : values) {
        out += ' ';
        put_float(out, v);
    }
    out += '\n';
}

// OBJ names are single tokens: whitespace becomes '_'.
std::string token(const std::string& s) {
    std::string t = s.empty() ? std::string("unnamed") : s;
    for (char& c : t)
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') c = '_';
    return t;
}

} // namespace

Files write(const scene::Scene& scene, const std::string& mtl_name) {
    Files f;
    f.obj = "# mshconv: rest pose baked, axes (x, y, z) -> (x, z, -y), vt v flipped\n";
    f.obj += "mtllib " + mtl_name + "\n";
    const std::vector<mapping::Rigid> world = mapping::world_transforms(scene);
    size_t v_base = 1, vt_base = 1, vn_base = 1;
    for (size_t i = 0; i < scene.nodes.size(); ++i) {
        const scene::Node& node = scene.nodes[i];
        if (node.mesh == scene::kNoIndex) continue;
        const scene::Mesh& mesh = scene.meshes[size_t(node.mesh)];
        f.obj += "o " + token(node.name) + "\n";
        for (const scene::Primitive& p : mesh.primitives) {
            const auto& pos = p.attributes.at("POSITION");
            const auto nrm = p.attributes.find("NORMAL");
            const auto uv = p.attributes.find("TEXCOORD_0");
            const auto id = p.attributes.find("TEXCOORD_1");
            const bool has_n = nrm != p.attributes.end(), has_uv = uv != p.attributes.end();
            for (size_t v = 0; v < pos.count(); ++v) {
                const auto w = mapping::apply(
                    world[i], {pos.data[3 * v], pos.data[3 * v + 1], pos.data[3 * v + 2]});
                put_line(f.obj, "v", {w[0], w[1], w[2]});
            }
            if (has_uv)
                for (size_t v = 0; v < pos.count(); ++v)
                    put_line(f.obj, "vt",
                             {uv->second.data[2 * v], 1.0f - uv->second.data[2 * v + 1]});
            if (has_n)
                for (size_t v = 0; v < pos.count(); ++v) {
                    const auto& d = nrm->second.data;
                    const auto w =
                        mapping::apply_rotation(world[i], {d[3 * v], d[3 * v + 1], d[3 * v + 2]});
                    put_line(f.obj, "vn", {w[0], w[1], w[2]});
                }
            std::string batch = id != p.attributes.end() && !id->second.data.empty()
                                    ? std::to_string(long(id->second.data[1]))
                                    : "0";
            f.obj += "g " + token(node.name) + ".batch" + batch + "\n";
            const std::string material =
                p.material >= 0 ? token(scene.materials[size_t(p.material)].name) : "default";
            f.obj += "usemtl " + material + "\n";
            for (size_t t = 0; t + 2 < p.indices.size(); t += 3) {
                f.obj += 'f';
                for (int k = 0; k < 3; ++k) {
                    const uint32_t x = p.indices[t + size_t(k)];
                    f.obj += ' ' + std::to_string(v_base + x);
                    if (has_uv || has_n) f.obj += '/';
                    if (has_uv) f.obj += std::to_string(vt_base + x);
                    if (has_n) f.obj += '/' + std::to_string(vn_base + x);
                }
                f.obj += '\n';
            }
            v_base += pos.count();
            if (has_uv) vt_base += pos.count();
            if (has_n) vn_base += pos.count();
        }
    }
    f.mtl = "# mshconv materials (WEAR rows)\n";
    for (const scene::Material& m : scene.materials) {
        f.mtl += "newmtl " + token(m.name) + "\nKd 0.8 0.8 0.8\nKs 0 0 0\nd 1\nillum 1\n";
        if (m.extras.contains("wear_row"))
            f.mtl += "# wear_row " + m.extras["wear_row"].dump() + "\n";
        f.mtl += "\n";
    }
    return f;
}

} // namespace msh::obj
