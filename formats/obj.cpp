#include "obj.hpp"

#include "scene/polygon.hpp"
#include "scene/transform.hpp"

#include <charconv>
#include <cmath>
#include <map>
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
    if (scene.identity.pair) f.obj += "# mshconv pair " + *scene.identity.pair + "\n";
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
        if (m.identity.wear_row)
            f.mtl += "# wear_row " + std::to_string(*m.identity.wear_row) + "\n";
        f.mtl += "\n";
    }
    f.images = scene::image_files(scene, image_prefix);
    return f;
}

void append_closed_polylines(Files& files, const std::string& object,
                             const std::vector<std::array<float, 3>>& positions,
                             const std::vector<std::pair<size_t, size_t>>& runs) {
    size_t v_count = 0;
    for (size_t pos = 0; pos < files.obj.size();) {
        if (files.obj.compare(pos, 2, "v ") == 0) ++v_count;
        const size_t nl = files.obj.find('\n', pos);
        if (nl == std::string::npos) break;
        pos = nl + 1;
    }
    std::string& o = files.obj;
    o += "o " + name_token(object) + "\n";
    for (const auto& p : positions) put_line(o, "v", {p[0], p[1], p[2]});
    for (const auto& [begin, end] : runs) {
        o += 'l';
        for (size_t k = begin; k < end; ++k) o += ' ' + std::to_string(v_count + 1 + k);
        o += ' ' + std::to_string(v_count + 1 + begin) + '\n';
    }
}

void scan(std::string_view text, const std::string& where,
          const std::function<void(const Statement&)>& visit) {
    // OBJ is ASCII text (UTF-8 names): a BOM of UTF-16/32 or NUL bytes mean another encoding,
    // whose every other byte would be read as garbage.
    const std::string_view head = text.substr(0, 4096);
    if (head.substr(0, 2) == "\xFF\xFE" || head.substr(0, 2) == "\xFE\xFF" ||
        head.find('\0') != std::string_view::npos)
        throw FormatError(where, Location::whole(),
                          "not ASCII-compatible text (UTF-16 or UTF-32?): save the OBJ as UTF-8");
    if (head.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3); // UTF-8 BOM
    Statement st;
    std::string joined; // a logical line continued with '\' (the views point into it)
    size_t pos = 0;
    for (size_t no = 1; pos < text.size(); ++no) {
        size_t nl = text.find('\n', pos);
        if (nl == std::string_view::npos) nl = text.size();
        std::string_view line = text.substr(pos, nl - pos);
        pos = nl + 1;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        const size_t first = no;
        if (!line.empty() && line.back() == '\\') {
            joined.assign(line.substr(0, line.size() - 1));
            while (pos < text.size()) {
                nl = text.find('\n', pos);
                if (nl == std::string_view::npos) nl = text.size();
                std::string_view next = text.substr(pos, nl - pos);
                pos = nl + 1;
                ++no;
                if (!next.empty() && next.back() == '\r') next.remove_suffix(1);
                const bool more = !next.empty() && next.back() == '\\';
                joined += ' ';
                joined += next.substr(0, next.size() - (more ? 1 : 0));
                if (!more) break;
            }
            line = joined;
        }
        auto blank = [](char c) {
            return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
        };
        size_t i = 0;
        while (i < line.size() && blank(line[i])) ++i;
        size_t k = i;
        while (k < line.size() && !blank(line[k])) ++k;
        if (k == i) continue;
        st.line = first;
        st.keyword = line.substr(i, k - i);
        while (k < line.size() && blank(line[k])) ++k;
        st.rest = line.substr(k);
        st.args.clear();
        for (size_t a = k; a < line.size();) {
            size_t b = a;
            while (b < line.size() && !blank(line[b])) ++b;
            st.args.push_back(line.substr(a, b - a));
            while (b < line.size() && blank(line[b])) ++b;
            a = b;
        }
        visit(st);
    }
}

std::vector<std::string> material_libraries(std::string_view text, const std::string& where) {
    std::vector<std::string> names;
    scan(text, where, [&](const Statement& st) {
        if (st.keyword == "mtllib")
            for (std::string_view a : st.args) names.emplace_back(a);
    });
    return names;
}

void fail(const std::string& where, const Statement& statement, const std::string& what) {
    throw FormatError(where, Location::at_line(statement.line), what);
}

namespace {

template <class T>
T whole_number(std::string_view token, const std::string& where, const Statement& statement) {
    std::string_view t = token;
    if (t.size() > 1 && t[0] == '+' && t[1] != '-') t.remove_prefix(1);
    T f = 0;
    const auto r = std::from_chars(t.data(), t.data() + t.size(), f);
    if (r.ec != std::errc() || r.ptr != t.data() + t.size())
        fail(where, statement, "'" + std::string(token) + "' is not a number");
    if (!std::isfinite(f)) fail(where, statement, "'" + std::string(token) + "' is not finite");
    return f;
}

} // namespace

float number(std::string_view token, const std::string& where, const Statement& statement) {
    return whole_number<float>(token, where, statement);
}

double precise_number(std::string_view token, const std::string& where,
                      const Statement& statement) {
    return whole_number<double>(token, where, statement);
}

long reference(std::string_view ref, int part, size_t count, const std::string& where,
               const Statement& statement) {
    size_t pos = 0;
    for (int k = 0; k < part; ++k) {
        const size_t slash = ref.find('/', pos);
        if (slash == std::string_view::npos) return 0;
        pos = slash + 1;
    }
    const size_t end = std::min(ref.find('/', pos), ref.size());
    const std::string_view text = ref.substr(pos, end - pos);
    if (text.empty()) return 0;
    long x = 0;
    const auto r = std::from_chars(text.data(), text.data() + text.size(), x);
    if (r.ec != std::errc() || r.ptr != text.data() + text.size())
        fail(where, statement, "bad index '" + std::string(ref) + "'");
    if (x < 0) x = long(count) + 1 + x; // relative index
    if (x < 1 || x > long(count))
        fail(where, statement, "index " + std::string(text) + " is out of range");
    return x;
}

namespace {

struct Run {
    std::string group;
    int material = scene::kNoIndex;
    std::vector<std::array<long, 3>> corners; // (v, vt, vn), 0 = absent, in triangle order
};

} // namespace

std::string pairing_comment(std::string_view text) {
    constexpr std::string_view kPrefix = "# mshconv pair ";
    for (size_t pos = 0; pos < text.size() && text[pos] == '#';) {
        size_t nl = text.find('\n', pos);
        if (nl == std::string_view::npos) nl = text.size();
        std::string_view line = text.substr(pos, nl - pos);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line.substr(0, kPrefix.size()) == kPrefix)
            return std::string(line.substr(kPrefix.size()));
        pos = nl + 1;
    }
    return {};
}

scene::Scene read(const std::string& text, const std::string& where) {
    std::vector<float> v, vt, vn;
    scene::Scene s;
    if (std::string pair = pairing_comment(text); !pair.empty())
        s.identity.pair = std::move(pair); // sidecar/pairing.hpp
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
    scan(text, where, [&](const Statement& st) {
        const std::string_view tag = st.keyword;
        auto numbers = [&](std::vector<float>& out, size_t n) {
            if (st.args.size() < n)
                fail(where, st,
                     "expected " + std::to_string(n) + " numbers after '" + std::string(tag) + "'");
            for (size_t i = 0; i < n; ++i) out.push_back(number(st.args[i], where, st));
        };
        if (tag == "v") {
            numbers(v, 3);
        } else if (tag == "vt") {
            if (st.args.size() < 2) fail(where, st, "bad texture coordinate");
            numbers(vt, 2);
        } else if (tag == "vn") {
            numbers(vn, 3);
        } else if (tag == "o") {
            objects.push_back({std::string(st.rest), {}});
            group.clear();
        } else if (tag == "g") {
            group = std::string(st.rest);
        } else if (tag == "usemtl") {
            const std::string name(st.args.empty() ? std::string_view() : st.args[0]);
            auto it = materials.find(name);
            if (it == materials.end()) {
                it = materials.emplace(name, int(s.materials.size())).first;
                scene::Material sm;
                sm.name = name;
                s.materials.push_back(std::move(sm));
            }
            material = it->second;
        } else if (tag == "f") {
            std::vector<std::array<long, 3>> poly;
            for (std::string_view ref : st.args) {
                const std::array<long, 3> c{reference(ref, 0, v.size() / 3, where, st),
                                            reference(ref, 1, vt.size() / 2, where, st),
                                            reference(ref, 2, vn.size() / 3, where, st)};
                if (c[0] == 0) fail(where, st, "face corner without a vertex index");
                poly.push_back(c);
            }
            if (poly.size() < 3) fail(where, st, "face with fewer than 3 corners");
            Run& run = current();
            if (poly.size() == 3) {
                run.corners.insert(run.corners.end(), poly.begin(), poly.end());
                return;
            }
            std::vector<std::array<float, 3>> at(poly.size());
            for (size_t k = 0; k < poly.size(); ++k)
                for (size_t c = 0; c < 3; ++c) at[k][c] = v[size_t(poly[k][0] - 1) * 3 + c];
            for (const auto& t : scene::triangulate_polygon(at))
                run.corners.insert(run.corners.end(), {poly[t[0]], poly[t[1]], poly[t[2]]});
        }
    });
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
