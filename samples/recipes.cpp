#include "samples/recipes.hpp"

#include "formats/bytes.hpp"

#include <cmath>
#include <functional>
#include <string>

namespace msh::samples {

namespace {

// ---- Res17 path graph (msh.md §7) -------------------------------------------------------------

constexpr uint32_t kPod = 0x40, kDock = 0x20 | 0x200 | 0x400, kMine = 0x8, kStore = 0x10,
                   kGround = 0x10000000;

void path_graph(Kit& k, double hx, double hy, uint32_t special, int specials) {
    struct P {
        double x, y, z;
        uint32_t flags;
    };
    std::vector<P> pts;
    int ring = k.rng.range(4, 7);
    double m = k.rng.uniform(1.5, 3.0);
    for (int i = 0; i < ring; ++i) {
        double a = 2 * kPi * (double(i) + 0.25) / ring;
        pts.push_back({std::cos(a) * (hx + m), std::sin(a) * (hy + m), 0.0, kGround});
    }
    pts.push_back({hx + 2 * m, 0.0, 0.0, kDock | kGround});
    for (int i = 0; i < specials; ++i)
        pts.push_back({(double(i) - 0.5 * (specials - 1)) * hx / std::max(1, specials), -0.5 * hy,
                       special == kPod ? 0.5 : 0.0, special | (special == kPod ? 0u : kGround)});
    std::vector<std::pair<uint32_t, uint32_t>> links;
    for (int i = 0; i < ring; ++i) links.push_back({uint32_t(i), uint32_t((i + 1) % ring)});
    links.push_back({0u, uint32_t(ring)});
    for (int i = 0; i < specials; ++i) links.push_back({uint32_t(ring), uint32_t(ring + 1 + i)});

    ByteWriter w;
    for (size_t i = 0; i < pts.size(); ++i) {
        w.put(float(pts[i].x));
        w.put(float(pts[i].y));
        w.put(float(pts[i].z));
        w.put(pts[i].flags);
        w.put(uint32_t(1 + (i * 7 + 3) % 5)); // unknown word: varied, non-zero
    }
    for (auto [from, to] : links) {
        w.put(from);
        w.put(to);
        for (int j = 0; j < 8; ++j) w.put(uint32_t(0xFFFFFFFFu));
    }
    k.spec.res17 = w.take();
    k.spec.res17_nodes = uint32_t(pts.size());
    k.spec.res17_links = uint32_t(links.size());
}

} // namespace

// ---- recipes ----------------------------------------------------------------------------------

void building(Kit& k, const BuildingStyle& s) {
    uint16_t wall = k.mat(k.rng.chance(0.5) ? "BRICK_02" : "CONCRETE");
    uint16_t roof = k.mat("ROOF_TILE");
    uint16_t door = k.mat("DOOR_STEEL");
    uint16_t glass = k.mat("WINDOW");
    int root = k.node(k.rng.chance(0.5) ? "house" : "body", -1, {});
    k.lods(root, wall, [&](int) { return box({0, 0, s.hz}, {s.hx, s.hy, s.hz}); });
    k.lods(root, roof, [&](int) {
        // gable roof: a triangular prism along x with one edge pointing up
        double r = 1.15 * s.hy;
        if (s.roof_prism)
            return turned(prism(r, 2 * s.hx, 3), {0, 1, 0}, 90, {-s.hx, 0, 2 * s.hz + 0.5 * r});
        return moved(wedge({s.hx, s.hy, 0.6 * s.hz}), {0, 0, 2 * s.hz});
    });
    k.lods(
        root, door,
        [&](int) {
            return box({s.hx + 0.05, 0, 0.9}, {0.1, 0.6, 0.9});
        },
        2);
    for (int i = 0; i < 2; ++i)
        k.part(root, 0, 0,
               box({(i ? 0.5 : -0.5) * s.hx, -s.hy - 0.04, s.hz * 1.2}, {0.4, 0.05, 0.35}), glass,
               4, 0x8);
    if (s.chimney) {
        uint16_t pipe = k.mat("PIPE");
        k.lods(root, pipe, [&](int lod) {
            return moved(cylinder(0.3, 0.25, 1.6, segs(lod, 12)),
                         {-0.5 * s.hx, 0.4 * s.hy, 2 * s.hz});
        });
    }
    if (s.damaged) {
        k.part(root, 0, 1, box({0, 0, 0.4 * s.hz}, {s.hx, s.hy, 0.4 * s.hz}), wall);
        k.part(root, 0, 1,
               moved(wedge({0.5 * s.hx, 0.4 * s.hy, 0.5 * s.hz}), {0.3 * s.hx, 0, 0.8 * s.hz}),
               roof);
    }
    if (s.interior) {
        int in = k.node("i_room", root, {0, 0, 0.05}, 0x01);
        k.lods(
            in, k.mat("WOOD_PLANK"),
            [&](int) {
                return box({0, 0, 0.5}, {0.6 * s.hx, 0.6 * s.hy, 0.5});
            },
            2);
        k.label(in, "interior");
    }
    k.collide(root, box({0, 0, s.hz + 0.3 * s.hz}, {s.hx, s.hy, 1.3 * s.hz}), 16);
}

void tree(Kit& k, bool pine) {
    uint16_t bark = k.mat("BARK");
    uint16_t leaves = k.mat(pine ? "NEEDLES" : "LEAVES_A");
    double h = k.rng.uniform(2.5, 4.0);
    int trunk = k.node("leaf1_m1o1", -1, {});
    k.lods(trunk, bark, [&](int lod) { return cylinder(0.25, 0.18, h, segs(lod, 10)); });
    int crown = k.node("leaf2_m1o1", trunk, {0, 0, h * 0.5});
    if (pine) {
        for (int i = 0; i < 3; ++i)
            k.lods(
                crown, leaves,
                [&](int lod) {
                    return moved(cone(1.6 - 0.4 * i, 1.8, segs(lod, 12)), {0, 0, 0.9 * i});
                },
                3 - (i == 2 ? 1 : 0), 32, 0x8);
    } else {
        k.lods(
            crown, leaves,
            [&](int lod) {
                return moved(sphere(1.5, segs(lod, 12), rings(lod, 7)), {0, 0, 1.2});
            },
            3, 32, 0x8);
        k.part(crown, 0, 0, moved(sphere(0.9, 8, 5), {0.9, 0.3, 0.7}), leaves, 34);
    }
    k.collide(trunk, prism(0.35, h, 6), 2);
}

void rock(Kit& k) {
    uint16_t stone = k.mat("ROCK_GREY");
    int n = k.node("rock", -1, {});
    V3 s{k.rng.uniform(1.0, 2.2), k.rng.uniform(0.8, 1.6), k.rng.uniform(0.6, 1.1)};
    double yaw = k.rng.uniform(0, 180);
    k.lods(n, stone, [&](int lod) {
        return turned(scaled(sphere(1.0, segs(lod, 9), rings(lod, 6)), s, {0, 0, 0.7 * s.z}),
                      {0, 0, 1}, yaw);
    });
    k.part(n, 0, 0, scaled(sphere(0.5, 6, 4), {1.0, 0.8, 0.6}, {0.8 * s.x, 0.2, 0.3}),
           k.mat("MOSS"));
    k.collide(n, box({0, 0, 0.7 * s.z}, {0.8 * s.x, 0.8 * s.y, 0.7 * s.z}), 16);
}

void crate(Kit& k, bool barrel) {
    uint16_t m = k.mat(barrel ? "METAL_RUST" : "WOOD_PLANK");
    int n = k.node(barrel ? "barrel" : "crate", -1, {});
    if (barrel) {
        k.lods(n, m, [&](int lod) { return cylinder(0.45, 0.45, 1.1, segs(lod, 14)); });
        k.lods(
            n, k.mat("HAZARD"),
            [&](int lod) {
                return moved(cylinder(0.47, 0.47, 0.12, segs(lod, 14)), {0, 0, 0.5});
            },
            2);
    } else {
        k.lods(n, m, [&](int) { return box({0, 0, 0.5}, {0.5, 0.5, 0.5}); });
        k.lods(
            n, m,
            [&](int) {
                return box({0, 0, 1.02}, {0.45, 0.45, 0.02});
            },
            2); // lid
        k.part(n, 0, 0, box({0, -0.52, 0.5}, {0.35, 0.03, 0.35}), k.mat("HAZARD"));
    }
    k.collide(n, box({0, 0, 0.55}, {0.5, 0.5, 0.55}), 16);
}

void windmill(Kit& k) {
    uint16_t wood = k.mat("WOOD_PLANK");
    uint16_t cloth = k.mat("SAIL_CLOTH");
    int tower = k.node("tower", -1, {});
    k.lods(tower, wood, [&](int lod) { return cylinder(1.6, 0.9, 6.0, segs(lod, 12)); });
    k.lods(tower, k.mat("ROOF_TILE"), [&](int lod) {
        return moved(cone(1.1, 1.2, segs(lod, 12)), {0, 0, 6.0});
    });
    int hub = k.node("rotor", tower, {1.2, 0, 5.4});
    k.lods(hub, wood, [&](int lod) { return along_x(cylinder(0.25, 0.25, 0.5, segs(lod, 8))); });
    for (int b = 0; b < 4; ++b)
        k.lods(
            hub, cloth,
            [&](int) {
                return turned(box({0.45, 0, 1.9}, {0.04, 0.35, 1.6}), {1, 0, 0}, 90.0 * b);
            },
            3, 0, b == 0 ? 0x200 : 0);
    k.spin(hub, {1, 0, 0}, steps(24, 96), {0, 90, 180, 270, 360});
    k.collide(tower, prism(1.6, 6.0, 6), 16);
}

void radar(Kit& k) {
    uint16_t metal = k.mat("METAL_01");
    int base = k.node("Base_TM", -1, {});
    int mast = k.node("mast", base, {});
    k.lods(mast, metal, [&](int lod) { return cylinder(0.3, 0.2, 3.0, segs(lod, 10)); });
    int dish = k.node("dish", mast, {0, 0, 3.0});
    k.lods(dish, k.mat("DISH_WHITE"), [&](int lod) {
        return turned(cylinder(1.4, 0.3, 0.5, segs(lod, 16)), {0, 1, 0}, 70, {0.3, 0, 0.6});
    });
    k.lods(
        dish, metal,
        [&](int) {
            return box({0, 0, 0.3}, {0.25, 0.25, 0.3});
        },
        2);
    k.spin(dish, {0, 0, 1}, steps(16, 64), {0, 90, 180, 270, 360});
}

void lamp(Kit& k) {
    int pole = k.node("pole", -1, {});
    k.lods(pole, k.mat("METAL_01"),
           [&](int lod) { return cylinder(0.12, 0.08, 4.0, segs(lod, 8)); });
    int light = k.node("light", pole, {0.5, 0, 4.0}, 0x800);
    k.lods(
        light, k.mat("LAMP_GLOW"),
        [&](int lod) { return sphere(0.25, segs(lod, 10), rings(lod, 6)); }, 3, 4);
    k.part(light, 0, 0, along_x(cylinder(0.05, 0.05, 0.5, 6), {-0.5, 0, 0}), 0);
}

void fence(Kit& k) {
    uint16_t wood = k.mat("WOOD_PLANK");
    int n = k.node("fence", -1, {});
    int posts = k.rng.range(4, 6);
    for (int i = 0; i < posts; ++i)
        k.lods(
            n, wood,
            [&](int) {
                return box({1.5 * i, 0, 0.6}, {0.08, 0.08, 0.6});
            },
            i == 0 || i == posts - 1 ? 3
            : i % 2                  ? 1
                                     : 2);
    for (int r = 0; r < 2; ++r)
        k.lods(n, k.mat("WOOD_DARK"), [&](int) {
            return box({0.75 * (posts - 1), 0, 0.4 + 0.5 * r}, {0.75 * (posts - 1), 0.04, 0.06});
        });
    k.collide(n, box({0.75 * (posts - 1), 0, 0.6}, {0.75 * (posts - 1) + 0.1, 0.1, 0.6}), 2);
}

void silo(Kit& k) {
    uint16_t metal = k.mat("METAL_01");
    int n = k.node("silo", -1, {});
    k.lods(n, metal, [&](int lod) { return cylinder(2.0, 2.0, 7.0, segs(lod, 16)); });
    k.lods(n, k.mat("ROOF_TILE"), [&](int lod) {
        return moved(cone(2.1, 1.5, segs(lod, 16)), {0, 0, 7.0});
    });
    k.lods(
        n, k.mat("PIPE"),
        [&](int lod) {
            return moved(cylinder(0.3, 0.3, 7.5, segs(lod, 8)), {2.3, 0, 0});
        },
        2);
    k.collide(n, prism(2.1, 8.5, 8), 16);
}

void pipeline(Kit& k) {
    uint16_t pipe = k.mat("PIPE");
    int n = k.node("pipe", -1, {});
    for (int i = 0; i < 3; ++i) {
        k.lods(n, pipe, [&](int lod) {
            return along_x(cylinder(0.4, 0.4, 3.0, segs(lod, 12)), {3.0 * i, 0, 1.0});
        });
        k.lods(
            n, k.mat("METAL_RUST"),
            [&](int) {
                return box({3.0 * i + 1.5, 0, 0.45}, {0.15, 0.3, 0.45});
            },
            2);
    }
    k.collide(n, box({4.5, 0, 0.7}, {4.5, 0.45, 0.7}), 16);
}

void bridge(Kit& k) {
    uint16_t con = k.mat("CONCRETE");
    int n = k.node("deck", -1, {});
    k.lods(n, con, [&](int) { return box({0, 0, 2.2}, {8.0, 2.0, 0.25}); });
    for (int i = -1; i <= 1; i += 2) {
        k.lods(n, con, [&](int lod) {
            return cylinder(0.6, 0.5, 2.0, segs(lod, 10)).translate({4.0 * i, 0, 0});
        });
        k.lods(
            n, k.mat("METAL_RUST"),
            [&](int) {
                return box({0, 1.9 * i, 2.8}, {8.0, 0.05, 0.35});
            },
            2, 0, 0x200);
    }
    k.lods(
        n, k.mat("ASPHALT"),
        [&](int) {
            return turned(wedge({1.8, 2.0, 2.45}), {0, 0, 1}, -90, {-10.0, 0, 0});
        },
        2);
    k.collide(n, box({0, 0, 1.25}, {8.0, 2.0, 1.25}), 16);
}

void tank(Kit& k, double size, bool animated, bool wreck) {
    uint16_t armour = k.mat(wreck ? "METAL_BURNT" : "TANK_CAMO");
    uint16_t tracks = k.mat("TRACKS");
    uint16_t barrel = k.mat("BARREL_DK");
    int root = k.node("Base_TM", -1, {});
    int hull = k.node("body", root, {0, 0, 0.45 * size}, 0x40);
    k.lods(hull, armour, [&](int) {
        return box({0, 0, 0.3 * size}, {1.4 * size, 0.8 * size, 0.3 * size});
    });
    k.lods(
        hull, armour,
        [&](int) {
            return turned(wedge({0.8 * size, 0.35 * size, 0.4 * size}), {0, 0, 1}, 90,
                          {1.75 * size, 0, 0});
        },
        2);
    for (int s = -1; s <= 1; s += 2)
        k.lods(
            hull, tracks,
            [&](int) {
                return box({0, s * 0.95 * size, 0}, {1.5 * size, 0.18 * size, 0.3 * size});
            },
            3, 16);
    int wheels[4];
    for (int i = 0; i < 4; ++i) {
        wheels[i] =
            k.node("wheel" + std::to_string(i + 1), hull,
                   {(i % 2 ? 0.9 : -0.9) * size, (i < 2 ? -1 : 1) * 0.95 * size, -0.1 * size});
        k.lods(
            wheels[i], k.mat("WHEEL"),
            [&](int lod) {
                return along_y(cylinder(0.3 * size, 0.3 * size, 0.4 * size, segs(lod, 12)),
                               {0, -0.2 * size, 0});
            },
            2);
    }
    int tur = k.node("turret", hull, {-0.1 * size, 0, 0.6 * size}, 0,
                     wreck ? axis_angle({0, 0, 1}, deg(37)) : Rot{});
    k.lods(tur, armour, [&](int lod) {
        return scaled(cylinder(0.7, 0.6, 0.45, segs(lod, 12)), {size, 0.9 * size, size});
    });
    int gun = k.node("gun", tur, {0.6 * size, 0, 0.25 * size}, 0x800,
                     wreck ? axis_angle({0, 1, 0}, deg(12)) : Rot{});
    k.lods(gun, barrel, [&](int lod) {
        return along_x(cylinder(0.09 * size, 0.08 * size, 1.8 * size, segs(lod, 10)));
    });
    k.node("Base_fire", gun, {1.8 * size, 0, 0});
    int cp = k.node("CP_m1o1", root, {}, 0x20);
    k.collide(cp, box({0, 0, 0.75 * size}, {1.6 * size, 1.1 * size, 0.75 * size}), 2);
    if (animated) {
        for (int w : wheels) k.spin(w, {0, 1, 0}, steps(8, 32), {0, 90, 180, 270, 360});
        k.spin(tur, {0, 0, 1}, {0, 30, 60, 90, 120}, {0, 45, 0, -45, 0});
        k.animate(gun, {0, 20, 24, 40, 60, 80, 100, 120}, [&](double t) {
            double pitch = -10 * std::sin(t / 120 * 2 * kPi);
            double recoil = (t == 24) ? -0.25 * size : 0.0;
            return Motion{{recoil, 0, 0}, axis_angle({0, 1, 0}, deg(pitch))};
        });
    }
}

void turret(Kit& k, const TurretStyle& s) {
    uint16_t metal = k.mat("TURRET_CAM");
    uint16_t dark = k.mat("BARREL_DK");
    int root = k.node("Base_TM", -1, {});
    int base = k.node("base", root, {});
    k.lods(base, metal, [&](int lod) {
        return cylinder(1.0 * s.size, 0.8 * s.size, 0.6 * s.size, segs(lod, 16));
    });
    for (int i = 0; i < 4; ++i)
        k.part(base, 0, 0,
               turned(box({0.85 * s.size, 0, 0.1 * s.size},
                          {0.12 * s.size, 0.12 * s.size, 0.1 * s.size}),
                      {0, 0, 1}, 45 + 90 * i),
               dark);
    int tower = k.node("turret", base, {0, 0, 0.6 * s.size});
    k.lods(tower, metal, [&](int) {
        return box({0, 0, 0.35 * s.size}, {0.7 * s.size, 0.6 * s.size, 0.35 * s.size});
    });
    k.lods(
        tower, metal,
        [&](int) {
            return turned(wedge({0.6 * s.size, 0.25 * s.size, 0.5 * s.size}), {0, 0, 1}, 90,
                          {0.95 * s.size, 0, 0.1 * s.size});
        },
        2);
    k.part(tower, 0, 2, box({0, 0, 0.35 * s.size}, {0.72 * s.size, 0.62 * s.size, 0.02 * s.size}),
           dark); // group 2
    int gun = k.node("gun", tower, {0.5 * s.size, 0, 0.45 * s.size});
    k.lods(gun, metal, [&](int lod) {
        return along_y(cylinder(0.25 * s.size, 0.25 * s.size, 0.9 * s.size, segs(lod, 10)),
                       {0, -0.45 * s.size, 0});
    });
    std::vector<int> barrels;
    for (int b = 0; b < s.barrels; ++b) {
        double y = (b - 0.5 * (s.barrels - 1)) * 0.3 * s.size;
        int br = k.node(s.barrels > 1 ? "barrel" + std::to_string(b + 1) : "barrel", gun,
                        {0.2 * s.size, y, 0}, b == 0 ? 0x800 : 0);
        uint16_t bm = s.laser ? k.mat("LASER_LENS") : dark;
        if (s.rocket)
            k.lods(br, bm, [&](int lod) {
                return along_x(prism(0.14 * s.size, 1.0 * s.size, lod == 0 ? 6 : 4));
            });
        else
            k.lods(br, bm, [&](int lod) {
                return along_x(cylinder(0.08 * s.size, 0.06 * s.size, 1.4 * s.size, segs(lod, 10)));
            });
        if (s.laser)
            k.part(br, 0, 0, along_x(sphere(0.1 * s.size, 8, 4), {1.4 * s.size, 0, 0}),
                   k.mat("PLASMA_GLOW"), 4, 0x8);
        k.node("Base_fire" + std::to_string(b + 1), br, {1.4 * s.size, 0, 0});
        barrels.push_back(br);
    }
    int cp = k.node("CP_m1o1", root, {}, 0x20);
    k.collide(cp, box({0, 0, 0.8 * s.size}, {1.1 * s.size, 1.1 * s.size, 0.8 * s.size}), 2);
    if (s.sweep == 0)
        k.spin(tower, {0, 0, 1}, {0, 30, 60, 90, 120}, {0, 90, 180, 270, 360});
    else
        k.spin(tower, {0, 0, 1}, {0, 20, 60, 100, 120},
               {0, double(s.sweep), -double(s.sweep), double(s.sweep), 0});
    k.spin(gun, {0, 1, 0}, {0, 15, 45, 75, 110}, {0, -12, -25, -5, 0});
    for (size_t b = 0; b < barrels.size(); ++b) {
        int shot = 30 + int(b) * 6;
        k.animate(barrels[b], {0, shot, shot + 2, shot + 8}, [&](double t) {
            return Motion{{t == shot + 2 ? -0.3 * s.size : 0.0, 0, 0}, {}};
        });
    }
}

void quadruped(Kit& k, int legs_pairs, double size, bool labels) {
    uint16_t skin = k.mat(k.rng.chance(0.5) ? "SKIN_GREEN" : "SKIN_BROWN");
    uint16_t eye = k.mat("EYE_RED");
    uint16_t claw = k.mat("CHITIN");
    int root = k.node("Base_TM", -1, {});
    int body = k.node("body", root, {0, 0, 1.2 * size}, 0x40);
    k.lods(body, skin, [&](int lod) {
        return along_x(capsule(0.45 * size, 0.6 * size, segs(lod, 12), rings(lod, 4)));
    });
    int neck = k.node("neck", body, {1.0 * size, 0, 0.2 * size});
    k.lods(
        neck, skin,
        [&](int lod) {
            return turned(cylinder(0.2 * size, 0.15 * size, 0.5 * size, segs(lod, 8)), {0, 1, 0},
                          50);
        },
        2);
    int head = k.node("head", neck, {0.4 * size, 0, 0.35 * size});
    k.lods(head, skin, [&](int lod) {
        return scaled(sphere(0.3 * size, segs(lod, 10), rings(lod, 6)), {1.3, 1, 0.9});
    });
    for (int s = -1; s <= 1; s += 2)
        k.part(head, 0, 0,
               sphere(0.06 * size, 6, 4).translate({0.3 * size, s * 0.15 * size, 0.1 * size}), eye,
               0, 0x8);
    std::vector<int> thighs, shins;
    for (int p = 0; p < legs_pairs; ++p)
        for (int s = -1; s <= 1; s += 2) {
            double x = legs_pairs == 1 ? 0.0 : (0.7 - 1.4 * p / (legs_pairs - 1)) * size;
            int th = k.node("leg" + std::to_string(thighs.size() + 1) + "_a", body,
                            {x, s * 0.35 * size, -0.1 * size});
            k.lods(th, skin, [&](int lod) {
                return downward(cylinder(0.14 * size, 0.11 * size, 0.6 * size, segs(lod, 8)));
            });
            int sh =
                k.node("leg" + std::to_string(thighs.size() + 1) + "_b", th, {0, 0, -0.6 * size});
            k.lods(sh, claw,
                   [&](int lod) { return downward(cone(0.11 * size, 0.55 * size, segs(lod, 8))); });
            thighs.push_back(th);
            shins.push_back(sh);
        }
    int tail = k.node("tail", body, {-1.0 * size, 0, 0.1 * size});
    k.lods(
        tail, skin,
        [&](int lod) {
            return turned(cone(0.15 * size, 0.9 * size, segs(lod, 8)), {0, 1, 0}, -110);
        },
        2);
    k.collide(body, box({0, 0, 0}, {1.1 * size, 0.5 * size, 0.5 * size}), 16);
    if (labels) {
        k.label(body, "Body");
        k.label(head, "Head");
        k.label(tail, ""); // present but empty in spirit: written as len 0
    }
    const int period = k.rng.chance(0.5) ? 32 : 24;
    std::vector<int> times = steps(4, period);
    for (size_t i = 0; i < thighs.size(); ++i) {
        double phase = (i % 2 ? 0.5 : 0.0) + (i / 2 % 2 ? 0.5 : 0.0);
        k.animate(thighs[i], times, [&](double t) {
            return Motion{
                {}, axis_angle({0, 1, 0}, deg(25 * std::sin(2 * kPi * (t / period + phase))))};
        });
        k.animate(shins[i], times, [&](double t) {
            return Motion{
                {},
                axis_angle({0, 1, 0},
                           deg(-30 * std::max(0.0, std::sin(2 * kPi * (t / period + phase)))))};
        });
    }
    k.animate(body, steps(8, period), [&](double t) {
        return Motion{{0, 0, 0.05 * size * std::cos(4 * kPi * t / period)}, {}};
    });
    k.animate(head, steps(8, period), [&](double t) {
        return Motion{{}, axis_angle({0, 0, 1}, deg(10 * std::sin(2 * kPi * t / period)))};
    });
}

void bird(Kit& k, double size) {
    uint16_t feather = k.mat("FEATHER");
    uint16_t wingm = k.mat("WING_MEMB");
    int body = k.node("body", -1, {0, 0, 2.0 * size});
    k.lods(body, feather, [&](int lod) {
        return along_x(capsule(0.25 * size, 0.35 * size, segs(lod, 10), rings(lod, 3)));
    });
    int head = k.node("head", body, {0.65 * size, 0, 0.1 * size});
    k.lods(head, feather,
           [&](int lod) { return sphere(0.18 * size, segs(lod, 8), rings(lod, 5)); });
    k.lods(
        head, k.mat("BEAK"),
        [&](int lod) {
            return along_x(cone(0.06 * size, 0.25 * size, segs(lod, 6)), {0.15 * size, 0, 0});
        },
        2);
    int wings[4];
    for (int s = 0; s < 2; ++s) {
        double side = s ? 1 : -1;
        wings[2 * s] = k.node(s ? "wing_r" : "wing_l", body, {0, side * 0.2 * size, 0.1 * size});
        k.lods(
            wings[2 * s], wingm,
            [&](int) {
                return box({0, side * 0.5 * size, 0}, {0.25 * size, 0.5 * size, 0.02 * size});
            },
            3, 0, 0x200);
        wings[2 * s + 1] =
            k.node(s ? "wingtip_r" : "wingtip_l", wings[2 * s], {0, side * 1.0 * size, 0});
        k.lods(
            wings[2 * s + 1], wingm,
            [&](int) {
                return turned(wedge({0.2 * size, 0.4 * size, 0.03 * size}), {0, 0, 1}, s ? 0 : 180,
                              {0, side * 0.4 * size, -0.015 * size});
            },
            2, 0, 0x200);
    }
    int tail = k.node("tail", body, {-0.6 * size, 0, 0});
    k.lods(
        tail, feather,
        [&](int) {
            return turned(wedge({0.2 * size, 0.3 * size, 0.05 * size}), {0, 0, 1}, 90);
        },
        2);
    const int period = 16;
    for (int s = 0; s < 2; ++s) {
        double side = s ? 1 : -1;
        k.animate(wings[2 * s], steps(2, period), [&](double t) {
            return Motion{{},
                          axis_angle({1, 0, 0}, deg(side * 40 * std::sin(2 * kPi * t / period)))};
        });
        k.animate(wings[2 * s + 1], steps(2, period), [&](double t) {
            return Motion{
                {}, axis_angle({1, 0, 0}, deg(side * 25 * std::sin(2 * kPi * t / period - 0.6)))};
        });
    }
    k.animate(body, steps(4, period), [&](double t) {
        return Motion{{0, 0, -0.1 * size * std::sin(2 * kPi * t / period)}, {}};
    });
}

void worm(Kit& k, int segments, double size) {
    uint16_t skin = k.mat("SKIN_WORM");
    int prev = k.node("Base_TM", -1, {});
    int first = -1;
    for (int i = 0; i < segments; ++i) {
        int n = k.node("seg" + std::to_string(i + 1), prev,
                       {i == 0 ? 0.0 : -0.8 * size, 0, i == 0 ? 0.5 * size : 0.0});
        double r = (0.5 - 0.25 * i / segments) * size;
        k.lods(n, skin, [&](int lod) {
            return scaled(sphere(r, segs(lod, 10), rings(lod, 6)), {1.3, 1, 1});
        });
        if (i == 0) {
            first = n;
            k.lods(
                n, k.mat("TEETH"),
                [&](int lod) {
                    return along_x(cone(0.3 * size, 0.4 * size, segs(lod, 8)), {0.55 * size, 0, 0});
                },
                2);
        }
        k.animate(n, steps(6, 48), [&](double t) {
            return Motion{{},
                          axis_angle({0, 0, 1}, deg(18 * std::sin(2 * kPi * (t / 48 - i * 0.15))))};
        });
        prev = n;
    }
    k.collide(first,
              box({-0.4 * segments * size, 0, 0},
                  {0.4 * segments * size + 0.5 * size, 0.6 * size, 0.5 * size}),
              16);
}

// The largest model: 38 nodes, 112 slots, 439 batches, about 9,700 vertices, animated (130 frames).
int big_creature(Kit& k, int detail, int box_pads) {
    uint16_t hide = k.mat("HIDE_DARK");
    uint16_t plate = k.mat("CHITIN");
    uint16_t spikes = k.mat("SPIKE_BONE");
    uint16_t eye = k.mat("EYE_RED");
    uint16_t belly = k.mat("SKIN_BROWN");
    uint16_t claw = k.mat("CLAW");
    const double S = 2.0;
    int root = k.node("Base_TM", -1, {});
    int body = k.node("body", root, {0, 0, 3.0 * S}, 0x40);
    int neck1 = k.node("neck1", body, {1.6 * S, 0, 0.3 * S});
    int neck2 = k.node("neck2", neck1, {0.6 * S, 0, 0.25 * S});
    int head = k.node("head", neck2, {0.6 * S, 0, 0.2 * S});
    int jaw = k.node("jaw", head, {0.3 * S, 0, -0.25 * S});
    std::vector<int> tail;
    for (int i = 0; i < 5; ++i)
        tail.push_back(k.node("tail" + std::to_string(i + 1), i ? tail.back() : body,
                              {i ? -0.7 * S : -1.6 * S, 0, 0}));
    std::vector<int> hips, knees, feet;
    for (int l = 0; l < 6; ++l) {
        double x = (0.9 - 0.9 * (l / 2)) * S, y = (l % 2 ? 1 : -1) * 0.7 * S;
        std::string n = std::to_string(l + 1);
        hips.push_back(k.node("hip" + n, body, {x, y, -0.3 * S}));
        knees.push_back(k.node("knee" + n, hips.back(), {0, 0.4 * (l % 2 ? 1 : -1) * S, -0.9 * S}));
        feet.push_back(k.node("foot" + n, knees.back(), {0, 0, -1.0 * S}));
    }
    std::vector<int> ant;
    for (int s = 0; s < 2; ++s) {
        ant.push_back(k.node(s ? "antenna_r1" : "antenna_l1", head,
                             {0.1 * S, (s ? 0.15 : -0.15) * S, 0.25 * S}));
        ant.push_back(k.node(s ? "antenna_r2" : "antenna_l2", ant.back(), {0, 0, 0.5 * S}));
    }
    k.node("Base_eye_l", head, {0.3 * S, -0.15 * S, 0.1 * S});
    k.node("Base_eye_r", head, {0.3 * S, 0.15 * S, 0.1 * S});
    k.node("Base_fx", body, {0, 0, 0.8 * S});
    int cp = k.node("CP_m1o1", body, {}, 0x20);
    int in = k.node("i_belly", body, {0, 0, -0.2 * S}, 0x01);

    // Main shape per geometry node (node-local), a radius-ish size for its details.
    struct Geo {
        int node;
        std::function<Mesh(int)> main;
        double r;
        uint16_t material;
    };
    std::vector<Geo> geo;
    const int d = detail;
    geo.push_back({body,
                   [&](int lod) {
                       return along_x(capsule(0.8 * S, 1.0 * S, segs(lod, d + 4), rings(lod, 3)));
                   },
                   0.8 * S, hide});
    geo.push_back(
        {neck1,
         [&](int lod) { return along_x(cylinder(0.4 * S, 0.35 * S, 0.6 * S, segs(lod, d))); },
         0.4 * S, hide});
    geo.push_back(
        {neck2,
         [&](int lod) { return along_x(cylinder(0.35 * S, 0.3 * S, 0.6 * S, segs(lod, d))); },
         0.35 * S, hide});
    geo.push_back(
        {head,
         [&](int lod) {
             return scaled(sphere(0.4 * S, segs(lod, d + 2), rings(lod, 4)), {1.3, 1, 0.9});
         },
         0.4 * S, hide});
    geo.push_back({jaw,
                   [&](int) {
                       return turned(wedge({0.25 * S, 0.3 * S, 0.15 * S}), {0, 0, 1}, -90);
                   },
                   0.25 * S, belly});
    for (size_t i = 0; i < tail.size(); ++i) {
        double r0 = (0.5 - 0.08 * double(i)) * S;
        geo.push_back(
            {tail[i],
             [r0, S, d](int lod) {
                 return along_x(cylinder(r0, r0 * 0.85, 0.7 * S, segs(lod, d)), {-0.7 * S, 0, 0});
             },
             r0, plate});
    }
    for (int l = 0; l < 6; ++l) {
        geo.push_back({hips[size_t(l)],
                       [S, d](int lod) {
                           return downward(cylinder(0.25 * S, 0.2 * S, 0.95 * S, segs(lod, d)));
                       },
                       0.25 * S, hide});
        geo.push_back({knees[size_t(l)],
                       [S, d](int lod) {
                           return downward(cylinder(0.2 * S, 0.12 * S, 1.0 * S, segs(lod, d)));
                       },
                       0.2 * S, plate});
        geo.push_back({feet[size_t(l)],
                       [S, d](int lod) { return downward(cone(0.25 * S, 0.3 * S, segs(lod, d))); },
                       0.25 * S, claw});
    }
    for (int a : ant)
        geo.push_back({a,
                       [S, d](int lod) {
                           return cylinder(0.05 * S, 0.03 * S, 0.5 * S,
                                           segs(lod, std::max(3, d - 2)));
                       },
                       0.05 * S, plate});
    geo.push_back({in,
                   [S](int) {
                       return box({0, 0, 0}, {0.6 * S, 0.4 * S, 0.3 * S});
                   },
                   0.4 * S, belly});

    // LOD0: main + 5 details, LOD1: main + 3, LOD2: main + 1.
    const uint16_t detail_mat[5] = {spikes, plate, eye, belly, claw};
    for (const Geo& g : geo) {
        for (int lod = 0; lod < kLods; ++lod) {
            k.part(g.node, lod, 0, g.main(lod), g.material, lod == 0 ? 16 : 0);
            int details = lod == 0 ? 5 : lod == 1 ? 3 : 1;
            for (int i = 0; i < details; ++i) {
                double a = 360.0 * i / details + 20.0 * lod;
                Mesh m =
                    i % 2 ? turned(wedge({0.12 * g.r + 0.05, 0.1 * g.r + 0.05, 0.3 * g.r + 0.05}),
                                   {0, 0, 1}, a, {0, 0, 0.8 * g.r})
                          : box({0.9 * g.r * std::cos(deg(a)), 0.9 * g.r * std::sin(deg(a)),
                                 0.2 * g.r},
                                {0.08 * g.r + 0.03, 0.08 * g.r + 0.03, 0.15 * g.r + 0.03});
                k.part(g.node, lod, 0, std::move(m), detail_mat[size_t(i)], i == 2 ? 4 : 0,
                       i == 2 ? 0x8 : 0);
            }
        }
    }
    // Other groups: damaged (1), shadow (2), collision (4).
    k.part(body, 0, 1, along_x(cylinder(0.75 * S, 0.6 * S, 1.8 * S, 6), {-0.9 * S, 0, 0}), hide);
    k.part(head, 0, 1, box({0, 0, 0}, {0.4 * S, 0.3 * S, 0.25 * S}), hide);
    k.part(body, 0, 2, box({0, 0, -0.7 * S}, {1.8 * S, 0.7 * S, 0.05 * S}), belly);
    k.part(tail[0], 0, 2, box({-0.35 * S, 0, -0.4 * S}, {0.35 * S, 0.4 * S, 0.05 * S}), belly);
    k.collide(body, box({0, 0, 0}, {1.8 * S, 0.8 * S, 0.8 * S}), 16);
    k.collide(head, box({0, 0, 0}, {0.5 * S, 0.4 * S, 0.35 * S}), 16);
    for (int h : hips) k.collide(h, box({0, 0, -0.45 * S}, {0.25 * S, 0.25 * S, 0.5 * S}), 2);
    k.collide(cp, box({0.5 * S, 0, -0.5 * S}, {3.2 * S, 1.6 * S, 2.0 * S}), 2);
    // Pad LOD0 slots with small spines (wedges, the first `box_pads` of them boxes) up to the
    // target batch count.
    int pads = 0;
    for (size_t i = 0; k.part_count() < 439; ++i, ++pads) {
        const Geo& g = geo[i % geo.size()];
        V3 h{0.05 * g.r + 0.03, 0.05 * g.r + 0.03, 0.25 * g.r + 0.05};
        Mesh m = pads < box_pads ? box({0, 0, h.z}, {0.5 * h.x, 0.5 * h.y, h.z}) : wedge(h);
        k.part(g.node, 0, 0,
               turned(std::move(m), {1, 0, 0}, 30.0 * double(i % 7), {0, 0, 0.9 * g.r}), spikes,
               32);
    }

    // Walk cycle over 130 frames.
    const double P = 64;
    for (int l = 0; l < 6; ++l) {
        double ph = (l % 2 ? 0.5 : 0.0) + (l / 2 == 1 ? 0.5 : 0.0);
        k.animate(hips[size_t(l)], steps(8, 128), [&](double t) {
            return Motion{{}, axis_angle({0, 1, 0}, deg(22 * std::sin(2 * kPi * (t / P + ph))))};
        });
        k.animate(knees[size_t(l)], steps(8, 128), [&](double t) {
            return Motion{
                {},
                axis_angle({0, 1, 0}, deg(-25 * std::max(0.0, std::sin(2 * kPi * (t / P + ph)))))};
        });
    }
    k.animate(body, steps(16, 129), [&](double t) {
        return Motion{{0, 0, 0.1 * S * std::cos(4 * kPi * t / P)}, {}};
    });
    for (size_t i = 0; i < tail.size(); ++i)
        k.animate(tail[i], steps(10, 120), [&](double t) {
            return Motion{
                {},
                axis_angle({0, 0, 1}, deg(12 * std::sin(2 * kPi * (t / P - 0.12 * double(i)))))};
        });
    k.animate(neck1, steps(16, 128), [&](double t) {
        return Motion{{}, axis_angle({0, 1, 0}, deg(-8 * std::sin(2 * kPi * t / P)))};
    });
    k.animate(head, {0, 20, 40, 64, 90, 110, 128}, [&](double t) {
        return Motion{{}, axis_angle({0, 0, 1}, deg(15 * std::sin(2 * kPi * t / 128)))};
    });
    k.spin(jaw, {0, 1, 0}, {0, 50, 56, 62, 70}, {0, 0, 25, 25, 0});
    for (size_t i = 0; i < ant.size(); ++i)
        k.animate(ant[i], steps(6, 60), [&](double t) {
            return Motion{
                {},
                axis_angle({1, 0, 0}, deg((i % 2 ? 10 : 20) *
                                          std::sin(2 * kPi * (t / 30 + 0.25 * double(i)))))};
        });
    k.spec.selector_share = 0.08;
    return pads;
}

// ---- fortifications ---------------------------------------------------------------------------

void bunker(Kit& k, bool hex) {
    uint16_t con = k.mat("CONCRETE");
    int n = k.node("bunker", -1, {});
    double hx = k.rng.uniform(3.0, 4.5), hy = k.rng.uniform(2.5, 3.5);
    if (hex) {
        k.lods(n, con, [&](int lod) { return prism(hx, 2.2, lod == 2 ? 6 : 8); });
        k.lods(n, k.mat("METAL_RUST"), [&](int lod) {
            return moved(cone(0.9 * hx, 1.2, segs(lod, 16)), {0, 0, 2.2});
        });
    } else {
        k.lods(n, con, [&](int) { return box({0, 0, 1.1}, {hx, hy, 1.1}); });
        for (int s = -1; s <= 1; s += 2)
            k.lods(
                n, con,
                [&](int) {
                    return turned(wedge({hx, 0.8, 2.2}), {0, 0, 1}, s > 0 ? 180 : 0,
                                  {0, s * (hy + 0.8), 0});
                },
                2);
    }
    k.lods(
        n, k.mat("SLIT_DARK"),
        [&](int) {
            return box({hx + 0.02, 0, 1.5}, {0.05, 0.9, 0.12});
        },
        1, 4);
    k.part(n, 0, 1, box({0, 0, 0.5}, {hx, hy, 0.5}), con);
    k.collide(n, box({0, 0, 1.3}, {hx + 0.2, hy + 0.2, 1.3}), 16);
    path_graph(k, hx, hy, kPod, 2);
}

void tower(Kit& k) {
    uint16_t con = k.mat("CONCRETE");
    int base = k.node("tower", -1, {});
    k.lods(base, con, [&](int) { return prism(1.6, 9.0, 6); });
    k.lods(base, k.mat("METAL_01"), [&](int) { return box({0, 0, 9.2}, {2.2, 2.2, 0.2}); });
    int lamp = k.node("searchlight", base, {0, 0, 9.4}, 0x800);
    k.lods(lamp, k.mat("METAL_01"), [&](int lod) {
        return along_x(cylinder(0.4, 0.55, 0.8, segs(lod, 12)), {-0.4, 0, 0.5});
    });
    k.lods(
        lamp, k.mat("LAMP_GLOW"),
        [&](int lod) {
            return along_x(cylinder(0.5, 0.5, 0.05, segs(lod, 12)), {0.4, 0, 0.5});
        },
        2, 4, 0x8);
    k.spin(lamp, {0, 0, 1}, {0, 24, 48, 72, 96}, {0, 60, 0, -60, 0});
    k.collide(base, prism(2.2, 9.6, 6), 16);
    k.label(lamp, "Searchlight");
    path_graph(k, 2.5, 2.5, kPod, 1);
}

void wall(Kit& k) {
    uint16_t con = k.mat("CONCRETE");
    int n = k.node("wall", -1, {});
    for (int i = 0; i < 3; ++i) {
        k.lods(n, con, [&](int) { return box({4.0 * i, 0, 1.5}, {2.0, 0.4, 1.5}); });
        k.lods(
            n, k.mat("METAL_RUST"),
            [&](int) {
                return box({4.0 * i, 0, 3.1}, {1.9, 0.3, 0.1});
            },
            i == 1 ? 1 : 2);
    }
    k.collide(n, box({4.0, 0, 1.6}, {6.0, 0.4, 1.6}), 16);
    // The one fortification without a path graph (Res17 size 0).
}

void gate(Kit& k) {
    uint16_t con = k.mat("CONCRETE");
    uint16_t door = k.mat("DOOR_STEEL");
    int base = k.node("gate", -1, {});
    for (int s = -1; s <= 1; s += 2)
        k.lods(base, con, [&](int) { return box({0, s * 3.5, 2.5}, {1.0, 1.0, 2.5}); });
    k.lods(
        base, con,
        [&](int) {
            return box({0, 0, 5.3}, {1.0, 4.5, 0.3});
        },
        2);
    int doors[2];
    for (int s = 0; s < 2; ++s) {
        doors[s] = k.node(s ? "door_r" : "door_l", base, {0, s ? 1.25 : -1.25, 0});
        k.lods(doors[s], door, [&](int) { return box({0, 0, 2.5}, {0.2, 1.25, 2.5}); });
        k.part(doors[s], 0, 0, box({0.22, s ? -0.9 : 0.9, 2.5}, {0.03, 0.1, 0.4}), k.mat("HAZARD"));
        double dir = s ? 1 : -1;
        k.animate(doors[s], {0, 10, 30, 40, 48}, [&](double t) {
            double open = t <= 10 ? 0.0 : t >= 30 && t <= 40 ? 1.0 : t < 30 ? (t - 10) / 20 : 0.0;
            return Motion{{0, dir * 2.4 * open, 0}, {}};
        });
    }
    k.label(doors[0], "Door L");
    k.collide(base, box({0, 0, 2.8}, {1.0, 4.5, 2.8}), 16);
    path_graph(k, 1.0, 4.5, kDock, 1);
}

void factory(Kit& k) {
    uint16_t wallm = k.mat("BRICK_02");
    uint16_t metal = k.mat("METAL_01");
    int main = k.node("central", -1, {}, 0x40);
    k.lods(main, wallm, [&](int) { return box({0, 0, 3.0}, {8.0, 5.0, 3.0}); });
    k.lods(main, k.mat("ROOF_TILE"), [&](int) {
        return moved(wedge({8.0, 5.0, 1.5}), {0, 0, 6.0});
    });
    for (int c = 0; c < 2; ++c)
        k.lods(main, k.mat("PIPE"), [&](int lod) {
            return moved(cylinder(0.6, 0.45, 6.0, segs(lod, 12)), {-5.0 + 3.0 * c, 3.0, 6.0});
        });
    int crane = k.node("crane", main, {5.0, -6.0, 0});
    k.lods(crane, metal, [&](int) { return box({0, 0, 4.0}, {0.3, 0.3, 4.0}); });
    k.lods(crane, metal, [&](int) { return box({2.0, 0, 8.1}, {3.0, 0.2, 0.2}); });
    int hook = k.node("hook", crane, {4.5, 0, 7.9});
    k.lods(
        hook, k.mat("HAZARD"),
        [&](int) {
            return box({0, 0, -0.3}, {0.25, 0.25, 0.3});
        },
        2);
    k.spin(crane, {0, 0, 1}, {0, 32, 64, 96}, {0, 70, 70, 0});
    k.animate(hook, {0, 16, 32, 48, 64, 80, 96}, [](double t) {
        return Motion{{0, 0, -2.5 * std::sin(kPi * t / 96)}, {}};
    });
    k.collide(main, box({0, 0, 3.5}, {8.0, 5.0, 3.5}), 16);
    k.label(main, "Factory");
    k.label(crane, "");
    k.label(hook, "Hook");
    path_graph(k, 8.0, 5.0, kStore, 2);
}

void pod_base(Kit& k) {
    uint16_t con = k.mat("CONCRETE");
    int pad = k.node("pad", -1, {});
    k.lods(pad, con, [&](int lod) { return cylinder(5.0, 4.6, 0.5, segs(lod, 20)); });
    for (int p = 0; p < 4; ++p) {
        int pod = k.node("pod" + std::to_string(p + 1), pad,
                         {3.0 * std::cos(deg(90 * p + 45)), 3.0 * std::sin(deg(90 * p + 45)), 0.5});
        k.lods(
            pod, k.mat("GLASS_BLUE"),
            [&](int lod) {
                return capsule(0.7, 0.4, segs(lod, 12), rings(lod, 4)).translate({0, 0, 1.1});
            },
            3, 4, 0x8);
    }
    k.collide(pad, prism(5.0, 2.4, 8), 16);
    path_graph(k, 5.0, 5.0, kPod, 4);
}

void dock(Kit& k) {
    uint16_t con = k.mat("CONCRETE");
    int n = k.node("dock", -1, {});
    k.lods(n, con, [&](int) { return box({0, 0, 0.6}, {4.0, 3.0, 0.6}); });
    k.lods(n, k.mat("ASPHALT"), [&](int) {
        return turned(wedge({3.0, 1.5, 1.2}), {0, 0, 1}, 90, {5.5, 0, 0});
    });
    for (int s = -1; s <= 1; s += 2)
        k.lods(
            n, k.mat("LAMP_GLOW"),
            [&](int lod) {
                return moved(cylinder(0.12, 0.12, 1.5, segs(lod, 8)), {3.6, s * 2.6, 1.2});
            },
            2);
    k.collide(n, box({1.0, 0, 0.7}, {5.5, 3.0, 0.7}), 16);
    path_graph(k, 4.0, 3.0, kDock, 2);
}

void store(Kit& k) {
    BuildingStyle s{4.0, 3.0, 1.8, true, false, true, false};
    building(k, s);
    path_graph(k, 4.0, 3.0, kStore, 3);
}

void mine(Kit& k) {
    uint16_t metal = k.mat("METAL_RUST");
    int base = k.node("shaft", -1, {});
    k.lods(base, metal, [&](int) { return box({0, 0, 3.0}, {1.5, 1.5, 3.0}); });
    k.lods(base, k.mat("CONCRETE"),
           [&](int lod) { return cylinder(2.5, 2.5, 0.4, segs(lod, 16)); });
    int wheel = k.node("wheel", base, {0, 0, 6.4});
    k.lods(wheel, metal, [&](int lod) {
        return along_y(cylinder(1.2, 1.2, 0.2, segs(lod, 16)), {0, -0.1, 0});
    });
    k.spin(wheel, {0, 1, 0}, steps(12, 48), {0, 90, 180, 270, 360});
    k.collide(base, box({0, 0, 3.6}, {2.5, 2.5, 3.6}), 16);
    path_graph(k, 2.5, 2.5, kMine, 3);
}

// ---- system -----------------------------------------------------------------------------------

void mtcheck(Kit& k) {
    k.spec.legacy24 = true;
    uint16_t black = k.mat("CHECK_BLACK");
    uint16_t white = k.mat("CHECK_WHITE");
    int board = k.node("", -1, {});
    for (int i = 0; i < 16; ++i)
        k.lods(
            board, (i + i / 4) % 2 ? white : black,
            [&](int) {
                return box({(i % 4) * 0.5 - 0.75, (i / 4) * 0.5 - 0.75, 0.05}, {0.25, 0.25, 0.05});
            },
            i % 3 == 0 ? 3 : 2);
    int pole = k.node("", board, {});
    k.lods(pole, black, [&](int lod) {
        return moved(cylinder(0.05, 0.05, 1.5, segs(lod, 8)), {1.2, 1.2, 0});
    });
    k.collide(board, box({0, 0, 0.05}, {1.0, 1.0, 0.05}), 16);
}

void shade(Kit& k) {
    int n = k.node("shade", -1, {});
    k.lods(
        n, k.mat("LIGHT1"), [&](int lod) { return cylinder(1.0, 1.0, 0.02, segs(lod, 16)); }, 3, 4);
}

void arrow(Kit& k) {
    uint16_t green = k.mat("ARROW_GRN");
    int n = k.node("arrow", -1, {});
    k.lods(n, green, [&](int lod) { return downward(cone(0.4, 0.6, segs(lod, 12)), {0, 0, 0.6}); });
    k.lods(n, green, [&](int lod) {
        return moved(cylinder(0.15, 0.15, 1.0, segs(lod, 8)), {0, 0, 0.6});
    });
}

void cursor(Kit& k) {
    uint16_t m = k.mat("CURSOR_YEL");
    int root = k.node("Base_TM", -1, {});
    int ring = k.node("ring", root, {0, 0, 0.1});
    for (int i = 0; i < 4; ++i)
        k.lods(
            ring, m,
            [&](int) {
                return turned(wedge({0.15, 0.3, 0.1}), {0, 0, 1}, 90.0 * i,
                              {0.8 * std::cos(deg(90 * i)), 0.8 * std::sin(deg(90 * i)), 0});
            },
            i == 3   ? 1
            : i == 1 ? 2
                     : 3);
    k.spin(ring, {0, 0, 1}, steps(8, 32), {0, 90, 180, 270, 360});
}

void select_ring(Kit& k) {
    uint16_t m = k.mat("SELECT_GRN");
    int n = k.node("select", -1, {});
    for (int i = 0; i < 8; ++i)
        k.lods(
            n, m,
            [&](int) {
                return turned(box({1.2, 0, 0.02}, {0.08, 0.4, 0.02}), {0, 0, 1}, 45.0 * i);
            },
            i % 4 == 0   ? 3
            : i % 4 == 2 ? 2
                         : 1,
            4);
}

void flag(Kit& k) {
    int pole = k.node("pole", -1, {});
    k.lods(pole, k.mat("METAL_01"),
           [&](int lod) { return cylinder(0.05, 0.04, 3.0, segs(lod, 8)); });
    int prev = pole;
    for (int i = 0; i < 4; ++i) {
        int seg = k.node("flag" + std::to_string(i + 1), prev, {i ? 0.4 : 0.05, 0, i ? 0.0 : 2.6});
        k.lods(
            seg, k.mat("FLAG_RED"),
            [&](int) {
                return box({0.2, 0, -0.3}, {0.2, 0.01, 0.3});
            },
            3 - (i == 3), 0, 0x200);
        k.animate(seg, steps(4, 24), [&](double t) {
            return Motion{{},
                          axis_angle({0, 0, 1}, deg(15 * std::sin(2 * kPi * (t / 24 - 0.2 * i))))};
        });
        prev = seg;
    }
}

void waypoint(Kit& k) {
    int n = k.node("waypnt", -1, {});
    k.lods(n, k.mat("ARROW_GRN"), [&](int) { return prism(0.3, 1.2, 5); });
    k.lods(
        n, k.mat("LAMP_GLOW"),
        [&](int lod) {
            return moved(sphere(0.25, segs(lod, 10), rings(lod, 6)), {0, 0, 1.45});
        },
        3, 4);
}

void beacon(Kit& k) {
    int base = k.node("base", -1, {});
    k.lods(base, k.mat("METAL_01"),
           [&](int lod) { return cylinder(0.6, 0.4, 0.5, segs(lod, 12)); });
    int light = k.node("light", base, {0, 0, 0.9}, 0x800);
    k.lods(
        light, k.mat("LAMP_GLOW"),
        [&](int lod) { return sphere(0.3, segs(lod, 10), rings(lod, 6)); }, 3, 4, 0x8);
    k.animate(light, steps(5, 40), [](double t) {
        return Motion{{0, 0, 0.2 * std::sin(2 * kPi * t / 40)}, {}};
    });
}

// ---- weapons ----------------------------------------------------------------------------------

void rocket(Kit& k, bool spinning, bool deploying) {
    uint16_t body_m = k.mat("ROCKET_W");
    uint16_t head_m = k.mat("WARHEAD");
    int body = k.node("body", -1, {});
    k.lods(body, body_m,
           [&](int lod) { return along_x(cylinder(0.12, 0.12, 1.2, segs(lod, 12))); });
    k.lods(body, head_m, [&](int lod) {
        return along_x(cone(0.12, 0.35, segs(lod, 12)), {1.2, 0, 0});
    });
    k.part(body, 0, 3, along_x(prism(0.13, 1.55, 4)), body_m); // group 3
    int fins = k.node("fins", body, {0.05, 0, 0});
    for (int f = 0; f < 4; ++f)
        k.lods(
            fins, k.mat("ROCKET_FIN"),
            [&](int) {
                return turned(turned(wedge({0.01, 0.15, 0.2}), {0, 0, 1}, 90, {0.15, 0, 0.12}),
                              {1, 0, 0}, 90.0 * f);
            },
            2);
    k.node("Base_trail", body, {-0.05, 0, 0});
    if (spinning) k.spin(fins, {1, 0, 0}, steps(4, 16), {0, 90, 180, 270, 360});
    if (deploying) k.spin(fins, {1, 0, 0}, {0, 6, 12}, {0, 30, 45});
}

void shell(Kit& k, bool bomb) {
    uint16_t m = k.mat(bomb ? "BOMB_OLIVE" : "BRASS");
    int n = k.node(bomb ? "bomb" : "shell", -1, {});
    if (bomb) {
        k.lods(n, m,
               [&](int lod) { return along_x(capsule(0.25, 0.35, segs(lod, 12), rings(lod, 4))); });
        for (int f = 0; f < 4; ++f)
            k.lods(
                n, k.mat("ROCKET_FIN"),
                [&](int) {
                    return turned(box({-0.7, 0, 0.25}, {0.15, 0.01, 0.12}), {1, 0, 0}, 90.0 * f);
                },
                2);
    } else {
        k.lods(n, m, [&](int lod) { return along_x(cylinder(0.06, 0.06, 0.3, segs(lod, 10))); });
        k.lods(n, k.mat("WARHEAD"), [&](int lod) {
            return along_x(cone(0.06, 0.15, segs(lod, 10)), {0.3, 0, 0});
        });
    }
}

void landmine(Kit& k) {
    uint16_t m = k.mat("BOMB_OLIVE");
    int n = k.node("mine", -1, {});
    k.lods(n, m, [&](int lod) { return cylinder(0.4, 0.35, 0.15, segs(lod, 14)); });
    for (int i = 0; i < 3; ++i)
        k.lods(
            n, k.mat("METAL_01"),
            [&](int lod) {
                return moved(cone(0.04, 0.12, segs(lod, 6)),
                             {0.2 * std::cos(deg(120 * i)), 0.2 * std::sin(deg(120 * i)), 0.15});
            },
            2);
}

void gatling(Kit& k) {
    uint16_t metal = k.mat("BARREL_DK");
    int mount = k.node("mount", -1, {});
    k.lods(mount, k.mat("METAL_01"), [&](int) { return box({-0.3, 0, 0}, {0.35, 0.2, 0.2}); });
    int drum = k.node("barrels", mount, {0.05, 0, 0});
    for (int b = 0; b < 6; ++b)
        k.lods(
            drum, metal,
            [&](int lod) {
                return along_x(cylinder(0.035, 0.035, 1.0, segs(lod, 8)),
                               {0, 0.1 * std::cos(deg(60 * b)), 0.1 * std::sin(deg(60 * b))});
            },
            b % 2 ? 2 : 3);
    k.spin(drum, {1, 0, 0}, {0, 2, 4, 6, 8}, {0, 90, 180, 270, 360});
    k.node("Base_fire", drum, {1.0, 0, 0});
}

void laser_gun(Kit& k) {
    int body = k.node("body", -1, {});
    k.lods(body, k.mat("METAL_01"), [&](int) { return box({0, 0, 0}, {0.5, 0.15, 0.15}); });
    int lens = k.node("lens", body, {0.5, 0, 0}, 0x800);
    k.lods(
        lens, k.mat("LASER_LENS"),
        [&](int lod) { return along_x(cylinder(0.1, 0.07, 0.4, segs(lod, 10))); }, 3, 4, 0x8);
    k.animate(lens, {0, 3, 5, 12}, [](double t) {
        return Motion{{t == 3 ? -0.12 : 0.0, 0, 0}, {}};
    });
    k.label(body, "Laser body");
    k.label(lens, "Lens");
}

void plasma(Kit& k) {
    uint16_t glow = k.mat("PLASMA_GLOW");
    int core = k.node("core", -1, {});
    k.lods(
        core, glow, [&](int lod) { return sphere(0.3, segs(lod, 12), rings(lod, 7)); }, 3, 4, 0x8);
    for (int r = 0; r < 2; ++r) {
        int ring =
            k.node(r ? "ring_b" : "ring_a", core, {}, 0, axis_angle({1, 0, 0}, deg(r ? 90 : 0)));
        for (int i = 0; i < 6; ++i)
            k.lods(
                ring, k.mat("PLASMA_RING"),
                [&](int) {
                    return turned(box({0.5, 0, 0}, {0.03, 0.12, 0.03}), {0, 0, 1}, 60.0 * i);
                },
                2, 34);
        k.spin(ring, {0, 0, 1}, steps(5, 20), {0, 72, 144, 216, 288, 360});
    }
}

} // namespace msh::samples
