#include "formats/terrain.hpp"
#include "formats/terrain_flags.hpp"
#include "samples/terrain_gen.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <map>
#include <set>

// The file's own names: the test program compiles in unity batches (CMakeLists.txt).
namespace terrain_tests {

using namespace msh;

namespace {

// The non-stress generated set, built once for the whole suite.
const std::vector<samples::GeneratedFile>& maps() {
    static const std::vector<samples::GeneratedFile> files = samples::generate_maps(1998, false);
    return files;
}

std::vector<const samples::GeneratedFile*> files_named(const std::string& leaf) {
    std::vector<const samples::GeneratedFile*> out;
    for (const auto& f : maps())
        if (f.relative_path.size() >= leaf.size() &&
            f.relative_path.compare(f.relative_path.size() - leaf.size(), leaf.size(), leaf) == 0)
            out.push_back(&f);
    return out;
}

// A tiny valid terrain: a unit square of two faces, one slot, one node.
msh::terrain::Terrain tiny() {
    using namespace msh::terrain;
    Terrain t;
    t.positions = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
    for (size_t i = 0; i < 4; ++i) {
        t.normals.push_back({0, 0, 127, 0});
        t.uv1.push_back({int16_t(i * 100), 0});
        t.uv2.push_back({0, int16_t(i * 100)});
        t.weights.push_back(weight_raw(1.0f));
    }
    Face a, b;
    a.v = {0, 1, 2};
    b.v = {0, 2, 3};
    a.flags = b.flags = 0x608;
    t.faces = {a, b};
    rebuild_neighbours(t);
    for (Face& f : t.faces)
        f.normal =
            packed_face_normal(t.positions[f.v[0]], t.positions[f.v[1]], t.positions[f.v[2]]);
    t.cell_pairs = {{0, 0x58}, {1, 0x48}};
    Slot s;
    s.tri_start = 0;
    s.tri_count = 2;
    t.slots = {s};
    terrain::Node n;
    n.words.fill(0xFFFF);
    n.words[4] = 0;
    t.nodes = {n};
    init_container(t, 1);
    return t;
}

// Strict read of `bytes`; returns the diagnostics (never throws).
std::vector<Diagnostic> diagnose(const Bytes& bytes, ReadMode mode = ReadMode::Strict) {
    DiagnosticSink sink(mode);
    msh::terrain::read(bytes, sink, "Land.msh");
    return sink.diagnostics();
}

bool has(const std::vector<Diagnostic>& ds, Severity sev, const std::string& text) {
    for (const Diagnostic& d : ds)
        if (d.severity == sev && d.message.find(text) != std::string::npos) return true;
    return false;
}

std::string dump(const std::vector<Diagnostic>& ds) {
    std::string s;
    for (const Diagnostic& d : ds) s += d.to_string() + "\n";
    return s;
}

nres::Entry& entry_of(msh::terrain::Terrain& t, uint32_t type) {
    return t.container.entries[*t.container.find_type(type)];
}

} // namespace

BOOST_AUTO_TEST_SUITE(terrain)

BOOST_AUTO_TEST_CASE(generated_set_has_the_four_files_per_map) {
    std::set<std::string> dirs;
    for (const auto& f : maps()) dirs.insert(f.relative_path.substr(0, f.relative_path.rfind('/')));
    BOOST_TEST(dirs.size() >= 6u);
    for (const std::string& d : dirs) {
        BOOST_TEST(d.rfind("DATA/MAPS/", 0) == 0u);
        for (const char* leaf : {"/Land.msh", "/Land.map", "/Land1.wea", "/Land2.wea"}) {
            bool found = false;
            for (const auto& f : maps()) found |= f.relative_path == d + leaf;
            BOOST_TEST(found, d + leaf);
        }
    }
}

BOOST_AUTO_TEST_CASE(generated_land_msh_round_trips_with_zero_diagnostics) {
    for (const auto* f : files_named("Land.msh")) {
        DiagnosticSink sink(ReadMode::Strict);
        msh::terrain::Terrain t = msh::terrain::read(f->bytes, sink, f->relative_path);
        BOOST_TEST(sink.diagnostics().empty(), f->relative_path << "\n"
                                                                << dump(sink.diagnostics()));
        BOOST_TEST((msh::terrain::write(t) == f->bytes), f->relative_path);
        BOOST_TEST((msh::terrain::write_canonical(t) == f->bytes), f->relative_path);
    }
}

BOOST_AUTO_TEST_CASE(generated_maps_match_the_corpus_shape) {
    size_t small = 0, medium = 0;
    for (const auto* f : files_named("Land.msh")) {
        msh::terrain::Terrain t = msh::terrain::read(f->bytes, ReadMode::Strict, f->relative_path);
        const size_t nv = t.positions.size(), nf = t.faces.size();
        if (nv >= 2500 && nv <= 3500 && nf >= 2800 && nf <= 3600) ++small;
        if (nv >= 8000 && nv <= 11500 && nf >= 8000 && nf <= 11000) ++medium;
        double ratio = double(nf) / double(nv);
        BOOST_TEST((ratio > 0.8 && ratio < 1.1), f->relative_path << " faces/vertices " << ratio);
        // Entry order and names.
        std::vector<uint32_t> types;
        for (const auto& e : t.container.entries) {
            types.push_back(e.type);
            BOOST_TEST(e.name() == "Land");
        }
        BOOST_TEST((types == std::vector<uint32_t>{1, 2, 3, 4, 5, 18, 14, 11, 21}));
        BOOST_TEST(t.container.entries[0].attr2 != 0u); // type 1 attr2 is non-zero on shipped maps
        // Slots: tens to 128, contiguous face ranges covering every face once.
        BOOST_TEST((t.slots.size() >= 16 && t.slots.size() <= 128));
        size_t next = 0;
        for (const auto& s : t.slots) {
            BOOST_TEST(s.tri_start == next);
            next += s.tri_count;
        }
        BOOST_TEST(next == nf);
        for (size_t n = 0; n < t.nodes.size(); ++n) BOOST_TEST(t.nodes[n].first_slot() == n);
        // Type 11: one pair per face, keys = face index, observed first pairs; on some maps a
        // trailing group past the faces (the type-11 and type-21 counts differ, terrain.md §6).
        BOOST_REQUIRE(t.cell_pairs.size() >= nf);
        for (size_t k = nf; k < t.cell_pairs.size(); ++k) BOOST_TEST(t.cell_pairs[k].key >= nf);
        BOOST_TEST(t.cell_pairs[0].key == 0);
        BOOST_TEST(t.cell_pairs[0].flags == 0x58);
        BOOST_TEST(t.cell_pairs[1].key == 1);
        BOOST_TEST(t.cell_pairs[1].flags == 0x48);
        // Faces: layer-2 share, water faces, unk06, materials.
        size_t layer2 = 0, water = 0;
        std::vector<uint8_t> touched(nv, 0);
        for (const auto& face : t.faces) {
            BOOST_TEST(face.unk06 == 0xFFFF);
            if (face.aux != msh::terrain::kNoLayer2) {
                ++layer2;
                for (uint16_t v : face.v) touched[v] = 1;
            }
            if (face.flags & msh::terrain_flags::kWaterBit) {
                ++water;
                BOOST_TEST(face.flags == msh::terrain_flags::kWaterFaceFlags);
                BOOST_TEST(face.aux == msh::terrain::kNoLayer2);
                BOOST_TEST(face.material == 4); // WATER1 row of Land1.wea
                for (uint16_t v : face.v) BOOST_TEST(t.positions[v].z == t.positions[face.v[0]].z);
            }
        }
        double share = double(layer2) / double(nf);
        BOOST_TEST((share >= 0.08 && share <= 0.30),
                   f->relative_path << " layer-2 share " << share);
        BOOST_TEST(water > 0u);
        // Type 14: exactly 1.0 where no layer-2 face touches the vertex, in 0..1 elsewhere.
        for (size_t v = 0; v < nv; ++v) {
            float w = msh::terrain::weight_value(t.weights[v]);
            if (!touched[v])
                BOOST_TEST(w == 1.0f);
            else
                BOOST_TEST((w >= 0.0f && w <= 1.0f));
        }
    }
    BOOST_TEST(small >= 1u);
    BOOST_TEST(medium >= 4u);
}

BOOST_AUTO_TEST_CASE(generated_derived_values_recompute_exactly) {
    for (const auto* f : files_named("Land.msh")) {
        msh::terrain::Terrain t = msh::terrain::read(f->bytes, ReadMode::Strict, f->relative_path);
        msh::terrain::Terrain again = t;
        msh::terrain::rebuild_neighbours(again);
        bool same_links = true, same_normals = true, shared_edges = true;
        for (size_t i = 0; i < t.faces.size(); ++i) {
            const auto& face = t.faces[i];
            same_links &= face.n == again.faces[i].n;
            same_normals &= face.normal == msh::terrain::packed_face_normal(t.positions[face.v[0]],
                                                                            t.positions[face.v[1]],
                                                                            t.positions[face.v[2]]);
            // Neighbour k shares edge (v_k, v_k+1) reversed, by position.
            for (size_t k = 0; k < 3; ++k) {
                if (face.n[k] == msh::kNone) continue;
                const auto& o = t.faces[face.n[k]];
                const auto& p = t.positions[face.v[k]];
                const auto& q = t.positions[face.v[(k + 1) % 3]];
                bool found = false;
                for (size_t m = 0; m < 3; ++m) {
                    const auto& a = t.positions[o.v[m]];
                    const auto& b = t.positions[o.v[(m + 1) % 3]];
                    found |= a.x == q.x && a.y == q.y && a.z == q.z && b.x == p.x && b.y == p.y &&
                             b.z == p.z;
                }
                shared_edges &= found;
            }
            // Upward, counter-clockwise faces.
            BOOST_TEST(face.normal[2] > 0);
        }
        BOOST_TEST(same_links, f->relative_path);
        BOOST_TEST(same_normals, f->relative_path);
        BOOST_TEST(shared_edges, f->relative_path);
    }
}

BOOST_AUTO_TEST_CASE(wear_files_list_the_material_rows) {
    for (const auto* f : files_named("Land1.wea")) {
        std::string s(f->bytes.begin(), f->bytes.end());
        BOOST_TEST(s.rfind("6\r\n0 GRASS1\r\n", 0) == 0u);
        BOOST_TEST(s.find("4 WATER1\r\n") != std::string::npos);
    }
    for (const auto* f : files_named("Land2.wea")) {
        std::string s(f->bytes.begin(), f->bytes.end());
        BOOST_TEST(s == "3\r\n0 DIRT2\r\n1 ROCK2\r\n2 GRASS3\r\n");
    }
}

BOOST_AUTO_TEST_CASE(generation_is_deterministic) {
    auto again = samples::generate_maps(1998, false);
    BOOST_REQUIRE(again.size() == maps().size());
    for (size_t i = 0; i < again.size(); ++i)
        BOOST_TEST((again[i].bytes == maps()[i].bytes), again[i].relative_path);
    auto other = samples::build_map(samples::map_specs(false)[0], 7);
    BOOST_TEST((other.land_msh != files_named("Land.msh")[0]->bytes));
}

BOOST_AUTO_TEST_CASE(stress_map_fills_the_u16_index_space) {
    samples::MapSpec spec = samples::map_specs(true).back();
    BOOST_TEST(spec.name == "SynStress");
    samples::GeneratedMap m = samples::build_map(spec, 1998);
    // Faces are referenced by u16 neighbour links (0xFFFF = none), slot ranges and type-11 keys;
    // vertices by u16 indices: the map comes within one tile (16 faces) of 65,535 faces.
    BOOST_TEST(m.terrain.faces.size() <= 65535u);
    BOOST_TEST(m.terrain.faces.size() > 65535u - 16u);
    BOOST_TEST(m.terrain.positions.size() <= 65536u);
    BOOST_TEST(m.terrain.positions.size() > 50000u);
    BOOST_TEST(m.areal_map.areals.size() > 7000u);
    DiagnosticSink sink(ReadMode::Strict);
    msh::terrain::Terrain t = msh::terrain::read(m.land_msh, sink, "stress");
    BOOST_TEST(sink.diagnostics().empty(), dump(sink.diagnostics()));
    BOOST_TEST((msh::terrain::write(t) == m.land_msh));
}

BOOST_AUTO_TEST_CASE(tiny_terrain_is_valid_and_edits_round_trip) {
    msh::terrain::Terrain t = tiny();
    Bytes b = msh::terrain::write_canonical(t);
    BOOST_TEST(diagnose(b).empty(), dump(diagnose(b)));
    msh::terrain::Terrain r = msh::terrain::read(b, ReadMode::Strict, "tiny");
    BOOST_TEST((msh::terrain::write(r) == b));
    BOOST_TEST(r.faces[0].n[2] == 1); // edge (2, 0) of face 0 is edge (0, 2) of face 1
    BOOST_TEST(r.faces[1].n[0] == 0);
    // An edit of one vertex changes only the type-3 payload.
    r.positions[2].z = 5;
    Bytes edited = msh::terrain::write(r);
    BOOST_TEST(edited.size() == b.size());
    msh::terrain::Terrain back = msh::terrain::read(edited, ReadMode::Strict, "edited");
    BOOST_TEST(back.positions[2].z == 5.0f);
    BOOST_TEST((back.faces[0].v == r.faces[0].v));
}

BOOST_AUTO_TEST_CASE(decoders_follow_the_spec) {
    BOOST_TEST(msh::decode_uv(1024) == 1.0f);
    BOOST_TEST(msh::decode_uv(-512) == -0.5f);
    BOOST_TEST(msh::terrain::decode_uv_fixed88(int16_t(0x0180)) == 1.5f);
    BOOST_TEST(msh::encode_uv(100.0f) == 32767);
    BOOST_TEST(msh::decode_normal_component(-128) == -1.0f);
    BOOST_TEST(msh::encode_normal_component(1.0f) == 127);
    BOOST_TEST(msh::terrain::decode_face_normal(32767) == 1.0f);
    msh::terrain::Face f;
    f.edge_class = 0b100110;
    BOOST_TEST(f.edge(0) == 2);
    BOOST_TEST(f.edge(1) == 1);
    BOOST_TEST(f.edge(2) == 2);
}

// ---- Flag remaps (terrain.md §5) ----

BOOST_AUTO_TEST_CASE(flag_tables_are_bijective_and_disjoint) {
    using namespace msh::terrain_flags;
    uint32_t compact = 0;
    for (const BitPair& p : kMain16) {
        BOOST_TEST(to_main16(p.full) == p.compact);
        BOOST_TEST(from_compact(uint16_t(p.compact), 0) == p.full);
        compact |= p.compact;
    }
    BOOST_TEST(compact == 0xBFFFu); // 0x4000 has no full bit
    for (const BitPair& p : kMaterial6) {
        BOOST_TEST(to_material6(p.full) == p.compact);
        BOOST_TEST(from_compact(0, uint8_t(p.compact)) == p.full);
    }
    BOOST_TEST((main16_full_bits() & material6_full_bits()) == 0u);
    BOOST_TEST(from_compact(0x4000, 0) == 0u);
    BOOST_TEST(uncompactable_bits(0x00100000) == 0x00100000u);
    BOOST_TEST(uncompactable_bits(0xFFC00000) == 0xFFC00000u);
    BOOST_TEST(uncompactable_bits(0x00020608) == 0u);
}

BOOST_AUTO_TEST_CASE(flag_round_trips) {
    using namespace msh::terrain_flags;
    const uint32_t mappable = main16_full_bits() | material6_full_bits();
    for (uint32_t seed = 1; seed < 5000; ++seed) {
        uint32_t full = seed * 2654435761u;
        uint32_t back = from_compact(to_main16(full), to_material6(full));
        BOOST_TEST(back == (full & mappable));
    }
    for (uint32_t m = 0; m < 0x10000; m += 7) {
        uint16_t c = uint16_t(m & ~0x4000u);
        BOOST_TEST(to_main16(from_compact(c, 0)) == c);
    }
    for (uint32_t m = 0; m < 64; ++m) BOOST_TEST(to_material6(from_compact(0, uint8_t(m))) == m);
    // Water: 0x20608 -> main 0x0200 | 0x0800 | 0x0080 | 0x0002.
    BOOST_TEST(to_main16(kWaterFaceFlags) == 0x0A82);
    BOOST_TEST(to_material6(kWaterFaceFlags) == 0);
    CompactFilter cf{0x0200, 0x8000, 0x01, 0x20};
    FullFilter ff = expand(cf);
    BOOST_TEST(ff.required == (0x20000u | 0x100u));
    BOOST_TEST(ff.forbidden == (0x200000u | 0x80u));
    CompactFilter back = compact(ff);
    BOOST_TEST(back.main_required == cf.main_required);
    BOOST_TEST(back.main_forbidden == cf.main_forbidden);
    BOOST_TEST(back.material_required == cf.material_required);
    BOOST_TEST(back.material_forbidden == cf.material_forbidden);
    BOOST_TEST(matches(0x20708, ff));
    BOOST_TEST(!matches(0x20608, ff));             // required 0x100 missing
    BOOST_TEST(!matches(0x20708 | 0x80, ff));      // forbidden bit set
    BOOST_TEST(matches(0x12345678, FullFilter{})); // empty filter accepts everything
}

// ---- Malformed inputs: each with its own diagnostic ----

BOOST_AUTO_TEST_CASE(malformed_missing_type_18) {
    msh::terrain::Terrain t = tiny();
    t.container.remove(*t.container.find_type(18));
    t.decoded_mask &= ~(1u << 18);
    auto ds = diagnose(nres::write_canonical(t.container));
    BOOST_TEST(has(ds, Severity::Error, "Unable to find microtexture mapping chunk"), dump(ds));
    BOOST_CHECK_THROW(msh::terrain::read(nres::write_canonical(t.container), ReadMode::Strict, "x"),
                      FormatError);
    // Tolerant: a warning, and the file still round-trips.
    Bytes b = nres::write_canonical(t.container);
    auto tol = diagnose(b, ReadMode::Tolerant);
    BOOST_TEST(has(tol, Severity::Warning, "Unable to find microtexture mapping chunk"));
    BOOST_TEST((msh::terrain::write(msh::terrain::read(b, ReadMode::Tolerant, "x")) == b));
}

BOOST_AUTO_TEST_CASE(malformed_missing_faces) {
    msh::terrain::Terrain t = tiny();
    t.container.remove(*t.container.find_type(21));
    auto ds = diagnose(nres::write_canonical(t.container));
    BOOST_TEST(has(ds, Severity::Error, "Unable to open file: required type 21 is missing"),
               dump(ds));
}

BOOST_AUTO_TEST_CASE(malformed_bad_face_vertex_index) {
    msh::terrain::Terrain t = tiny();
    t.faces[1].v[2] = 9;
    Bytes b = msh::terrain::write_canonical(t);
    auto ds = diagnose(b);
    BOOST_TEST(
        has(ds, Severity::Error, "face 1: vertex index i2 = 9 is not below the vertex count 4"),
        dump(ds));
    DiagnosticSink tol(ReadMode::Tolerant);
    msh::terrain::Terrain r = msh::terrain::read(b, tol, "x");
    BOOST_TEST(!tol.has_errors());
    BOOST_TEST(!msh::terrain::face_usable(r, 1));
    BOOST_TEST(msh::terrain::face_usable(r, 0));
    BOOST_TEST((msh::terrain::write(r) == b));
}

BOOST_AUTO_TEST_CASE(malformed_bad_neighbour_index) {
    msh::terrain::Terrain t = tiny();
    t.faces[0].n[0] = 7;
    auto ds = diagnose(msh::terrain::write_canonical(t));
    BOOST_TEST(has(ds, Severity::Error,
                   "face 0: neighbour n0 = 7 is neither 0xFFFF nor below the face count 2"),
               dump(ds));
}

BOOST_AUTO_TEST_CASE(malformed_non_mutual_neighbour) {
    msh::terrain::Terrain t = tiny();
    t.faces[1].n[0] = msh::kNone; // face 0 still names face 1
    auto ds = diagnose(msh::terrain::write_canonical(t));
    // terrain.md §8: a warning in strict mode, ignored by the tolerant reader.
    BOOST_TEST(has(ds, Severity::Warning, "face 0: neighbour n2 = 1 is not mutual"), dump(ds));
    BOOST_TEST(diagnose(msh::terrain::write_canonical(t), ReadMode::Tolerant).empty());
}

BOOST_AUTO_TEST_CASE(malformed_degenerate_face) {
    msh::terrain::Terrain t = tiny();
    t.faces[1].v = {0, 2, 2};
    t.faces[1].n = {0, msh::kNone, msh::kNone};
    auto ds = diagnose(msh::terrain::write_canonical(t));
    BOOST_TEST(has(ds, Severity::Warning, "face 1 is degenerate"), dump(ds));
    BOOST_TEST(has(ds, Severity::Warning, "1 vertices are used by no face"), dump(ds));
}

BOOST_AUTO_TEST_CASE(malformed_normal_count) {
    msh::terrain::Terrain t = tiny();
    t.normals.pop_back();
    auto ds = diagnose(msh::terrain::write_canonical(t));
    BOOST_TEST(has(ds, Severity::Error, "holds 3 records but type 3 holds 4 vertices"), dump(ds));
    // Type 18 / 14 count mismatch: warning only.
    msh::terrain::Terrain u = tiny();
    u.weights.pop_back();
    auto dw = diagnose(msh::terrain::write_canonical(u));
    BOOST_TEST(!has(dw, Severity::Error, ""), dump(dw));
    BOOST_TEST(has(dw, Severity::Warning, "holds 3 records but type 3 holds 4 vertices"), dump(dw));
}

BOOST_AUTO_TEST_CASE(malformed_slot_range) {
    msh::terrain::Terrain t = tiny();
    t.slots[0].tri_count = 3;
    auto ds = diagnose(msh::terrain::write_canonical(t));
    BOOST_TEST(has(ds, Severity::Error, "slot 0: type-11 range 0 + 3 exceeds the type-11 count 2"),
               dump(ds));
}

// The loader's reading (terrain.md §2, §6): slots address type-11 pairs, whose count may differ
// from the face count; keys past the faces are opaque. Such a map is valid, and a slot's faces
// are the ones its pairs name.
BOOST_AUTO_TEST_CASE(type11_and_type21_counts_may_differ) {
    msh::terrain::Terrain t = tiny();
    t.cell_pairs = {{1, 0x58}, {0, 0x48}, {7, 0x48}, {9, 0x58}};
    t.slots[0].tri_count = 4;
    auto ds = diagnose(msh::terrain::write_canonical(t));
    BOOST_TEST(ds.empty(), dump(ds));
    const auto back =
        msh::terrain::read(msh::terrain::write_canonical(t), ReadMode::Strict, "Land.msh");
    BOOST_TEST(back.cell_pairs.size() == 4u);
    BOOST_TEST(back.faces.size() == 2u);
    BOOST_TEST(msh::terrain::slot_faces(back, back.slots[0]) == (std::vector<uint32_t>{1, 0}),
               boost::test_tools::per_element());
    // Fewer pairs than faces is valid too.
    t.cell_pairs = {{0, 0x58}};
    t.slots[0].tri_count = 1;
    ds = diagnose(msh::terrain::write_canonical(t));
    BOOST_TEST(ds.empty(), dump(ds));
}

BOOST_AUTO_TEST_CASE(malformed_node_slot_word) {
    msh::terrain::Terrain t = tiny();
    t.nodes[0].words[6] = 4;
    auto ds = diagnose(msh::terrain::write_canonical(t));
    BOOST_TEST(has(ds, Severity::Error,
                   "node 0: slot word 2 = 4 is neither 0xFFFF nor below the slot count 1"),
               dump(ds));
}

BOOST_AUTO_TEST_CASE(malformed_face_table_size) {
    msh::terrain::Terrain t = tiny();
    msh::terrain::sync_container(t);
    entry_of(t, 21).data.edit().push_back(0);
    Bytes b = nres::write_canonical(t.container);
    auto ds = diagnose(b);
    BOOST_TEST(has(ds, Severity::Error, "size 57 is not a multiple of the record size 28"),
               dump(ds));
    // Tolerant: kept raw and written back unchanged.
    DiagnosticSink tol(ReadMode::Tolerant);
    msh::terrain::Terrain r = msh::terrain::read(b, tol, "x");
    BOOST_TEST(!r.has(msh::terrain::kFaces));
    BOOST_TEST((msh::terrain::write(r) == b));
}

BOOST_AUTO_TEST_CASE(malformed_attr1_and_attr3) {
    msh::terrain::Terrain t = tiny();
    msh::terrain::sync_container(t);
    entry_of(t, 3).attr1 = 5;
    entry_of(t, 5).attr3 = 8;
    auto ds = diagnose(nres::write_canonical(t.container));
    BOOST_TEST(has(ds, Severity::Error, "attr1 = 5 but the payload holds 4 records"), dump(ds));
    BOOST_TEST(has(ds, Severity::Error, "attr3 = 8, expected the stride 4"), dump(ds));
}

BOOST_AUTO_TEST_CASE(malformed_slot_table_size) {
    msh::terrain::Terrain t = tiny();
    msh::terrain::sync_container(t);
    entry_of(t, 2).data.edit().resize(0x8C + 10);
    auto ds = diagnose(nres::write_canonical(t.container));
    BOOST_TEST(has(ds, Severity::Error, "is not 0x8C + 68 * slotCount"), dump(ds));
}

BOOST_AUTO_TEST_CASE(malformed_duplicate_type) {
    msh::terrain::Terrain t = tiny();
    msh::terrain::sync_container(t);
    nres::Entry copy = entry_of(t, 11);
    t.container.entries.push_back(copy);
    auto ds = diagnose(nres::write_canonical(t.container));
    BOOST_TEST(has(ds, Severity::Error, "second entry of type 11"), dump(ds));
}

BOOST_AUTO_TEST_CASE(truncated_files_never_read_out_of_bounds) {
    const Bytes& full = files_named("Land.msh")[0]->bytes;
    for (size_t cut : {size_t(0), size_t(10), size_t(100), full.size() / 2, full.size() - 1}) {
        Bytes b(full.begin(), full.begin() + ptrdiff_t(cut));
        DiagnosticSink sink(ReadMode::Tolerant);
        try {
            msh::terrain::read(b, sink, "cut");
        } catch (const FormatError&) {
        }
        BOOST_TEST(true);
    }
}

BOOST_AUTO_TEST_CASE(random_corruption_is_read_safely) {
    const Bytes good = msh::terrain::write_canonical(tiny());
    uint64_t state = 12345;
    for (int round = 0; round < 2000; ++round) {
        Bytes b = good;
        for (int k = 0; k < 4; ++k) {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            b[size_t(16 + (state >> 33) % (b.size() - 16))] ^= uint8_t(1u << ((state >> 20) & 7));
        }
        for (ReadMode mode : {ReadMode::Strict, ReadMode::Tolerant}) {
            DiagnosticSink sink(mode);
            try {
                msh::terrain::Terrain t = msh::terrain::read(b, sink, "fuzz");
                if (mode == ReadMode::Tolerant) BOOST_TEST((msh::terrain::write(t) == b));
            } catch (const FormatError&) {
            }
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()

} // namespace terrain_tests
