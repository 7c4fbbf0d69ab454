// Cameras of the previews: fixed views orbiting the model, framed from what is shown.
//
// Conventions (README "Previews"): views are named in the model's own axes (MSH: +Z up); the
// scene the renderer draws is in glTF axes (MSH (x, y, z) = glTF (x, z, -y)), so a camera is
// stored in glTF axes. `front` looks from the model's -Y side towards +Y (glTF's +Z forward,
// Blender's Front view), `right` from +X, `back` from +Y, `left` from -X, `top` down -Z with image
// up = +Y, `iso` from azimuth 45° (between front and right) at 30° elevation. Image up is +Z in
// every view but `top`.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace msh::render {

using Vec3 = std::array<float, 3>;

// In double precision: the cameras and the light are computed in it.
inline double dot(const Vec3& a, const Vec3& b) {
    return double(a[0]) * b[0] + double(a[1]) * b[1] + double(a[2]) * b[2];
}

// A direction to look from: azimuth 0 = front (the camera on -Y), 90 = right (+X); elevation 90 =
// straight down.
struct Orbit {
    double azimuth_deg = 45;
    double elevation_deg = 30;
};

enum class View { Iso, Front, Back, Left, Right, Top };
std::optional<View> parse_view(const std::string& name);
const char* view_name(View view);
Orbit orbit_of(View view);

// A pinhole camera, or an orthographic one, in glTF axes. Image pixels: x right, y down; (0, 0)
// is the top-left corner of the top-left pixel. A point p maps to camera coordinates
// (xc, yc, zc) = ((p - eye)·right, (p - eye)·up, (p - eye)·forward) and to the pixel
// (cx + focal * xc / zc, cy - focal * yc / zc) (orthographic: without the division).
struct Camera {
    Vec3 eye{0, 0, 0};
    Vec3 right{1, 0, 0}, up{0, 1, 0}, forward{0, 0, -1};
    bool orthographic = false;
    double focal = 1;      // pixels per unit of xc / zc, or per world unit (orthographic)
    double cx = 0, cy = 0; // principal point, pixels
    int width = 1, height = 1;
};

struct Projected {
    double x = 0, y = 0; // pixels
    double z = 0;        // distance along `forward`
};
Projected project(const Camera& camera, const Vec3& p);

// The camera looking from `orbit` at `points` (world positions of what is shown): a perspective
// camera placed at 1 / sin(15°) bounding-sphere radii from the centre of their box (so that all
// lie in front of it), whose focal length and principal point then put the box of the projected
// points in the middle of the frame with its larger side filling `fill` of the frame — every
// thumbnail fills its frame the same way. With `focal_cap`, the focal length is at most that
// (turntables keep one scale for every frame).
Camera frame_points(const Orbit& orbit, const std::vector<Vec3>& points, int width, int height,
                    bool orthographic, double fill = 0.9,
                    std::optional<double> focal_cap = std::nullopt);

} // namespace msh::render
