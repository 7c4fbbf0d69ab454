// Closed shells (render/shells): which opaque triangles a preview may leave out. A box is one
// shell however its vertices are split (seams), also across meshes; an open, inconsistently wound,
// flat or damaged one is none, nor are triangles sharing no vertex; the side culled follows the
// winding the camera sees; a camera inside a shell culls nothing; and leaving the inner sides out
// of overlapping, inside-out, split and nearly edge-on solids, from any side, in perspective and
// orthographic views, keeps the picture: the same coverage, the same colours but for rounding
// along silhouettes.
#include "render/shells.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

// The file's own names: the test program compiles in unity batches (CMakeLists.txt).
namespace shells_tests {

using namespace msh;
using namespace msh::render;
using msh::render::Vec3; // the renderer's, not the format modules' (formats/vec3.hpp)

namespace {

struct Mesh {
    std::vector<Vertex> vertices;
    std::vector<uint32_t> triangles;
};

// The box [lo, hi], four vertices per face (as a textured model's seams split them), wound
// counter-clockwise seen from outside (`outward`) or from inside.
Mesh box(Vec3 lo, Vec3 hi, bool outward = true) {
    Mesh m;
    for (int axis = 0; axis < 3; ++axis)
        for (int side = 0; side < 2; ++side) {
            const int u = (axis + 1) % 3, v = (axis + 2) % 3;
            Vec3 normal{0, 0, 0};
            normal[size_t(axis)] = side ? 1.0f : -1.0f;
            const uint32_t first = uint32_t(m.vertices.size());
            for (int corner = 0; corner < 4; ++corner) {
                const int cu = corner == 1 || corner == 2, cv = corner >= 2;
                Vertex vx;
                vx.position[size_t(axis)] = side ? hi[size_t(axis)] : lo[size_t(axis)];
                vx.position[size_t(u)] = cu ? hi[size_t(u)] : lo[size_t(u)];
                vx.position[size_t(v)] = cv ? hi[size_t(v)] : lo[size_t(v)];
                vx.normal = normal;
                m.vertices.push_back(vx);
            }
            // (u, v) corners 0, 1, 2, 3 run counter-clockwise seen from +axis (u x v = axis).
            const bool ccw_from_outside = side == 1;
            if (ccw_from_outside == outward)
                m.triangles.insert(m.triangles.end(),
                                   {first, first + 1, first + 2, first, first + 2, first + 3});
            else
                m.triangles.insert(m.triangles.end(),
                                   {first, first + 2, first + 1, first, first + 3, first + 2});
        }
    return m;
}

ShellSet shells_of(const std::vector<const Mesh*>& meshes) {
    std::vector<MeshRef> refs;
    for (const Mesh* m : meshes) refs.push_back({&m->vertices, &m->triangles});
    return closed_shells(refs);
}

size_t count(const std::vector<Cull>& cull, Cull side) {
    return size_t(std::count(cull.begin(), cull.end(), side));
}

// What leaving out the inner sides changed in a picture, against drawing both sides.
struct Changes {
    size_t coverage = 0;       // pixels whose alpha moved
    size_t off_silhouette = 0; // pixels whose colour moved away from a silhouette
    size_t on_silhouette = 0;  // ... within a pixel of one
};

// Silhouettes: edges between a triangle the camera sees from the front and one it sees from
// the back (vertices joined by position). There an outer and an inner side lie at the same
// depth, and which one two-sided drawing shows at a sample is rounding's choice.
Changes compare(const texm::Image& both, const texm::Image& culled,
                const std::vector<const Mesh*>& meshes, const Camera& camera) {
    std::map<std::pair<Vec3, Vec3>, unsigned> facing; // edge -> 1: front, 2: back
    for (const Mesh* m : meshes)
        for (size_t t = 0; t + 2 < m->triangles.size(); t += 3) {
            Projected p[3];
            Vec3 v[3];
            for (size_t k = 0; k < 3; ++k) {
                v[k] = m->vertices[m->triangles[t + k]].position;
                p[k] = project(camera, v[k]);
            }
            const double area =
                (p[1].x - p[0].x) * (p[2].y - p[0].y) - (p[2].x - p[0].x) * (p[1].y - p[0].y);
            for (size_t k = 0; k < 3; ++k)
                facing[std::minmax(v[k], v[(k + 1) % 3])] |= area < 0 ? 1u : 2u;
        }
    std::vector<std::array<double, 4>> edges; // projected silhouette segments
    for (const auto& [edge, sides] : facing)
        if (sides == 3) {
            const Projected a = project(camera, edge.first), b = project(camera, edge.second);
            edges.push_back({a.x, a.y, b.x, b.y});
        }
    auto near_silhouette = [&](double x, double y) {
        for (const auto& e : edges) {
            const double dx = e[2] - e[0], dy = e[3] - e[1], len2 = dx * dx + dy * dy;
            double t = len2 > 0 ? ((x - e[0]) * dx + (y - e[1]) * dy) / len2 : 0;
            t = std::clamp(t, 0.0, 1.0);
            if (std::hypot(x - (e[0] + t * dx), y - (e[1] + t * dy)) <= 1.0) return true;
        }
        return false;
    };
    Changes c;
    for (uint32_t y = 0; y < both.height; ++y)
        for (uint32_t x = 0; x < both.width; ++x) {
            const uint8_t *a = both.at(x, y), *b = culled.at(x, y);
            if (a[3] != b[3])
                ++c.coverage;
            else if (!std::equal(a, a + 3, b))
                ++(near_silhouette(x + 0.5, y + 0.5) ? c.on_silhouette : c.off_silhouette);
        }
    return c;
}

} // namespace

BOOST_AUTO_TEST_SUITE(render_shells)

BOOST_AUTO_TEST_CASE(a_closed_box_is_one_shell_whatever_its_vertex_split) {
    const Mesh outward = box({-1, -2, -3}, {1, 2, 3});
    ShellSet set = shells_of({&outward});
    BOOST_TEST_REQUIRE(set.shells.size() == 1u);
    BOOST_TEST(set.shells[0].outward);
    BOOST_TEST((set.shells[0].lo == Vec3{-1, -2, -3} && set.shells[0].hi == Vec3{1, 2, 3}));
    BOOST_TEST(std::count(set.shell_of[0].begin(), set.shell_of[0].end(), 0) == 12);

    const Mesh inside_out = box({-1, -2, -3}, {1, 2, 3}, false);
    set = shells_of({&inside_out});
    BOOST_TEST_REQUIRE(set.shells.size() == 1u);
    BOOST_TEST(!set.shells[0].outward);

    // Split between two meshes (two materials): still one shell, -0 and +0 one place.
    Mesh first = outward, second = outward;
    first.triangles.resize(18);
    second.triangles.erase(second.triangles.begin(), second.triangles.begin() + 18);
    for (Vertex& v : second.vertices)
        for (float& c : v.position)
            if (c == 0) c = -0.0f;
    set = shells_of({&first, &second});
    BOOST_TEST_REQUIRE(set.shells.size() == 1u);
    BOOST_TEST(std::count(set.shell_of[0].begin(), set.shell_of[0].end(), 0) == 6);
    BOOST_TEST(std::count(set.shell_of[1].begin(), set.shell_of[1].end(), 0) == 6);
}

BOOST_AUTO_TEST_CASE(open_inconsistent_flat_or_damaged_boxes_are_no_shell) {
    auto no_shell = [](const Mesh& m, const char* what) {
        const ShellSet set = shells_of({&m});
        BOOST_TEST(set.shells.empty(), what);
        BOOST_TEST(std::count(set.shell_of[0].begin(), set.shell_of[0].end(), -1) ==
                       std::ptrdiff_t(m.triangles.size() / 3),
                   what);
    };
    Mesh open = box({0, 0, 0}, {1, 1, 1});
    open.triangles.resize(open.triangles.size() - 3);
    no_shell(open, "a triangle missing");

    Mesh flipped = box({0, 0, 0}, {1, 1, 1});
    std::swap(flipped.triangles[1], flipped.triangles[2]);
    no_shell(flipped, "one triangle wound the other way");

    Mesh flat; // a quad drawn from both sides: closed, no inside
    flat.vertices = box({0, 0, 0}, {1, 1, 1}).vertices;
    flat.vertices.resize(4);
    flat.triangles = {0, 1, 2, 0, 2, 3, 0, 2, 1, 0, 3, 2};
    no_shell(flat, "two faces back to back");

    Mesh damaged = box({0, 0, 0}, {1, 1, 1});
    damaged.vertices[5].position[0] = std::numeric_limits<float>::quiet_NaN();
    no_shell(damaged, "a vertex not a number");

    Mesh bad_index = box({0, 0, 0}, {1, 1, 1});
    bad_index.triangles[4] = 99;
    no_shell(bad_index, "an index out of range");

    Mesh soup; // triangles sharing no vertex: every edge apart (the edge table's worst case)
    for (uint32_t t = 0; t < 300; ++t) {
        for (int k = 0; k < 3; ++k) {
            Vertex v;
            v.position = {float(t), float(k == 1), float(k == 2)};
            soup.vertices.push_back(v);
        }
        soup.triangles.insert(soup.triangles.end(), {3 * t, 3 * t + 1, 3 * t + 2});
    }
    no_shell(soup, "separate triangles");
}

BOOST_AUTO_TEST_CASE(the_side_culled_is_the_one_the_winding_turns_away) {
    // The orthographic camera looks down -Z; a triangle counter-clockwise seen from +Z faces it.
    Camera camera;
    camera.eye = {0, 0, 10};
    camera.orthographic = true;
    camera.focal = 8, camera.cx = camera.cy = 8;
    camera.width = camera.height = 16;
    std::vector<Vertex> triangle(3);
    triangle[0].position = {-1, -1, 0}, triangle[1].position = {1, -1, 0};
    triangle[2].position = {0, 1, 0};
    Surface surface;
    surface.lit = false;
    for (const Cull side : {Cull::None, Cull::Back, Cull::Front})
        for (const bool reversed : {false, true}) {
            Canvas canvas(camera, 2);
            const std::vector<uint32_t> order =
                reversed ? std::vector<uint32_t>{0, 2, 1} : std::vector<uint32_t>{0, 1, 2};
            const std::vector<Cull> cull{side};
            canvas.draw(triangle, order, surface, {}, cull);
            const bool facing = !reversed;
            const bool expect = side == Cull::None || (side == Cull::Back) == facing;
            BOOST_TEST((canvas.covered_samples() > 0) == expect,
                       "cull " << int(side) << (reversed ? ", clockwise" : ", counter-clockwise"));
        }
}

BOOST_AUTO_TEST_CASE(a_camera_inside_a_shell_culls_nothing) {
    const Mesh room = box({-5, -5, -5}, {5, 5, 5}, false);
    const ShellSet set = shells_of({&room});
    BOOST_TEST_REQUIRE(set.shells.size() == 1u);
    Camera camera; // at the centre, looking down -Z
    camera.focal = 32, camera.cx = camera.cy = 32;
    camera.width = camera.height = 64;
    Canvas inside(camera, 2);
    BOOST_TEST(culling(set, 1, inside)[0].empty());
    camera.eye = {0, 0, 20};
    Canvas outside(camera, 2);
    BOOST_TEST(count(culling(set, 1, outside)[0], Cull::Front) == 12u); // inside out
    // Outside the box, looking along it: its far end lies behind the camera.
    camera.eye = {0, 0, 5.5f};
    camera.forward = {1, 0, 0}, camera.up = {0, 0, 1}, camera.right = {0, -1, 0};
    Canvas behind(camera, 2);
    BOOST_TEST(culling(set, 1, behind)[0].empty());
}

BOOST_AUTO_TEST_CASE(leaving_the_inner_sides_out_keeps_the_picture) {
    // Overlapping solids, one inside out, one made of two meshes, in front of an open one:
    // from 48 directions (faces seen edge-on among them: their silhouette edges lie on sample
    // rows and columns), perspective and orthographic, 1 to 3 samples a side.
    std::vector<Mesh> meshes = {box({-1, -1, -1}, {1, 1, 1}),
                                box({0.5f, -0.4f, -0.3f}, {2, 0.6f, 1.6f}, false),
                                box({-2, 0.2f, -0.6f}, {-0.5f, 1.5f, 0.4f})};
    Mesh split = meshes[2];
    split.triangles.resize(12);
    meshes[2].triangles.erase(meshes[2].triangles.begin(), meshes[2].triangles.begin() + 12);
    meshes.push_back(split);
    Mesh open = box({-3, -3, -2.5f}, {3, 3, -2});
    open.triangles.resize(open.triangles.size() - 6);
    meshes.push_back(open);
    std::vector<const Mesh*> refs;
    std::vector<Vec3> points;
    for (const Mesh& m : meshes) {
        refs.push_back(&m);
        for (const Vertex& v : m.vertices) points.push_back(v.position);
    }
    const ShellSet set = shells_of(refs);
    BOOST_TEST_REQUIRE(set.shells.size() == 3u);
    const std::array<float, 4> colours[] = {{0.8f, 0.2f, 0.2f, 1},
                                            {0.2f, 0.8f, 0.2f, 1},
                                            {0.2f, 0.2f, 0.8f, 1},
                                            {0.9f, 0.9f, 0.2f, 1},
                                            {0.5f, 0.5f, 0.5f, 1}};
    size_t skipped = 0, views = 0, on_silhouette = 0;
    for (const bool ortho : {false, true})
        for (int samples = 1; samples <= 3; ++samples)
            for (double elevation : {-60.0, -20.0, 0.0, 30.0, 80.0, 90.0})
                for (double azimuth = 0; azimuth < 360; azimuth += 45) {
                    const Camera camera = frame_points({azimuth, elevation}, points, 48, 40, ortho);
                    Canvas full(camera, samples), culled_canvas(camera, samples);
                    const auto cull = culling(set, refs.size(), culled_canvas);
                    for (size_t i = 0; i < meshes.size(); ++i) {
                        Surface surface;
                        surface.factor = colours[i];
                        full.draw(meshes[i].vertices, meshes[i].triangles, surface);
                        skipped += cull[i].size() - count(cull[i], Cull::None);
                        culled_canvas.draw(meshes[i].vertices, meshes[i].triangles, surface, {},
                                           cull[i]);
                    }
                    const Changes c = compare(full.resolve(std::nullopt),
                                              culled_canvas.resolve(std::nullopt), refs, camera);
                    BOOST_TEST((c.coverage == 0u && c.off_silhouette == 0u),
                               "azimuth " << azimuth << ", elevation " << elevation << ", samples "
                                          << samples << (ortho ? ", ortho" : "") << ": "
                                          << c.coverage << " pixels covered differently, "
                                          << c.off_silhouette << " coloured differently");
                    on_silhouette += c.on_silhouette;
                    ++views;
                }
    // Every view could leave out the inner sides of the three shells (36 triangles).
    BOOST_TEST(skipped == 36u * views);
    // Rounding along silhouettes: a pixel here and there (about 2 in 10,000 of these pictures').
    BOOST_TEST(on_silhouette < views * 48 * 40 / 1000, on_silhouette << " pixels");
}

// A wedge: its bottom (listed first) and its slope meet at the front edge, where nothing else
// stands between them.
Mesh wedge(float w, float lo, float hi, float h) {
    Mesh m;
    const Vec3 corners[] = {{-w, lo, h},  {w, lo, h},   {w, lo, -h},
                            {-w, lo, -h}, {-w, hi, -h}, {w, hi, -h}};
    for (const Vec3& c : corners) {
        Vertex v;
        v.position = c;
        m.vertices.push_back(v); // no normals: lit by the face normal
    }
    m.triangles = {0, 3, 2, 0, 2, 1,  // bottom
                   0, 1, 5, 0, 5, 4,  // slope
                   3, 4, 5, 3, 5, 2,  // back
                   0, 4, 3, 1, 2, 5}; // sides
    return m;
}

BOOST_AUTO_TEST_CASE(solids_seen_edge_on_keep_the_picture) {
    // Level with the eye in a 256 x 256 preview, a plate a twentieth as thick as it is wide and
    // a wedge are seen nearly edge-on: their silhouette edges fall on sample rows, and there a
    // back face lies at the same depth as the front face it meets (the wedge's bottom is drawn
    // first: two-sided drawing shows it along that edge).
    for (const Mesh& solid :
         {box({-0.95f, 0.1f, -0.95f}, {0.95f, 0.2f, 0.95f}), wedge(0.95f, 0.1f, 0.2f, 0.95f)}) {
        const ShellSet set = shells_of({&solid});
        BOOST_TEST_REQUIRE(set.shells.size() == 1u);
        std::vector<Vec3> points;
        for (const Vertex& v : solid.vertices) points.push_back(v.position);
        for (const bool ortho : {false, true})
            for (double azimuth = 0; azimuth < 360; azimuth += 90)
                for (double elevation : {-1.0, 0.0, 1.0}) {
                    const Camera camera =
                        frame_points({azimuth, elevation}, points, 256, 256, ortho);
                    Canvas full(camera, 2), culled(camera, 2);
                    full.draw(solid.vertices, solid.triangles, {});
                    culled.draw(solid.vertices, solid.triangles, {}, {},
                                culling(set, 1, culled)[0]);
                    const Changes c = compare(full.resolve(std::nullopt),
                                              culled.resolve(std::nullopt), {&solid}, camera);
                    BOOST_TEST(
                        (c.coverage == 0u && c.off_silhouette == 0u && c.on_silhouette <= 8u),
                        solid.vertices.size()
                            << " vertices, azimuth " << azimuth << ", elevation " << elevation
                            << (ortho ? ", ortho" : "") << ": " << c.coverage
                            << " covered differently, " << c.off_silhouette << " + "
                            << c.on_silhouette << " coloured differently");
                }
    }
}

BOOST_AUTO_TEST_SUITE_END()

} // namespace shells_tests
