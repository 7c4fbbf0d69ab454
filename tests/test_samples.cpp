// The synthetic corpus generator (samples/): deterministic, complete (every required archive and
// every kind of model the spec describes), and every nested model reads back strictly with no
// diagnostic at all.
#include "corpus.hpp"

#include "formats/anim.hpp"
#include "formats/msh.hpp"
#include "formats/nres.hpp"
#include "formats/terrain.hpp"
#include "formats/wear.hpp"
#include "samples/generator.hpp"
#include "samples/shapes.hpp"
#include "samples/textures_gen.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <map>
#include <set>

// The file's own names: the test program compiles in unity batches (CMakeLists.txt).
namespace samples_tests {

using namespace msh;

namespace {

struct ModelInfo {
    std::string archive;
    std::string name;
    std::vector<uint32_t> order; // entry types in physical order
    Model model;
    std::string wear;
    std::array<uint32_t, 3> wear_attrs{};
};

// Every nested model of the default corpus, read strictly (read errors throw).
const std::vector<ModelInfo>& models() {
    static const std::vector<ModelInfo> all = [] {
        std::vector<ModelInfo> out;
        for (const samples::GeneratedFile& f : test::corpus()) {
            if (!f.relative_path.ends_with(".rlb")) continue; // model archives only
            nres::Archive ar = nres::read(f.bytes, ReadMode::Strict, f.relative_path);
            for (const nres::Entry& e : ar.entries) {
                if (e.type != nres::fourcc("MESH")) continue;
                ModelInfo mi;
                mi.archive = f.relative_path;
                mi.name = e.name();
                nres::Archive inner = nres::read(e.data, ReadMode::Strict, mi.name);
                std::vector<std::pair<uint32_t, uint32_t>> by_offset;
                for (const nres::Entry& ie : inner.entries)
                    by_offset.push_back({ie.data_offset, ie.type});
                std::stable_sort(by_offset.begin(), by_offset.end(),
                                 [](auto a, auto b) { return a.first < b.first; });
                for (auto [off, type] : by_offset) mi.order.push_back(type);
                mi.model = read_model(e.data, ReadMode::Strict, f.relative_path + ":" + mi.name);
                std::string stem = mi.name.substr(0, mi.name.rfind('.'));
                if (auto w = ar.find(stem + ".wea")) {
                    const nres::Entry& we = ar.entries[*w];
                    mi.wear.assign(we.data.begin(), we.data.end());
                    mi.wear_attrs = {we.attr1, we.attr2, we.attr3};
                }
                out.push_back(std::move(mi));
            }
        }
        return out;
    }();
    return all;
}

const nres::Archive& lightmap_library() {
    static const nres::Archive lib = [] {
        for (const samples::GeneratedFile& f : test::corpus())
            if (f.relative_path == samples::kLightMapLib)
                return nres::read(f.bytes, ReadMode::Strict, f.relative_path);
        throw std::runtime_error("the corpus has no LightMap.lib");
    }();
    return lib;
}

size_t key_count_of_node(const Model& m, size_t node) {
    size_t start = node == 0 ? 0 : size_t(m.nodes[node - 1].fallback_key) + 1;
    return size_t(m.nodes[node].fallback_key) + 1 - start;
}

} // namespace

BOOST_AUTO_TEST_SUITE(samples)

BOOST_AUTO_TEST_CASE(deterministic_per_seed) {
    msh::samples::Options a;
    auto first = msh::samples::generate_corpus(a);
    auto again = msh::samples::generate_corpus(a);
    BOOST_REQUIRE_EQUAL(first.size(), again.size());
    for (size_t i = 0; i < first.size(); ++i) {
        BOOST_TEST(first[i].relative_path == again[i].relative_path);
        BOOST_TEST((first[i].bytes == again[i].bytes),
                   first[i].relative_path << " differs between runs");
    }
    msh::samples::Options b;
    b.seed = a.seed + 1;
    auto other = msh::samples::generate_corpus(b);
    BOOST_REQUIRE_EQUAL(first.size(), other.size());
    // Every file with seeded content changes; palettes.lib and the maps' WEAR tables are fixed
    // lists (seed-independent).
    for (size_t i = 0; i < first.size(); ++i)
        if (first[i].relative_path != "palettes.lib" && !first[i].relative_path.ends_with(".wea"))
            BOOST_TEST((first[i].bytes != other[i].bytes),
                       first[i].relative_path << " ignores the seed");
}

BOOST_AUTO_TEST_CASE(required_archives_and_siblings) {
    std::set<std::string> names;
    for (const auto& f : test::corpus()) names.insert(f.relative_path);
    for (const char* required :
         {"static.rlb", "animals.rlb", "fortif.rlb", "system.rlb", "turrets.rlb", "weapon.rlb"})
        BOOST_TEST(names.count(required) == 1u, required << " is missing");
    BOOST_TEST(models().size() >= 60u);
    for (const ModelInfo& mi : models()) {
        BOOST_TEST(!mi.wear.empty(), mi.archive << ":" << mi.name << " has no sibling WEAR");
        // "<count>\r\n" and one "<legacyId> <NAME>\r\n" row per material the batches use.
        size_t rows = size_t(std::stoul(mi.wear));
        uint16_t max_material = 0;
        for (const Batch& b : mi.model.batches) max_material = std::max(max_material, b.material);
        BOOST_TEST(rows == size_t(max_material) + 1, mi.name);
        // Shipped style (texm-materials.md §11): every line ends in CRLF (no bare LF, no stray
        // CR), one empty line before LIGHTMAPS, and LIGHTMAPS (one lightmap) exactly on the
        // models that carry Res18 and Res20.
        size_t lf = 0, crlf = 0, cr = 0;
        for (size_t i = 0; i < mi.wear.size(); ++i) {
            lf += mi.wear[i] == '\n';
            cr += mi.wear[i] == '\r';
            crlf += mi.wear.compare(i, 2, "\r\n") == 0;
        }
        BOOST_TEST(crlf > 0u, mi.name);
        BOOST_TEST(lf == crlf, mi.name);
        BOOST_TEST(cr == crlf, mi.name);
        BOOST_TEST(mi.wear.ends_with("\r\n"), mi.name);
        const wear::Wear w =
            wear::read(Bytes(mi.wear.begin(), mi.wear.end()), mi.archive + ":" + mi.name);
        BOOST_TEST(w.materials.size() == rows, mi.name);
        BOOST_TEST(w.layout.tail.empty(), mi.name);
        const bool res18 = mi.model.entry(kVertexStream18) != nullptr;
        const bool res20 = mi.model.entry(kTable20) != nullptr;
        BOOST_TEST(res18 == res20, mi.name);
        BOOST_TEST(!w.lightmaps.empty() == res18, mi.name);
        if (res18) {
            BOOST_TEST(w.lightmaps.size() == 1u, mi.name);
            BOOST_TEST(mi.wear.find("\r\n\r\nLIGHTMAPS\r\n") != std::string::npos, mi.name);
            BOOST_TEST(w.layout.blank.text.empty(), mi.name);
            // The lightmap the row names exists in the corpus' LightMap.lib.
            BOOST_TEST(lightmap_library().find(w.lightmaps[0].name).has_value(),
                       mi.name << ": " << w.lightmaps[0].name);
        }
        // WEAR entry attributes (0, 0, 1).
        BOOST_TEST(mi.wear_attrs == (std::array<uint32_t, 3>{0, 0, 1}), mi.name);
    }
}

BOOST_AUTO_TEST_CASE(sort_index_uses_lower_case_folding) {
    // static.rlb holds A_B.msh and aab.msh: '_' (0x5F) sorts before 'a' but after 'A'.
    for (const auto& f : test::corpus()) {
        if (f.relative_path != "static.rlb") continue;
        nres::Archive ar = nres::read(f.bytes, ReadMode::Strict, f.relative_path);
        auto ab = ar.find("A_B.msh"), aab = ar.find("aab.msh");
        BOOST_REQUIRE(ab && aab);
        size_t pos_ab = 0, pos_aab = 0;
        for (size_t i = 0; i < ar.entries.size(); ++i) {
            if (ar.entries[i].sort_index == *ab) pos_ab = i;
            if (ar.entries[i].sort_index == *aab) pos_aab = i;
        }
        BOOST_TEST(pos_ab < pos_aab);
    }
}

// What shipped files hold (docs/formats/README.md, real-install evidence): WEAR rows with tokens
// after the name, LIGHTMAPS sections with count 0, archives whose order only the lower fold
// follows, maps whose type-11 and type-21 counts differ, and 48-byte Res20 records whose node
// indices are in range.
BOOST_AUTO_TEST_CASE(the_corpus_holds_what_real_installs_hold) {
    size_t extra_rows = 0, zero_lightmaps = 0, res20_models = 0;
    for (const ModelInfo& mi : models()) {
        const wear::Wear w =
            wear::read(Bytes(mi.wear.begin(), mi.wear.end()), mi.archive + ":" + mi.name);
        for (const wear::Row& r : w.materials) extra_rows += !r.extra.empty();
        zero_lightmaps += w.layout.lightmaps_section && w.lightmaps.empty();
        if (const nres::Entry* e = mi.model.entry(kTable20)) {
            ++res20_models;
            BOOST_TEST(e->data.size() % kRes20Stride == 0u, mi.name);
            DiagnosticSink sink(ReadMode::Strict);
            validate_res20(mi.model, sink, mi.name);
            BOOST_TEST(sink.diagnostics().empty(), mi.name);
        }
    }
    BOOST_TEST(extra_rows > 0u);
    BOOST_TEST(zero_lightmaps > 0u);
    BOOST_TEST(res20_models > 0u);
    size_t lower_only = 0, maps = 0, differing = 0;
    for (const auto& f : test::corpus()) {
        if (f.relative_path.ends_with("Land.msh")) {
            const terrain::Terrain t = terrain::read(f.bytes, ReadMode::Strict, f.relative_path);
            ++maps;
            differing += t.cell_pairs.size() != t.faces.size();
        } else if (nres::looks_like_nres(f.bytes)) {
            const nres::Archive ar = nres::read(f.bytes, ReadMode::Strict, f.relative_path);
            lower_only += ar.fold_evidence == nres::FoldEvidence::Lower;
        }
    }
    BOOST_TEST(lower_only > 0u);
    BOOST_TEST(differing > 0u);
    BOOST_TEST(differing < maps);
}

BOOST_AUTO_TEST_CASE(every_model_reads_strictly_without_warnings) {
    for (const auto& f : test::corpus()) {
        if (!f.relative_path.ends_with(".rlb")) continue; // model archives only
        nres::Archive ar = nres::read(f.bytes, ReadMode::Strict, f.relative_path);
        for (const nres::Entry& e : ar.entries) {
            if (e.type != nres::fourcc("MESH")) continue;
            std::string where = f.relative_path + ":" + e.name();
            DiagnosticSink sink(ReadMode::Strict);
            BOOST_CHECK_NO_THROW(read_model(e.data, sink, where));
            BOOST_TEST(sink.warning_count() == 0u, where);
            for (const Diagnostic& d : sink.diagnostics()) BOOST_TEST_MESSAGE(d.to_string());
        }
    }
}

BOOST_AUTO_TEST_CASE(required_kinds_present) {
    const std::vector<uint32_t> common = {1, 2, 3, 4, 5, 15, 13, 6, 7, 8, 19, 9, 10, 17};
    const std::vector<uint32_t> lit = {1, 2, 3, 4, 5, 18, 15, 13, 6, 7, 8, 19, 9, 10, 17, 20};
    size_t legacy = 0, order16 = 0, order14 = 0, res17 = 0, animated = 0, largest = 0, statics = 0;
    std::set<int> groups;
    bool neg128 = false, nw = false, no_map_in_animated = false, socket = false;
    for (const ModelInfo& mi : models()) {
        const Model& m = mi.model;
        BOOST_TEST((mi.order == common || mi.order == lit), mi.name << ": unexpected entry order");
        order14 += mi.order == common;
        order16 += mi.order == lit;
        if (m.legacy_nodes) {
            ++legacy;
            BOOST_TEST(mi.archive == "system.rlb");
            BOOST_TEST(mi.name == "MTCHECK.MSH");
            BOOST_TEST(m.entry(kNodes)->attr3 == 24u);
            BOOST_TEST(m.entry(kNodes)->data.size() == 24 * m.node_count());
        }
        const nres::Entry* pg = m.entry(kPathGraph);
        BOOST_REQUIRE(pg);
        if (!pg->data.empty()) {
            ++res17;
            // Buildings: the fortifications, and the levels' hangar that houses units.
            BOOST_TEST((mi.archive == "fortif.rlb" || mi.archive == "parts.rlb"), mi.name);
            BOOST_TEST(pg->data.size() == 20u * pg->attr1 + 40u * pg->attr2);
        }
        for (const PackedNormal& n : m.normals) {
            neg128 |= n[0] == -128 || n[1] == -128 || n[2] == -128;
            nw |= n[3] != 0;
        }
        if (!m.legacy_nodes) {
            for (const Node& n : m.nodes)
                for (int w = 0; w < kSlotWords; ++w)
                    if (n.slots[size_t(w)] != kNone) groups.insert(w % kGroups);
            bool any_mapped = false;
            for (size_t i = 0; i < m.nodes.size(); ++i) {
                any_mapped |= m.nodes[i].map_start != kNone;
                socket |= std::all_of(m.nodes[i].slots.begin(), m.nodes[i].slots.end(),
                                      [](uint16_t s) { return s == kNone; });
            }
            if (m.animation.frame_count > 1 && m.nodes.size() >= 2 && any_mapped) {
                ++animated;
                for (size_t i = 0; i < m.nodes.size(); ++i)
                    if (m.nodes[i].map_start == kNone) {
                        no_map_in_animated = true;
                        BOOST_TEST(key_count_of_node(m, i) == 1u);
                    }
                BOOST_TEST(m.animation.frame_count <= 130u);
            }
            if (m.animation.frame_count == 1) {
                ++statics;
                BOOST_TEST(m.entry(kFrameMap)->data.empty());
                BOOST_TEST(m.entry(kFrameMap)->attr2 == 1u);
            }
            if (m.nodes.size() == 38 && m.slots.size() == 112 && m.batches.size() == 439) {
                ++largest;
                BOOST_TEST(m.vertex_count() >= 9600u);
                BOOST_TEST(m.vertex_count() <= 9800u);
                BOOST_TEST(m.animation.frame_count > 1u);
            }
        }
    }
    BOOST_TEST(legacy == 1u);
    BOOST_TEST(order16 >= 3u);
    BOOST_TEST(order14 >= 50u);
    BOOST_TEST(res17 >= 5u);
    BOOST_TEST(animated >= 10u);
    BOOST_TEST(statics >= 10u);
    BOOST_TEST(largest == 1u);
    BOOST_TEST(groups == (std::set<int>{0, 1, 2, 3, 4}));
    BOOST_TEST(neg128);
    BOOST_TEST(nw);
    BOOST_TEST(no_map_in_animated);
    BOOST_TEST(socket);
}

BOOST_AUTO_TEST_CASE(derived_fields_follow_the_writer_rules) {
    for (const ModelInfo& mi : models()) {
        const Model& m = mi.model;
        // canonical layout: a slot's batches are contiguous, triStart = indexStart / 3
        for (const Slot& s : m.slots) {
            BOOST_REQUIRE(s.batch_count > 0);
            const Batch& first = m.batches[s.batch_start];
            BOOST_TEST(s.tri_start == first.index_start / 3);
            size_t tris = 0;
            for (size_t b = s.batch_start; b < size_t(s.batch_start) + s.batch_count; ++b)
                tris += m.batches[b].index_count / 3;
            BOOST_TEST(s.tri_count == tris);
        }
        // opaque14 = max(slice) + 1; Res7 links are mutual
        for (const Batch& b : m.batches) {
            uint16_t mx = *std::max_element(m.indices.begin() + b.index_start,
                                            m.indices.begin() + b.index_start + b.index_count);
            BOOST_TEST(b.opaque14 == mx + 1);
        }
        size_t open_edges = 0;
        for (size_t t = 0; t < m.triangles.size(); ++t)
            for (int k = 0; k < 3; ++k) {
                uint16_t l = m.triangles[t].link[size_t(k)];
                if (l == kNone) {
                    ++open_edges;
                    continue;
                }
                const auto& other = m.triangles[l].link;
                BOOST_TEST((std::find(other.begin(), other.end(), uint16_t(t)) != other.end()),
                           mi.name << " tri " << t);
            }
        BOOST_TEST(open_edges == 0u, mi.name << ": closed shapes leave no open edge");
    }
}

// Bounds recomputed independently from the decoded views with the rules of msh.md §9 and §11.
BOOST_AUTO_TEST_CASE(bounds_follow_the_writer_rules) {
    auto near = [](double a, double b) {
        return std::abs(a - b) <= 1e-4 * std::max(1.0, std::abs(b));
    };
    for (const ModelInfo& mi : models()) {
        const Model& m = mi.model;
        // slot: AABB exact, sphere around the AABB centre, tail +48 area, +52 volume
        for (const Slot& s : m.slots) {
            std::array<float, 3> lo{1e30f, 1e30f, 1e30f}, hi{-1e30f, -1e30f, -1e30f};
            double area = 0;
            std::vector<Vec3> pts;
            for (size_t b = s.batch_start; b < size_t(s.batch_start) + s.batch_count; ++b) {
                const Batch& B = m.batches[b];
                for (uint32_t v = 0; v < B.opaque14; ++v)
                    pts.push_back(m.positions[B.base_vertex + v]);
                for (size_t i = 0; i < B.index_count; i += 3) {
                    const Vec3 &p0 = m.positions[B.base_vertex + m.indices[B.index_start + i]],
                               &p1 = m.positions[B.base_vertex + m.indices[B.index_start + i + 1]],
                               &p2 = m.positions[B.base_vertex + m.indices[B.index_start + i + 2]];
                    msh::samples::V3 a{p1.x - p0.x, p1.y - p0.y, p1.z - p0.z},
                        c{p2.x - p0.x, p2.y - p0.y, p2.z - p0.z};
                    area += 0.5 * msh::samples::length(msh::samples::cross(a, c));
                }
            }
            for (const Vec3& p : pts) {
                lo = {std::min(lo[0], p.x), std::min(lo[1], p.y), std::min(lo[2], p.z)};
                hi = {std::max(hi[0], p.x), std::max(hi[1], p.y), std::max(hi[2], p.z)};
            }
            BOOST_TEST((s.aabb_min == lo && s.aabb_max == hi), mi.name);
            double r = 0;
            for (const Vec3& p : pts)
                r = std::max(r, std::hypot(double(p.x) - s.sphere[0], double(p.y) - s.sphere[1],
                                           double(p.z) - s.sphere[2]));
            for (int k = 0; k < 3; ++k)
                BOOST_TEST(
                    near(s.sphere[size_t(k)], 0.5 * (double(lo[size_t(k)]) + hi[size_t(k)])));
            BOOST_TEST(near(s.sphere[3], r), mi.name);
            float area_f, volume_f;
            std::memcpy(&area_f, &s.tail[0], 4);
            std::memcpy(&volume_f, &s.tail[1], 4);
            BOOST_TEST(near(area_f, area), mi.name);
            BOOST_TEST(near(volume_f, (double(hi[0]) - lo[0]) * (double(hi[1]) - lo[1]) *
                                          (double(hi[2]) - lo[2])),
                       mi.name);
            BOOST_TEST((s.tail[2] != 0 && s.tail[3] != 0 && s.tail[4] != 0));
        }
        if (m.legacy_nodes) continue;
        // three LODs of group 0 with falling triangle counts
        size_t lod_tris[kLods] = {0, 0, 0};
        for (size_t n = 0; n < m.nodes.size(); ++n)
            for (int lod = 0; lod < kLods; ++lod)
                if (const Slot* s = m.find_slot(n, lod, 0)) lod_tris[lod] += s->tri_count;
        BOOST_TEST((lod_tris[0] > lod_tris[1] && lod_tris[1] > lod_tris[2] && lod_tris[2] > 0),
                   mi.name);
        // header: every node at its first key
        std::vector<std::array<float, 16>> global(m.nodes.size());
        for (size_t n = 0; n < m.nodes.size(); ++n) {
            size_t first = n == 0 ? 0 : size_t(m.nodes[n - 1].fallback_key) + 1;
            const anim::Key& key = m.animation.keys[first];
            BOOST_TEST(key.time == 0.0f);
            std::array<float, 16> local = anim::rotation_matrix(anim::decode_quat(key.rot));
            local[3] = key.pos[0];
            local[7] = key.pos[1];
            local[11] = key.pos[2];
            if (m.nodes[n].parent == kNone) {
                global[n] = local;
                continue;
            }
            const auto& P = global[m.nodes[n].parent];
            for (int r = 0; r < 4; ++r)
                for (int c = 0; c < 4; ++c) {
                    float sum = 0;
                    for (int q = 0; q < 4; ++q)
                        sum += P[size_t(r * 4 + q)] * local[size_t(q * 4 + c)];
                    global[n][size_t(r * 4 + c)] = sum;
                }
        }
        std::vector<msh::samples::V3> posed;
        for (size_t n = 0; n < m.nodes.size(); ++n)
            for (uint16_t w : m.nodes[n].slots) {
                if (w == kNone) continue;
                const Slot& s = m.slots[w];
                const auto& M = global[n];
                for (size_t b = s.batch_start; b < size_t(s.batch_start) + s.batch_count; ++b)
                    for (uint32_t v = 0; v < m.batches[b].opaque14; ++v) {
                        const Vec3& p = m.positions[m.batches[b].base_vertex + v];
                        posed.push_back(
                            {double(M[0]) * p.x + double(M[1]) * p.y + double(M[2]) * p.z + M[3],
                             double(M[4]) * p.x + double(M[5]) * p.y + double(M[6]) * p.z + M[7],
                             double(M[8]) * p.x + double(M[9]) * p.y + double(M[10]) * p.z +
                                 M[11]});
                    }
            }
        msh::samples::V3 lo{1e30, 1e30, 1e30}, hi{-1e30, -1e30, -1e30};
        for (const auto& p : posed) {
            lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
            hi = {std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
        }
        const ModelHeader& h = m.header;
        for (int i = 0; i < 8; ++i) {
            BOOST_TEST(near(h.hull[size_t(3 * i)], i & 1 ? hi.x : lo.x),
                       mi.name << " corner " << i);
            BOOST_TEST(near(h.hull[size_t(3 * i + 1)], i & 2 ? hi.y : lo.y),
                       mi.name << " corner " << i);
            BOOST_TEST(near(h.hull[size_t(3 * i + 2)], i & 4 ? hi.z : lo.z),
                       mi.name << " corner " << i);
        }
        msh::samples::V3 c = (lo + hi) * 0.5;
        double r = 0;
        for (const auto& p : posed) r = std::max(r, msh::samples::length(p - c));
        BOOST_TEST(near(h.sphere[0], c.x));
        BOOST_TEST(near(h.sphere[1], c.y));
        BOOST_TEST(near(h.sphere[2], c.z));
        BOOST_TEST(near(h.sphere[3], r), mi.name);
        BOOST_TEST(near(h.capsule[2], lo.z));
        BOOST_TEST(near(h.capsule[5], hi.z));
        BOOST_TEST(near(h.capsule[6], std::hypot(0.5 * (hi.x - lo.x), 0.5 * (hi.y - lo.y))));
    }
}

BOOST_AUTO_TEST_CASE(names_and_unknown_fields_vary) {
    bool all_res10 = false, mixed_res10 = false, empty_res9 = false, attr2 = false, opaque6 = false,
         lit = false;
    std::set<uint16_t> tri_flags, node_flags;
    size_t selectors = 0;
    for (const ModelInfo& mi : models()) {
        const Model& m = mi.model;
        size_t named = 0;
        for (const NodeString& s : m.node_strings) named += s.present;
        all_res10 |= named == m.node_strings.size() && named > 1;
        mixed_res10 |= named > 0 && named < m.node_strings.size();
        const nres::Entry* r9 = m.entry(kNodeNames32);
        BOOST_REQUIRE(r9);
        BOOST_TEST(r9->data.size() == 32 * m.node_count());
        for (size_t n = 0; n < m.node_count(); ++n) empty_res9 |= r9->data[32 * n] == 0;
        attr2 |= m.entry(kNodes)->attr2 != 0;
        for (const Batch& b : m.batches) {
            opaque6 |= b.opaque6 != 0;
            lit |= (b.opaque4 & 0xFF00) == 0;
            BOOST_TEST((b.opaque4 & 0xFF) == (b.material & 0xFF));
        }
        for (const TriDesc& t : m.triangles) {
            tri_flags.insert(t.flags);
            selectors += t.selectors != 0x3F;
            BOOST_TEST((t.selectors >> 6) == 0);
        }
        for (const Node& n : m.nodes) node_flags.insert(n.flags);
    }
    BOOST_TEST(all_res10);
    BOOST_TEST(mixed_res10);
    BOOST_TEST(empty_res9);
    BOOST_TEST(attr2);
    BOOST_TEST(opaque6);
    BOOST_TEST(lit);
    BOOST_TEST(selectors > 0u);
    BOOST_TEST((tri_flags == std::set<uint16_t>{0, 2, 4, 16, 32, 34}));
    for (uint16_t f : std::initializer_list<uint16_t>{0x01, 0x20, 0x40, 0x800})
        BOOST_TEST(node_flags.count(f) == 1u);
}

BOOST_AUTO_TEST_CASE(shapes_are_closed_and_outward) {
    using namespace msh::samples;
    for (const Mesh& m :
         {box({0, 0, 0}, {1, 2, 3}), cylinder(1, 0.5, 2, 7), cone(1, 2, 5), sphere(1, 8, 5),
          capsule(0.5, 1, 6, 3), wedge({1, 2, 1}), prism(1, 2, 5)}) {
        V3 c{};
        for (const Vertex& v : m.verts) c = c + v.pos;
        c = c * (1.0 / double(m.verts.size()));
        for (const auto& t : m.tris) {
            V3 p0 = m.verts[t[0]].pos, p1 = m.verts[t[1]].pos, p2 = m.verts[t[2]].pos;
            V3 n = cross(p1 - p0, p2 - p0);
            BOOST_TEST(length(n) > 0);
            BOOST_TEST(dot(n, (p0 + p1 + p2) * (1.0 / 3) - c) > 0);
            BOOST_TEST(dot(n, m.verts[t[0]].normal) > 0);
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()

} // namespace samples_tests
