#include "formats/arealmap.hpp"
#include "samples/terrain_gen.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>

// The file's own names: the test program compiles in unity batches (CMakeLists.txt).
namespace arealmap_tests {

using namespace msh;
using msh::arealmap::Vec3;

namespace {

const std::vector<samples::GeneratedFile>& maps() {
    static const std::vector<samples::GeneratedFile> files = samples::generate_maps(1998, false);
    return files;
}

std::vector<const samples::GeneratedFile*> land_maps() {
    std::vector<const samples::GeneratedFile*> out;
    for (const auto& f : maps())
        if (f.relative_path.ends_with("/Land.map")) out.push_back(&f);
    return out;
}

// Two triangles tiling the unit square, linked across the diagonal, on a 2 x 2 grid.
msh::arealmap::ArealMap tiny() {
    msh::arealmap::ArealMap m;
    m.areals.resize(2);
    m.areals[0].vertices = {{0, 0, 0}, {4, 0, 0}, {4, 4, 0}};
    m.areals[1].vertices = {{0, 0, 0}, {4, 4, 0}, {0, 4, 0}};
    for (auto& a : m.areals) msh::arealmap::apply_polygon_rules(a);
    msh::arealmap::rebuild_links(m.areals);
    m.grid = msh::arealmap::rebuild_grid(m.areals, 2, 2);
    msh::arealmap::init_container(m);
    return m;
}

std::vector<Diagnostic> diagnose(const Bytes& bytes, ReadMode mode = ReadMode::Strict) {
    DiagnosticSink sink(mode);
    try {
        msh::arealmap::read(bytes, sink, "Land.map");
    } catch (const FormatError& e) {
        return {{Severity::Error, e.resource(), e.offset(), e.message()}};
    }
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

// Writes `m` with its views as they are (no derived value recomputed).
Bytes raw_write(const msh::arealmap::ArealMap& m) {
    return msh::arealmap::write_canonical(m);
}

} // namespace

BOOST_AUTO_TEST_SUITE(arealmap)

BOOST_AUTO_TEST_CASE(generated_maps_round_trip_with_zero_diagnostics) {
    BOOST_TEST(land_maps().size() >= 6u);
    for (const auto* f : land_maps()) {
        DiagnosticSink sink(ReadMode::Strict);
        msh::arealmap::ArealMap m = msh::arealmap::read(f->bytes, sink, f->relative_path);
        BOOST_TEST(sink.diagnostics().empty(), f->relative_path << "\n"
                                                                << dump(sink.diagnostics()));
        BOOST_TEST(m.decoded);
        BOOST_TEST((msh::arealmap::write(m) == f->bytes), f->relative_path);
        BOOST_TEST(m.container.entries.size() == 1u);
        BOOST_TEST(m.container.entries[0].name() == "ArealMap");
        BOOST_TEST(m.container.entries[0].attr1 == m.areals.size());
    }
}

BOOST_AUTO_TEST_CASE(generated_areals_match_the_corpus_shape) {
    for (const auto* f : land_maps()) {
        msh::arealmap::ArealMap m =
            msh::arealmap::read(f->bytes, ReadMode::Strict, f->relative_path);
        BOOST_TEST((m.areals.size() >= 300 && m.areals.size() <= 1000),
                   f->relative_path << " " << m.areals.size());
        size_t total = 0, triangles = 0, quads = 0;
        for (const auto& a : m.areals) {
            const size_t v = a.vertices.size();
            BOOST_TEST((v >= 3 && v <= 14));
            total += v;
            triangles += v == 3;
            quads += v == 4;
            BOOST_TEST(a.sub_blocks.empty());
            BOOST_TEST(a.links.size() == v);
            BOOST_TEST(a.logic_flag == 1u);
            BOOST_TEST(a.class_id == 1u);
            BOOST_TEST(a.anchor.z == 0.0f);
            BOOST_TEST((a.reserved12 == 0.0f && a.reserved36 == 0u && a.reserved44 == 0u));
        }
        double mean = double(total) / double(m.areals.size());
        BOOST_TEST((mean > 5.0 && mean < 7.0), f->relative_path << " mean " << mean);
        BOOST_TEST(triangles > 0u);
        BOOST_TEST(quads > 0u);
        BOOST_TEST(m.grid.cells_x == 128u);
        BOOST_TEST(m.grid.cells_y == 128u);
        size_t busiest = 0;
        for (const auto& c : m.grid.cells) busiest = std::max(busiest, c.size());
        BOOST_TEST((busiest >= 1 && busiest <= 20));
    }
}

BOOST_AUTO_TEST_CASE(generated_derived_values_recompute_exactly) {
    for (const auto* f : land_maps()) {
        msh::arealmap::ArealMap m =
            msh::arealmap::read(f->bytes, ReadMode::Strict, f->relative_path);
        double sum = 0, min_x = 1e30, max_x = -1e30, min_y = 1e30, max_y = -1e30;
        bool areas = true, normals = true, anchors = true, inside = true, ccw = true;
        for (const auto& a : m.areals) {
            areas &= a.area == float(msh::arealmap::polygon_area_xy(a.vertices));
            normals &= a.normal.x == 0.0f && a.normal.y == 0.0f && a.normal.z == 1.0f;
            Vec3 anchor = msh::arealmap::interior_anchor(a.vertices);
            anchors &= anchor.x == a.anchor.x && anchor.y == a.anchor.y && anchor.z == a.anchor.z;
            inside &= msh::arealmap::point_in_polygon_xy(a.vertices, a.anchor.x, a.anchor.y);
            // Counter-clockwise in XY: the Newell normal of the XY projection is +Z.
            std::vector<Vec3> flat = a.vertices;
            for (auto& v : flat) v.z = 0;
            Vec3 n = msh::arealmap::polygon_normal(flat);
            ccw &= std::fabs(n.z - 1.0f) < 1e-6f;
            sum += msh::arealmap::signed_area_xy(a.vertices);
            for (const auto& v : a.vertices) {
                min_x = std::min(min_x, double(v.x));
                max_x = std::max(max_x, double(v.x));
                min_y = std::min(min_y, double(v.y));
                max_y = std::max(max_y, double(v.y));
            }
        }
        BOOST_TEST(areas, f->relative_path);
        BOOST_TEST(normals, f->relative_path);
        BOOST_TEST(anchors, f->relative_path);
        BOOST_TEST(inside, f->relative_path);
        BOOST_TEST(ccw, f->relative_path);
        // Tiles the square without gaps or overlaps.
        double square = (max_x - min_x) * (max_y - min_y);
        BOOST_TEST(std::fabs(sum - square) / square < 1e-6,
                   f->relative_path << " " << sum << " vs " << square);
        // Links: rebuilt from the geometry they equal the stored ones; unlinked edges lie on the
        // border.
        std::vector<msh::arealmap::Areal> relinked = m.areals;
        msh::arealmap::rebuild_links(relinked);
        bool links = true, border = true;
        for (size_t i = 0; i < m.areals.size(); ++i) {
            links &= relinked[i].links == m.areals[i].links;
            const auto& a = m.areals[i];
            for (size_t k = 0; k < a.vertices.size(); ++k) {
                if (!a.links[k].none()) continue;
                const Vec3& p = a.vertices[k];
                const Vec3& q = a.vertices[(k + 1) % a.vertices.size()];
                border &= (p.x == q.x && (p.x == min_x || p.x == max_x)) ||
                          (p.y == q.y && (p.y == min_y || p.y == max_y));
            }
        }
        BOOST_TEST(links, f->relative_path);
        BOOST_TEST(border, f->relative_path);
        BOOST_TEST((msh::arealmap::rebuild_grid(m.areals) == m.grid), f->relative_path);
    }
}

BOOST_AUTO_TEST_CASE(polygon_functions) {
    std::vector<Vec3> square = {{0, 0, 0}, {2, 0, 0}, {2, 2, 0}, {0, 2, 0}};
    BOOST_TEST(msh::arealmap::signed_area_xy(square) == 4.0);
    std::vector<Vec3> cw(square.rbegin(), square.rend());
    BOOST_TEST(msh::arealmap::signed_area_xy(cw) == -4.0);
    BOOST_TEST(msh::arealmap::polygon_area_xy(cw) == 4.0);
    BOOST_TEST(msh::arealmap::is_convex_xy(square));
    Vec3 c = msh::arealmap::interior_anchor(square);
    BOOST_TEST((c.x == 1.0f && c.y == 1.0f && c.z == 0.0f));
    BOOST_TEST(
        !msh::arealmap::point_in_polygon_xy(square, 2.0, 1.0)); // on an edge: not strictly inside
    BOOST_TEST(!msh::arealmap::point_in_polygon_xy(square, 0.0, 0.0));
    BOOST_TEST(msh::arealmap::point_in_polygon_xy(square, 1.999, 1.0));
    // A thin L whose centroid lies outside: the anchor must still be inside.
    std::vector<Vec3> ell = {{0, 0, 0}, {10, 0, 0}, {10, 1, 0}, {1, 1, 0}, {1, 10, 0}, {0, 10, 0}};
    BOOST_TEST(!msh::arealmap::is_convex_xy(ell));
    Vec3 a = msh::arealmap::interior_anchor(ell);
    BOOST_TEST(msh::arealmap::point_in_polygon_xy(ell, a.x, a.y));
    BOOST_TEST(!msh::arealmap::point_in_polygon_xy(ell, 5.0, 5.0));
    // Newell normal of a tilted quad (z = x): (-1, 0, 1) / sqrt 2.
    std::vector<Vec3> tilted = {{0, 0, 0}, {1, 0, 1}, {1, 1, 1}, {0, 1, 0}};
    Vec3 n = msh::arealmap::polygon_normal(tilted);
    BOOST_TEST(std::fabs(n.x + std::sqrt(0.5f)) < 1e-6f);
    BOOST_TEST(std::fabs(n.y) < 1e-6f);
    BOOST_TEST(std::fabs(n.z - std::sqrt(0.5f)) < 1e-6f);
}

BOOST_AUTO_TEST_CASE(link_and_grid_rebuild_on_a_tiny_map) {
    msh::arealmap::ArealMap m = tiny();
    BOOST_TEST((m.areals[0].links[2] ==
                msh::arealmap::EdgeLink{1, 0})); // edge (4,4)->(0,0) is (0,0)->(4,4) of areal 1
    BOOST_TEST((m.areals[1].links[0] == msh::arealmap::EdgeLink{0, 2}));
    BOOST_TEST(m.areals[0].links[0].none());
    BOOST_TEST(m.areals[0].area == 8.0f);
    // Cell (x = 1, y = 0) holds the lower-right triangle only; the diagonal cells both.
    BOOST_TEST((m.grid.cell(1, 0) ==
                std::vector<uint16_t>{0, 1})); // XY boxes overlap (both boxes are the square)
    BOOST_TEST(m.grid.cells.size() == 4u);
    Bytes b = raw_write(m);
    BOOST_TEST(diagnose(b).empty(), dump(diagnose(b)));
    BOOST_TEST(b.size() == 16 + 2 * (56 + 20 * 3) + 8 + 4 * (2 + 4) + 64);
}

BOOST_AUTO_TEST_CASE(sub_blocks_and_extra_links_round_trip) {
    msh::arealmap::ArealMap m = tiny();
    msh::arealmap::SubBlock sb;
    sb.data.assign(24, 0x11);
    m.areals[1].sub_blocks.push_back(sb);
    m.areals[1].links.resize(3 + 3, msh::arealmap::EdgeLink{});
    m.areals[1].links[4] = {0, 77}; // extra links: only area_ref is validated
    Bytes b = raw_write(m);
    BOOST_TEST(diagnose(b).empty(), dump(diagnose(b)));
    msh::arealmap::ArealMap r = msh::arealmap::read(b, ReadMode::Strict, "x");
    BOOST_TEST(r.areals[1].sub_blocks.size() == 1u);
    BOOST_TEST(r.areals[1].sub_blocks[0].n() == 2u);
    BOOST_TEST((msh::arealmap::write(r) == b));
}

// ---- Malformed inputs ----

BOOST_AUTO_TEST_CASE(malformed_wrong_size) {
    msh::arealmap::ArealMap m = tiny();
    m.container.entries[0].data.edit().push_back(0);
    m.decoded = false;
    Bytes b = msh::arealmap::write(m);
    auto ds = diagnose(b);
    BOOST_TEST(has(ds, Severity::Error,
                   "SystemArealMap panic: Incorrect ArealMap: parsing ended at byte 264 but the "
                   "entry holds 265 bytes"),
               dump(ds));
    // Structural errors are errors in tolerant mode too; the payload is kept raw.
    auto tol = diagnose(b, ReadMode::Tolerant);
    BOOST_TEST(has(tol, Severity::Error, "Incorrect ArealMap"));
    DiagnosticSink sink(ReadMode::Tolerant);
    msh::arealmap::ArealMap r = msh::arealmap::read(b, sink, "x");
    BOOST_TEST(!r.decoded);
    BOOST_TEST((msh::arealmap::write(r) == b));
}

BOOST_AUTO_TEST_CASE(malformed_truncated_record) {
    msh::arealmap::ArealMap m = tiny();
    m.container.entries[0].data.edit().resize(150);
    m.decoded = false;
    auto ds = diagnose(msh::arealmap::write(m));
    BOOST_TEST(has(ds, Severity::Error, "areal 1 prefix runs past the entry end"), dump(ds));
    m.container.entries[0].data.edit().resize(100);
    ds = diagnose(msh::arealmap::write(m));
    BOOST_TEST(has(ds, Severity::Error, "attr1 = 2 areals cannot fit in 100 bytes"), dump(ds));
}

BOOST_AUTO_TEST_CASE(malformed_huge_vertex_count) {
    msh::arealmap::ArealMap m = tiny();
    store(m.container.entries[0].data.edit().data() + 48, uint32_t(0x40000000));
    m.decoded = false;
    auto ds = diagnose(msh::arealmap::write(m));
    BOOST_TEST(has(ds, Severity::Error, "areal 0 (V = 1073741824, B = 0) needs"), dump(ds));
}

BOOST_AUTO_TEST_CASE(malformed_bad_link_area) {
    msh::arealmap::ArealMap m = tiny();
    m.areals[0].links[0] = {5, 0};
    auto ds = diagnose(raw_write(m));
    BOOST_TEST(has(ds, Severity::Error,
                   "areal 0: edge 0 link (5, 0) is neither (-1, -1) nor a valid areal and edge"),
               dump(ds));
    auto tol = diagnose(raw_write(m), ReadMode::Tolerant);
    BOOST_TEST(!has(tol, Severity::Error, ""));
    BOOST_TEST(has(tol, Severity::Warning, "link (5, 0)"));
}

BOOST_AUTO_TEST_CASE(malformed_bad_link_edge) {
    msh::arealmap::ArealMap m = tiny();
    m.areals[0].links[1] = {1, 3};
    auto ds = diagnose(raw_write(m));
    BOOST_TEST(has(ds, Severity::Error, "areal 0: edge 1 link (1, 3)"), dump(ds));
    m.areals[0].links[1] = {-1, 0}; // half a "none"
    ds = diagnose(raw_write(m));
    BOOST_TEST(has(ds, Severity::Error, "areal 0: edge 1 link (-1, 0)"), dump(ds));
}

BOOST_AUTO_TEST_CASE(malformed_non_mutual_link) {
    msh::arealmap::ArealMap m = tiny();
    m.areals[1].links[0] = {};
    auto ds = diagnose(raw_write(m));
    BOOST_TEST(
        has(ds, Severity::Warning,
            "areal 0: edge 2 links to areal 1 edge 0, which links back to (-1, -1) (not mutual)"),
        dump(ds));
    BOOST_TEST(!has(ds, Severity::Error, ""));
}

BOOST_AUTO_TEST_CASE(malformed_grid_id_past_areal_count) {
    msh::arealmap::ArealMap m = tiny();
    m.grid.cells[3].push_back(2);
    auto ds = diagnose(raw_write(m));
    BOOST_TEST(has(ds, Severity::Error, "grid cell (1, 1) names areal 2 but the map has 2 areals"),
               dump(ds));
    BOOST_TEST(has(diagnose(raw_write(m), ReadMode::Tolerant), Severity::Error, "names areal 2"));
}

BOOST_AUTO_TEST_CASE(malformed_empty_grid) {
    msh::arealmap::ArealMap m = tiny();
    m.grid = msh::arealmap::Grid{0, 2, {}};
    auto ds = diagnose(raw_write(m));
    BOOST_TEST(has(ds, Severity::Error,
                   "SystemArealMap panic: ArealMap Cells are empty (cellsX = 0, cellsY = 2)"),
               dump(ds));
}

BOOST_AUTO_TEST_CASE(malformed_zero_areal_count) {
    msh::arealmap::ArealMap m = tiny();
    msh::arealmap::sync_container(m);
    m.container.entries[0].attr1 = 0;
    m.decoded = false;
    auto ds = diagnose(msh::arealmap::write(m));
    BOOST_TEST(
        has(ds, Severity::Error, "Cannot load ArealMapGeometry: the areal count (attr1) is 0"),
        dump(ds));
}

BOOST_AUTO_TEST_CASE(malformed_missing_chunk) {
    msh::arealmap::ArealMap m = tiny();
    m.container.entries[0].type = 13;
    m.decoded = false;
    auto ds = diagnose(msh::arealmap::write(m));
    BOOST_TEST(has(ds, Severity::Error, "SystemArealMap panic: Cannot find chunk in resource"),
               dump(ds));
}

BOOST_AUTO_TEST_CASE(malformed_second_entry) {
    msh::arealmap::ArealMap m = tiny();
    msh::arealmap::sync_container(m);
    nres::Entry extra = m.container.entries[0];
    extra.type = 3;
    m.container.entries.push_back(extra);
    m.decoded = false;
    auto ds = diagnose(nres::write_canonical(m.container));
    BOOST_TEST(has(ds, Severity::Error, "must hold exactly one entry"), dump(ds));
}

BOOST_AUTO_TEST_CASE(malformed_soft_rules_warn) {
    msh::arealmap::ArealMap m = tiny();
    m.areals[0].normal = {0, 0, 2};
    m.areals[0].reserved36 = 1;
    m.areals[1].anchor = {10, 10, 0};
    auto ds = diagnose(raw_write(m));
    BOOST_TEST(has(ds, Severity::Warning, "areal 0: normal length 2"), dump(ds));
    BOOST_TEST(has(ds, Severity::Warning, "areal 0: reserved fields are not 0"), dump(ds));
    BOOST_TEST(
        has(ds, Severity::Warning, "areal 1: anchor (10.000000, 10.000000) is not strictly inside"),
        dump(ds));
    BOOST_TEST(!has(ds, Severity::Error, ""));
    BOOST_TEST(diagnose(raw_write(m), ReadMode::Tolerant).empty());
}

BOOST_AUTO_TEST_CASE(malformed_too_many_hits) {
    msh::arealmap::ArealMap m = tiny();
    m.grid.cells[0].assign(1024, 0);
    auto ds = diagnose(raw_write(m));
    BOOST_TEST(has(ds, Severity::Error, "lists 1024 areals; the runtime packs at most 1023"),
               dump(ds));
}

BOOST_AUTO_TEST_CASE(random_corruption_is_read_safely) {
    const Bytes good = msh::arealmap::write_canonical(tiny());
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
                msh::arealmap::ArealMap t = msh::arealmap::read(b, sink, "fuzz");
                if (mode == ReadMode::Tolerant) BOOST_TEST((msh::arealmap::write(t) == b));
            } catch (const FormatError&) {
            }
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()

} // namespace arealmap_tests
