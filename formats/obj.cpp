#include "obj.hpp"

#include "scene/transform.hpp"

#include <charconv>
#include <map>
#include <sstream>
#include <tuple>

#include "diagnostics.hpp"

namespace msh::obj {

namespace {

void put_float(std::string& out, float v) {
    char buf[32];
    auto r = std::to_chars(buf, buf + sizeof buf, v); // shortest round-trip form
    out.append(buf, r.ptr);
}

void put_uint(std::string& out, size_t v) {
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
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

} // namespace

std::string name_token(const std::string& s) {
    std::string t = s.empty() ? std::string("unnamed") : s;
    for (char& c : t)
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') c = '_';
    return t;
}

Files write(const scene::Scene& scene, const std::string& mtl_name,
            const std::string& image_prefix) {
    Files f;
    f.obj = "# mshconv: rest pose baked, axes (x, y, z) -> (x, z, -y), vt v flipped\n";
    f.obj += "mtllib " + mtl_name + "\n";
    const std::vector<scene::Rigid> world = scene::world_transforms(scene);
    size_t v_base = 1, vt_base = 1, vn_base = 1;
    size_t estimate = f.obj.size() + 256; // about the text's size: one reservation
    for (const scene::Node& node : scene.nodes)
        if (node.mesh != scene::kNoIndex)
            for (const scene::Primitive& p : scene.meshes.at(size_t(node.mesh)).primitives)
                estimate += 96 + 90 * (p.indices.size() / 3 + p.attributes.at("POSITION").count());
    f.obj.reserve(estimate);
    for (size_t i = 0; i < scene.nodes.size(); ++i) {
        const scene::Node& node = scene.nodes[i];
        if (node.mesh == scene::kNoIndex) continue;
        const scene::Mesh& mesh = scene.meshes[size_t(node.mesh)];
        f.obj += "o " + name_token(node.name) + "\n";
        for (const scene::Primitive& p : mesh.primitives) {
            const auto& pos = p.attributes.at("POSITION");
            const auto nrm = p.attributes.find("NORMAL");
            const auto uv = p.attributes.find("TEXCOORD_0");
            const auto id = p.attributes.find("TEXCOORD_1");
            const bool has_n = nrm != p.attributes.end(), has_uv = uv != p.attributes.end();
            for (size_t v = 0; v < pos.count(); ++v) {
                const auto w = scene::apply(
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
                        scene::apply_rotation(world[i], {d[3 * v], d[3 * v + 1], d[3 * v + 2]});
                    put_line(f.obj, "vn", {w[0], w[1], w[2]});
                }
            std::string batch = id != p.attributes.end() && !id->second.data.empty()
                                    ? std::to_string(long(id->second.data[1]))
                                    : "0";
            f.obj += "g " + name_token(node.name) + ".batch" + batch + "\n";
            const std::string material =
                p.material >= 0 ? name_token(scene.materials[size_t(p.material)].name) : "default";
            f.obj += "usemtl " + material + "\n";
            for (size_t t = 0; t + 2 < p.indices.size(); t += 3) {
                f.obj += 'f';
                for (int k = 0; k < 3; ++k) {
                    const uint32_t x = p.indices[t + size_t(k)];
                    f.obj += ' ';
                    put_uint(f.obj, v_base + x);
                    if (has_uv || has_n) f.obj += '/';
                    if (has_uv) put_uint(f.obj, vt_base + x);
                    if (has_n) {
                        f.obj += '/';
                        put_uint(f.obj, vn_base + x);
                    }
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
        f.mtl += "newmtl " + name_token(m.name) + "\nKd 0.8 0.8 0.8\nKs 0 0 0\nd 1\nillum 1\n";
        if (m.base_color && !m.base_color->png.empty())
            f.mtl +=
                "map_Kd " + image_prefix + scene::image_file_stem(m.base_color->name) + ".png\n";
        if (m.extras.contains("wear_row"))
            f.mtl += "# wear_row " + m.extras["wear_row"].dump() + "\n";
        f.mtl += "\n";
    }
    f.images = scene::image_files(scene, image_prefix);
    return f;
}

namespace {

struct Run {
    std::string group;
    int material = scene::kNoIndex;
    std::vector<std::array<long, 3>> corners; // (v, vt, vn), 0 = absent, in triangle order
};

} // namespace

scene::Scene read(const std::string& text, const std::string& where) {
    std::vector<float> v, vt, vn;
    scene::Scene s;
    std::map<std::string, int> materials;
    std::vector<std::pair<std::string, std::vector<Run>>> objects;
    std::string group;
    int material = scene::kNoIndex;
    auto current = [&]() -> Run& {
        if (objects.empty()) objects.push_back({"obj", {}});
        auto& runs = objects.back().second;
        if (runs.empty() || runs.back().group != group || runs.back().material != material)
            runs.push_back({group, material, {}});
        return runs.back();
    };
    std::istringstream in(text);
    std::string line;
    for (size_t no = 1; std::getline(in, line); ++no) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        std::istringstream ls(line);
        std::string tag;
        ls >> tag;
        auto fail = [&](const std::string& what) -> void {
            throw FormatError(where, no, "line " + std::to_string(no) + ": " + what);
        };
        auto numbers = [&](std::vector<float>& out, int n) {
            for (int i = 0; i < n; ++i) {
                std::string t;
                float f = 0;
                if (!(ls >> t)) {
                    if (i == 2 && n == 3 && &out == &vt) {
                        out.push_back(0);
                        continue;
                    }
                    fail("expected " + std::to_string(n) + " numbers after '" + tag + "'");
                }
                auto r = std::from_chars(t.data(), t.data() + t.size(), f);
                if (r.ec != std::errc() || r.ptr != t.data() + t.size())
                    fail("'" + t + "' is not a number");
                out.push_back(f);
            }
        };
        if (tag == "v")
            numbers(v, 3);
        else if (tag == "vt") {
            std::vector<float> uv;
            std::string t1, t2;
            ls >> t1 >> t2;
            float a = 0, b = 0;
            if (std::from_chars(t1.data(), t1.data() + t1.size(), a).ec != std::errc() ||
                std::from_chars(t2.data(), t2.data() + t2.size(), b).ec != std::errc())
                fail("bad texture coordinate");
            vt.push_back(a);
            vt.push_back(b);
        } else if (tag == "vn")
            numbers(vn, 3);
        else if (tag == "o") {
            std::string name;
            std::getline(ls >> std::ws, name);
            objects.push_back({name, {}});
            group.clear();
        } else if (tag == "g") {
            std::getline(ls >> std::ws, group);
        } else if (tag == "usemtl") {
            std::string name;
            ls >> name;
            auto it = materials.find(name);
            if (it == materials.end()) {
                it = materials.emplace(name, int(s.materials.size())).first;
                {
                    scene::Material sm;
                    sm.name = name;
                    s.materials.push_back(std::move(sm));
                }
            }
            material = it->second;
        } else if (tag == "f") {
            std::vector<std::array<long, 3>> poly;
            std::string ref;
            while (ls >> ref) {
                std::array<long, 3> c{0, 0, 0};
                size_t pos = 0;
                for (int k = 0; k < 3 && pos <= ref.size(); ++k) {
                    size_t end = ref.find('/', pos);
                    std::string part =
                        ref.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
                    if (!part.empty()) {
                        long x = 0;
                        if (std::from_chars(part.data(), part.data() + part.size(), x).ec !=
                            std::errc())
                            fail("bad face index '" + ref + "'");
                        const long count = long((k == 0   ? v.size() / 3
                                                 : k == 1 ? vt.size() / 2
                                                          : vn.size() / 3));
                        if (x < 0) x = count + 1 + x; // relative index
                        if (x < 1 || x > count) fail("face index " + part + " is out of range");
                        c[size_t(k)] = x;
                    }
                    if (end == std::string::npos) break;
                    pos = end + 1;
                }
                if (c[0] == 0) fail("face corner without a vertex index");
                poly.push_back(c);
            }
            if (poly.size() < 3) fail("face with fewer than 3 corners");
            Run& run = current();
            for (size_t k = 1; k + 1 < poly.size(); ++k)
                run.corners.insert(run.corners.end(), {poly[0], poly[k], poly[k + 1]});
        }
    }
    for (auto& [name, runs] : objects) {
        scene::Mesh mesh;
        mesh.name = name;
        for (const Run& run : runs) {
            if (run.corners.empty()) continue;
            std::vector<std::array<long, 3>> keys = run.corners;
            std::sort(keys.begin(), keys.end());
            keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
            scene::Primitive p;
            p.material = run.material;
            scene::Attribute pos{3, {}}, uv{2, {}}, nrm{3, {}};
            const bool has_uv = keys.front()[1] != 0, has_n = keys.front()[2] != 0;
            for (const auto& k : keys) {
                for (int c = 0; c < 3; ++c) pos.data.push_back(v[size_t(k[0] - 1) * 3 + size_t(c)]);
                if (has_uv) {
                    const size_t t = size_t(std::max(1L, k[1]) - 1);
                    uv.data.push_back(vt[2 * t]);
                    uv.data.push_back(1.0f - vt[2 * t + 1]);
                }
                if (has_n) {
                    const size_t t = size_t(std::max(1L, k[2]) - 1);
                    for (int c = 0; c < 3; ++c) nrm.data.push_back(vn[3 * t + size_t(c)]);
                }
            }
            for (const auto& c : run.corners)
                p.indices.push_back(
                    uint32_t(std::lower_bound(keys.begin(), keys.end(), c) - keys.begin()));
            p.attributes["POSITION"] = std::move(pos);
            if (has_uv) p.attributes["TEXCOORD_0"] = std::move(uv);
            if (has_n) p.attributes["NORMAL"] = std::move(nrm);
            mesh.extras["groups"].push_back(run.group);
            mesh.primitives.push_back(std::move(p));
        }
        if (mesh.primitives.empty()) continue;
        scene::Node node;
        node.name = name;
        node.mesh = int(s.meshes.size());
        s.meshes.push_back(std::move(mesh));
        s.nodes.push_back(std::move(node));
    }
    return s;
}

} // namespace msh::obj
