#include "camera.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace msh::render {

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kHalfFovDeg = 15; // nominal: sets the distance, the framing sets the focal length

// MSH axes -> glTF axes.
Vec3 to_gltf(double x, double y, double z) {
    return {float(x), float(z), float(-y)};
}

} // namespace

std::optional<View> parse_view(const std::string& name) {
    for (View v : {View::Iso, View::Front, View::Back, View::Left, View::Right, View::Top})
        if (name == view_name(v)) return v;
    return std::nullopt;
}

const char* view_name(View view) {
    switch (view) {
    case View::Iso:
        return "iso";
    case View::Front:
        return "front";
    case View::Back:
        return "back";
    case View::Left:
        return "left";
    case View::Right:
        return "right";
    case View::Top:
        return "top";
    }
    return "iso";
}

Orbit orbit_of(View view) {
    switch (view) {
    case View::Iso:
        return {45, 30};
    case View::Front:
        return {0, 0};
    case View::Back:
        return {180, 0};
    case View::Left:
        return {-90, 0};
    case View::Right:
        return {90, 0};
    case View::Top:
        return {0, 90};
    }
    return {};
}

Projected project(const Camera& c, const Vec3& p) {
    const Vec3 d{p[0] - c.eye[0], p[1] - c.eye[1], p[2] - c.eye[2]};
    const double xc = dot(d, c.right), yc = dot(d, c.up), zc = dot(d, c.forward);
    if (c.orthographic) return {c.cx + c.focal * xc, c.cy - c.focal * yc, zc};
    return {c.cx + c.focal * xc / zc, c.cy - c.focal * yc / zc, zc};
}

Camera frame_points(const Orbit& orbit, const std::vector<Vec3>& all_points, int width, int height,
                    bool orthographic, double fill, std::optional<double> focal_cap) {
    Camera cam;
    cam.width = width;
    cam.height = height;
    cam.orthographic = orthographic;
    const double az = orbit.azimuth_deg * kPi / 180, el = orbit.elevation_deg * kPi / 180;
    // Towards the camera, and the image's right, in MSH axes; up = back × right.
    const double bx = std::cos(el) * std::sin(az), by = -std::cos(el) * std::cos(az),
                 bz = std::sin(el);
    const double rx = std::cos(az), ry = std::sin(az), rz = 0;
    const double ux = by * rz - bz * ry, uy = bz * rx - bx * rz, uz = bx * ry - by * rx;
    const Vec3 back = to_gltf(bx, by, bz);
    cam.right = to_gltf(rx, ry, rz);
    cam.up = to_gltf(ux, uy, uz);
    cam.forward = {-back[0], -back[1], -back[2]};

    // Only finite points frame the view (a damaged model may carry others; they are not drawn).
    std::vector<Vec3> points;
    for (const Vec3& p : all_points)
        if (std::isfinite(p[0]) && std::isfinite(p[1]) && std::isfinite(p[2])) points.push_back(p);
    Vec3 lo{0, 0, 0}, hi{0, 0, 0};
    if (!points.empty()) {
        lo = hi = points[0];
        for (const Vec3& p : points)
            for (int k = 0; k < 3; ++k)
                lo[k] = std::min(lo[k], p[k]), hi[k] = std::max(hi[k], p[k]);
    }
    const Vec3 centre{(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2};
    double radius = 0;
    for (const Vec3& p : points) {
        const Vec3 d{p[0] - centre[0], p[1] - centre[1], p[2] - centre[2]};
        radius = std::max(radius, std::sqrt(dot(d, d)));
    }
    if (!(radius > 1e-6) || !std::isfinite(radius)) radius = 1;
    const double distance =
        orthographic ? 2 * radius + 1 : radius / std::sin(kHalfFovDeg * kPi / 180);
    for (int k = 0; k < 3; ++k) cam.eye[k] = float(centre[k] + back[k] * distance);

    // The projected box at focal 1, principal point 0.
    cam.focal = 1, cam.cx = 0, cam.cy = 0;
    double umin = std::numeric_limits<double>::max(), vmin = umin;
    double umax = -umin, vmax = -umin;
    for (const Vec3& p : points) {
        const Projected q = project(cam, p);
        umin = std::min(umin, q.x), umax = std::max(umax, q.x);
        vmin = std::min(vmin, -q.y), vmax = std::max(vmax, -q.y);
    }
    if (points.empty()) umin = vmin = -1, umax = vmax = 1;
    const double du = umax - umin, dv = vmax - vmin;
    const double tiny = 1e-9;
    double focal;
    if (du > tiny && dv > tiny)
        focal = std::min(width / du, height / dv);
    else if (du > tiny)
        focal = width / du;
    else if (dv > tiny)
        focal = height / dv;
    else
        focal = std::min(width, height) / (orthographic ? 2 * radius : 0.5);
    focal *= fill;
    if (focal_cap) focal = std::min(focal, *focal_cap);
    cam.focal = focal;
    cam.cx = width / 2.0 - focal * (umin + umax) / 2;
    cam.cy = height / 2.0 + focal * (vmin + vmax) / 2;
    return cam;
}

} // namespace msh::render
