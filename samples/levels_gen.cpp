#include "samples/levels_gen.hpp"

#include "formats/assembly.hpp"
#include "formats/mission.hpp"
#include "formats/names.hpp"
#include "formats/nres.hpp"
#include "formats/object_registry.hpp"
#include "formats/terrain.hpp"
#include "samples/kit.hpp"
#include "samples/rng.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <stdexcept>

namespace msh::samples {

namespace {

// ---- part models (parts.rlb) ------------------------------------------------------------------

// A bridge half runs from its origin along +x to here, where the other half (turned by pi) meets
// it (level.md §3.2: bridges are two halves placed pi apart).
constexpr double kBridgeLength = 12.0;

// The hangar's hall-way graph (msh.md §7): a centre, four bays the housed units stand at, a
// corridor point, the door and the apron outside.
constexpr uint32_t kGround = 0x10000000, kPod = 0x40, kDock = 0x20 | 0x200 | 0x400;
const int kHangarBays[] = {1, 2, 3, 4};

Bytes hangar_graph(uint32_t& nodes, uint32_t& links) {
    struct P {
        double x, y;
        uint32_t flags;
    };
    const P pts[] = {{0, 0, kGround},
                     {-3.5, -2.5, kGround | kPod},
                     {3.5, -2.5, kGround | kPod},
                     {3.5, 2.5, kGround | kPod},
                     {-3.5, 2.5, kGround | kPod},
                     {4.5, 0, kGround},
                     {7.5, 0, kGround | kDock},
                     {10.5, 0, kGround}};
    const std::pair<uint32_t, uint32_t> edges[] = {{0, 1}, {0, 2}, {0, 3}, {0, 4},
                                                   {0, 5}, {5, 6}, {6, 7}};
    ByteWriter w;
    uint32_t i = 0;
    for (const P& p : pts) {
        w.put(float(p.x));
        w.put(float(p.y));
        w.put(0.0f);
        w.put(p.flags);
        w.put(uint32_t(1 + (i++ * 7 + 3) % 5)); // unknown word: varied, non-zero
    }
    for (auto [from, to] : edges) {
        w.put(from);
        w.put(to);
        for (int j = 0; j < 8; ++j) w.put(uint32_t(0xFFFFFFFFu));
    }
    nodes = uint32_t(std::size(pts));
    links = uint32_t(std::size(edges));
    return w.take();
}

void chassis_tracked(Kit& k) {
    const uint16_t hull = k.mat("TANK_CAMO"), tracks = k.mat("TRACKS"), wheel = k.mat("WHEEL");
    const int body = k.node("body", -1, {}, 0x40);
    k.lods(body, hull, [](int) { return box({0, 0, 0.95}, {1.8, 0.9, 0.35}); });
    k.lods(
        body, hull,
        [](int) {
            return turned(wedge({0.8, 0.5, 0.4}), {0, 0, 1}, 90, {2.3, 0, 0.6});
        },
        2);
    for (int s = -1; s <= 1; s += 2) {
        k.lods(
            body, tracks,
            [s](int) {
                return box({0, s * 1.1, 0.45}, {1.9, 0.25, 0.45});
            },
            3, 16);
        for (int w = 0; w < 3; ++w)
            k.lods(
                body, wheel,
                [s, w](int lod) {
                    return along_y(cylinder(0.38, 0.38, 0.1, segs(lod, 12)),
                                   {-1.2 + 1.2 * w, s * 1.4 - 0.05, 0.45});
                },
                2);
    }
    k.node("Base_TL", body, {0.2, 0, 1.3});
    k.node("Base_ARM", body, {1.2, 0, 0.9});
    k.node("Base_INT", body, {-1.0, 0, 0.8});
    const int cp = k.node("CP_m1o1", body, {}, 0x20);
    k.collide(cp, box({0, 0, 0.65}, {1.9, 1.35, 0.65}), 2);
}

void chassis_walker(Kit& k) {
    const uint16_t hull = k.mat("TANK_CAMO"), metal = k.mat("METAL_01");
    const int body = k.node("body", -1, {}, 0x40);
    k.lods(body, hull, [](int lod) {
        return scaled(sphere(1.0, segs(lod, 12), rings(lod, 6)), {1.2, 0.9, 0.6}, {0, 0, 2.4});
    });
    for (int s = -1; s <= 1; s += 2) {
        const int leg = k.node(s < 0 ? "leg_l" : "leg_r", body, {0, s * 0.8, 2.2});
        k.lods(leg, metal,
               [](int lod) { return downward(cylinder(0.18, 0.14, 1.9, segs(lod, 8))); });
        k.lods(
            leg, metal,
            [](int) {
                return box({0.2, 0, -2.05}, {0.45, 0.25, 0.15});
            },
            2);
        k.spin(leg, {0, 1, 0}, {0, 10, 20, 30, 40}, {0, 15.0 * s, 0, -15.0 * s, 0});
    }
    k.node("Base_TL", body, {0, 0, 3.0});
    k.node("Base_ARM", body, {0.6, 0, 2.4});
    const int cp = k.node("CP_m1o1", body, {}, 0x20);
    k.collide(cp, box({0, 0, 1.5}, {1.2, 1.0, 1.5}), 2);
}

void light_turret(Kit& k) {
    const uint16_t metal = k.mat("TURRET_CAM"), dark = k.mat("BARREL_DK");
    const int t = k.node("turret", -1, {});
    k.lods(t, metal, [](int lod) { return cylinder(0.9, 0.75, 0.45, segs(lod, 16)); });
    k.lods(
        t, metal,
        [](int) {
            return box({0.1, 0, 0.7}, {0.65, 0.55, 0.25});
        },
        2);
    k.part(t, 0, 0, box({-0.55, 0, 1.2}, {0.04, 0.04, 0.3}), dark);
    k.node("Base_gun", t, {0.75, 0, 0.7});
    k.node("Base_LU_01", t, {0, 0.6, 0.9});
}

void cannon(Kit& k) {
    const uint16_t dark = k.mat("BARREL_DK"), metal = k.mat("METAL_01");
    const int g = k.node("gun", -1, {}, 0x800);
    k.lods(g, dark, [](int lod) { return along_x(cylinder(0.1, 0.08, 1.6, segs(lod, 10))); });
    k.lods(
        g, metal,
        [](int) {
            return box({-0.1, 0, 0}, {0.22, 0.16, 0.16});
        },
        2);
    k.node("Base_clip", g, {-0.15, 0, -0.25});
    k.node("Base_fire", g, {1.6, 0, 0});
}

void laser(Kit& k) {
    const uint16_t metal = k.mat("METAL_01"), lens = k.mat("LASER_LENS");
    const int g = k.node("gun", -1, {}, 0x800);
    k.lods(g, metal, [](int lod) { return along_x(cylinder(0.12, 0.12, 1.2, segs(lod, 10))); });
    k.lods(
        g, lens,
        [](int lod) {
            return moved(sphere(0.14, segs(lod, 8), rings(lod, 4)), {1.25, 0, 0});
        },
        2, 4, 0x8);
    k.node("Base_clip", g, {-0.1, 0, -0.2});
    k.node("Base_fire", g, {1.4, 0, 0});
}

void armour_plate(Kit& k) {
    const uint16_t m = k.mat("METAL_01");
    const int p = k.node("plate", -1, {});
    k.lods(p, m, [](int) { return box({0, 0, 0}, {0.5, 0.6, 0.06}); });
    for (int i = 0; i < 4; ++i)
        k.lods(
            p, m,
            [i](int lod) {
                return moved(cylinder(0.05, 0.05, 0.04, segs(lod, 8)),
                             {i % 2 ? 0.4 : -0.4, i / 2 ? 0.5 : -0.5, 0.06});
            },
            2);
}

void engine(Kit& k) {
    const int e = k.node("engine", -1, {});
    k.lods(e, k.mat("METAL_RUST"), [](int lod) {
        return along_x(cylinder(0.35, 0.35, 1.0, segs(lod, 12)), {-0.5, 0, 0});
    });
    k.lods(
        e, k.mat("PIPE"),
        [](int lod) {
            return moved(cylinder(0.08, 0.08, 0.4, segs(lod, 8)), {0.2, 0, 0.3});
        },
        2);
}

void ammo_clip(Kit& k) {
    const int c = k.node("clip", -1, {});
    k.lods(c, k.mat("METAL_01"), [](int) { return box({0, 0, -0.15}, {0.2, 0.12, 0.15}); });
    const uint16_t head = k.mat("WARHEAD");
    for (int i = 0; i < 3; ++i)
        k.lods(
            c, head,
            [i](int lod) {
                return moved(cylinder(0.035, 0.035, 0.08, segs(lod, 8)), {-0.1 + 0.1 * i, 0, 0});
            },
            2);
}

void hangar(Kit& k) {
    const int h = k.node("hangar", -1, {}, 0x40);
    k.lods(h, k.mat("CONCRETE"), [](int) { return box({0, 0, 2.5}, {7.0, 5.0, 2.5}); });
    k.lods(h, k.mat("ROOF_TILE"), [](int lod) {
        return along_x(cylinder(4.5, 4.5, 14.0, segs(lod, 16)), {-7.0, 0, 5.0});
    });
    k.lods(
        h, k.mat("DOOR_STEEL"),
        [](int) {
            return box({7.05, 0, 1.8}, {0.1, 2.0, 1.8});
        },
        2);
    const int in = k.node("i_hall", h, {0, 0, 0.05}, 0x01);
    k.lods(
        in, k.mat("HAZARD"),
        [](int) {
            return box({0, 0, 0.05}, {6.5, 4.5, 0.05});
        },
        2);
    k.label(in, "interior");
    k.node("Base_turret", h, {0, 0, 9.5});
    k.collide(h, box({0, 0, 4.75}, {7.0, 5.0, 4.75}), 16);
    k.spec.res17 = hangar_graph(k.spec.res17_nodes, k.spec.res17_links);
}

void bridge_half(Kit& k) {
    constexpr double L = kBridgeLength;
    const uint16_t con = k.mat("CONCRETE"), rust = k.mat("METAL_RUST");
    const int d = k.node("deck", -1, {});
    k.lods(d, con, [](int) { return box({L / 2, 0, 2.2}, {L / 2, 2.0, 0.25}); });
    k.lods(d, con, [](int lod) {
        return moved(cylinder(0.6, 0.5, 2.0, segs(lod, 10)), {2.0, 0, 0});
    });
    for (int s = -1; s <= 1; s += 2)
        k.lods(
            d, rust,
            [s](int) {
                return box({L / 2, 1.9 * s, 2.8}, {L / 2, 0.05, 0.35});
            },
            2, 0, 0x200);
    k.collide(d, box({L / 2, 0, 1.25}, {L / 2, 2.0, 1.25}), 16);
}

struct PartModel {
    const char* member;
    void (*build)(Kit&);
};
const PartModel kPartModels[] = {
    {"R_Trk_01.msh", chassis_tracked}, {"R_Wlk_01.msh", chassis_walker},
    {"T_Tur_01.msh", light_turret},    {"E_Gun_01.msh", cannon},
    {"E_Las_01.msh", laser},           {"I_Arm_01.msh", armour_plate},
    {"I_Eng_01.msh", engine},          {"A_Clip_01.msh", ammo_clip},
    {"Hangar_01.msh", hangar},         {"Bridge_H.msh", bridge_half},
};

std::string stem(const std::string& name) {
    return name.substr(0, name.rfind('.'));
}

// parts.rlb as the generator writes the other model archives (MESH + WEAR per model); the node
// names of each model by member name, for the sockets the assemblies attach to.
GeneratedFile parts_archive(const Options& options,
                            std::map<std::string, std::vector<std::string>>& node_names) {
    nres::Archive archive;
    for (const PartModel& p : kPartModels) {
        Kit k(options, std::string(kPartsArchive) + ":" + p.member);
        p.build(k);
        BuiltModel b = build_model(k.spec);
        if (b.material_rows != k.materials.size())
            throw std::logic_error(std::string(p.member) +
                                   ": WEAR rows and batch materials disagree");
        std::vector<std::string>& names = node_names[lower_ascii(p.member)];
        for (const NodeSpec& n : k.spec.nodes) names.push_back(n.name);

        nres::Entry mesh;
        mesh.type = nres::fourcc("MESH");
        mesh.set_name(p.member);
        mesh.data = std::move(b.image);
        archive.entries.push_back(std::move(mesh));

        std::string text = std::to_string(k.materials.size()) + "\r\n";
        for (const std::string& m : k.materials)
            text += std::to_string(hash_name(m) % 900 + 100) + " " + m + "\r\n";
        nres::Entry wear;
        wear.type = nres::fourcc("WEAR");
        wear.set_name(stem(p.member) + ".wea");
        wear.attr3 = 1;
        wear.data = Bytes(text.begin(), text.end());
        archive.entries.push_back(std::move(wear));
    }
    return {kPartsArchive, nres::write_canonical(archive)};
}

// ---- the registry (objects.rlb) ---------------------------------------------------------------

// Scenery: a STAT record naming a static.rlb model under a key of its own.
struct SceneryKey {
    const char* key;
    const char* stem; // static.rlb member without ".msh"
    uint32_t kind;    // 2 vegetation, 3 rock
    int weight;       // how often missions place it
};
const SceneryKey kScenery[] = {
    {"s_tree_06", "Tree_Pine", 2, 24}, {"s_tree_02", "tree_oak", 2, 18},
    {"s_rock_01", "Rock_A", 3, 14},    {"s_rock_04", "ROCK_B", 3, 12},
    {"s_lamp_01", "Lamp_Post", 3, 6},  {"s_fence_a", "Fence_01", 3, 6},
    {"s_box_01", "A_B", 3, 5},         {"s_barrel_2", "aab", 3, 5},
    {"s_house_01", "House_01", 3, 6},  {"s_mill_01", "Windmill", 3, 4},
};

// A unit part: a record naming a parts.rlb model.
struct PartKey {
    const char* key;
    const char* tag;
    const char* stem;
    const char* title; // the display name in a .dat, with a number
};
const PartKey kPartKeys[] = {
    {"r_l_01", "EXTO", "R_Trk_01", "Light Track Chs (L-%dt)"},
    {"r_m_03", "EXTO", "R_Wlk_01", "Medium Walker Chs (M-%dw)"},
    {"t_tl_01", "EXTO", "T_Tur_01", "Light Turret (LT%d)"},
    {"e_gun_bl_02", "WPNS", "E_Gun_01", "Cannon (C-%d)"},
    {"e_gun_las_01", "WPNS", "E_Las_01", "Laser (LS%d)"},
    {"i_arm_b_02", "INTO", "I_Arm_01", "ARMOUR LA.Mk%d"},
    {"i_eng_b_03", "INTO", "I_Eng_01", "Large engine (LEng%d)"},
    {"u_clip_01", "INTO", "A_Clip_01", "Shell clip (SC%d)"},
};

// A building's prototype (the model) and its FORT record (no model: a parent slot).
struct BuildingKey {
    const char* fort;
    const char* proto;
    const char* archive;
    const char* stem;
    const char* title;
};
const BuildingKey kBuildings[] = {
    {"fr_gener_01", "fb_factory", "fortif.rlb", "Factory", "Power generator G-%d"},
    {"fr_gener_02", "fb_hangar", kPartsArchive, "Hangar_01", "Hangar generator H-%d"},
    {"fr_tower_01", "fb_tower", "fortif.rlb", "TOWER_A", "Watch tower T-%d"},
    {"fr_bunker_01", "fb_bunker", "fortif.rlb", "BUNKER_1", "Bunker B-%d"},
    {"fr_b_bridge", "fb_bridge", kPartsArchive, "Bridge_H", "Bridge half BR-%d"},
};

// A slot written over an older, longer one: the bytes after the NUL keep what was there (the
// registry's own tools reused their buffers).
registry::Slot slot_over(const std::string& archive, const std::string& member,
                         const std::string& old_archive, const std::string& old_member) {
    registry::Slot s = registry::Slot::make(old_archive, old_member);
    const auto put = [&](size_t at, const std::string& text) {
        const size_t n = std::min(text.size(), registry::kFieldSize - 1);
        std::copy(text.begin(), text.begin() + std::ptrdiff_t(n),
                  s.raw.begin() + std::ptrdiff_t(at));
        s.raw[at + n] = 0;
    };
    put(0, archive);
    put(registry::kFieldSize, member);
    return s;
}

nres::Entry record(const std::string& key, uint32_t tag, const std::vector<registry::Slot>& slots) {
    nres::Entry e;
    e.type = tag;
    e.set_name(key);
    e.data = registry::write_slots(slots);
    return e;
}

uint32_t tag(const char* t) {
    return uint32_t(uint8_t(t[0])) | uint32_t(uint8_t(t[1])) << 8 | uint32_t(uint8_t(t[2])) << 16 |
           uint32_t(uint8_t(t[3])) << 24;
}

GeneratedFile registry_file(const Options& options) {
    Rng rng(options.seed, "levels/objects.rlb");
    nres::Archive archive;
    const auto leftover = [&](std::vector<registry::Slot>& slots, size_t count) {
        // Empty slots, some holding an older name after their first NUL.
        while (slots.size() < count) {
            char old[32];
            std::snprintf(old, sizeof old, "s_tmp_%d.ndp", rng.range(10, 9999));
            slots.push_back(rng.chance(0.3) ? slot_over("", "", "static.rlb", old)
                                            : registry::Slot{});
        }
    };
    for (const SceneryKey& s : kScenery) {
        std::vector<registry::Slot> slots;
        const std::string msh = std::string(s.stem) + ".msh", wea = std::string(s.stem) + ".wea";
        char old[32];
        std::snprintf(old, sizeof old, "%s_v%d.msh", s.stem, rng.range(2, 99));
        slots.push_back(rng.chance(0.5) ? slot_over("static.rlb", msh, "static.rlb", old)
                                        : registry::Slot::make("static.rlb", msh));
        slots.push_back(registry::Slot::make("static.rlb", wea));
        leftover(slots, 6);
        archive.entries.push_back(record(s.key, tag("STAT"), slots));
    }
    for (const PartKey& p : kPartKeys) {
        std::vector<registry::Slot> slots = {
            registry::Slot::make(kPartsArchive, std::string(p.stem) + ".msh"),
            registry::Slot::make(kPartsArchive, std::string(p.stem) + ".wea")};
        leftover(slots, 5);
        archive.entries.push_back(record(p.key, tag(p.tag), slots));
    }
    for (const BuildingKey& b : kBuildings) {
        std::vector<registry::Slot> slots = {
            registry::Slot::make(b.archive, std::string(b.stem) + ".msh"),
            registry::Slot::make(b.archive, std::string(b.stem) + ".wea")};
        leftover(slots, 5);
        archive.entries.push_back(record(b.proto, tag("EXTO"), slots));
    }
    for (const BuildingKey& b : kBuildings) {
        // level.md §3.1: a FORT record names no model, only its prototype.
        std::vector<registry::Slot> slots = {registry::Slot::make(kRegistryFile, b.proto)};
        leftover(slots, 2);
        archive.entries.push_back(record(b.fort, tag("FORT"), slots));
    }
    return {kRegistryFile, nres::write_canonical(archive)};
}

// ---- unit assemblies (UNITS/**/*.dat) ---------------------------------------------------------

struct Comp {
    std::string key;
    uint32_t part_class = 0;
    std::string socket; // the node of the parent's model it attaches to
    std::vector<Comp> children;
};

struct UnitFile {
    std::string disk; // the path in the corpus
    std::string tma;  // as data.tma names it (backslashes, its own case)
    uint32_t class_word;
    Comp root;
};

constexpr uint32_t kWarbot = 0x01008000, kGenerator = 0x80000002;

enum Unit : size_t {
    kGener01,
    kGener02,
    kTower,
    kBunker,
    kBridge,
    kHero,
    kTrack,
    kWalker2,
    kWalker1
};

const std::vector<UnitFile>& unit_files() {
    static const std::vector<UnitFile> files = {
        {"UNITS/BUILDS/GENER/gener01.dat",
         "UNITS\\BUILDS\\GENER\\gener01.dat",
         kGenerator,
         {"fr_gener_01", 0, "", {}}},
        {"UNITS/BUILDS/GENER/Gener02.dat",
         "UNITS\\BUILDS\\GENER\\gener02.dat",
         kGenerator,
         {"fr_gener_02",
          0,
          "",
          {{"t_tl_01", 1, "Base_turret", {{"e_gun_bl_02", 4, "Base_gun", {}}}}}}},
        {"UNITS/BUILDS/TOWER/TOWER01.DAT",
         "UNITS\\BUILDS\\TOWER\\tower01.dat",
         0x80000010,
         {"fr_tower_01", 0, "", {}}},
        {"UNITS/BUILDS/BUNKER/bunk_01.dat",
         "UNITS\\BUILDS\\BUNKER\\Bunk_01.dat",
         0x80000020,
         {"fr_bunker_01", 0, "", {}}},
        {"UNITS/BUILDS/BRIDGE/Bridge01.dat",
         "UNITS\\BUILDS\\BRIDGE\\bridge01.dat",
         0x80000040,
         {"fr_b_bridge", 0, "", {}}},
        {"UNITS/UNITS/HERO/hero_t.dat",
         "UNITS\\UNITS\\HERO\\hero_t.dat",
         kWarbot,
         {"r_l_01",
          0,
          "",
          {{"t_tl_01",
            1,
            "Base_TL",
            {{"e_gun_bl_02", 4, "Base_gun", {{"u_clip_01", 5, "Base_clip", {}}}}}},
           {"i_arm_b_02", 2, "Base_ARM", {}}}}},
        {"UNITS/UNITS/BATTLE/W_B_Trk1.dat",
         "UNITS\\UNITS\\BATTLE\\w_b_trk1.dat",
         kWarbot,
         {"r_l_01",
          0,
          "",
          {{"t_tl_01",
            1,
            "Base_TL",
            {{"e_gun_bl_02", 4, "Base_gun", {{"u_clip_01", 5, "Base_clip", {}}}},
             {"e_gun_las_01", 4, "Base_LU_01", {}}}},
           {"i_arm_b_02", 2, "Base_ARM", {}},
           {"i_eng_b_03", 3, "Base_INT", {}}}}},
        {"UNITS/UNITS/AUTO/w_m_wlk2.dat",
         "UNITS\\UNITS\\AUTO\\w_m_wlk2.dat",
         kWarbot,
         {"r_m_03", 0, "", {{"t_tl_01", 1, "Base_TL", {{"e_gun_las_01", 4, "Base_gun", {}}}}}}},
        {"UNITS/UNITS/AI/w_s_wlk1.dat",
         "UNITS\\UNITS\\AI\\W_S_WLK1.dat",
         kWarbot,
         {"r_m_03",
          0,
          "",
          {{"t_tl_01",
            1,
            "Base_TL",
            {{"e_gun_bl_02", 4, "Base_gun", {{"u_clip_01", 5, "Base_clip", {}}}}}},
           {"i_arm_b_02", 2, "Base_ARM", {}}}}},
    };
    return files;
}

struct KeyInfo {
    std::string member; // the model, lower case
    const char* title;
};

std::map<std::string, KeyInfo> key_infos() {
    std::map<std::string, KeyInfo> keys;
    for (const PartKey& p : kPartKeys)
        keys[p.key] = {lower_ascii(std::string(p.stem) + ".msh"), p.title};
    for (const BuildingKey& b : kBuildings)
        keys[b.fort] = {lower_ascii(std::string(b.stem) + ".msh"), b.title};
    return keys;
}

std::vector<GeneratedFile>
unit_assemblies(const Options& options,
                const std::map<std::string, std::vector<std::string>>& node_names) {
    const std::map<std::string, KeyInfo> keys = key_infos();
    std::vector<GeneratedFile> out;
    for (const UnitFile& u : unit_files()) {
        Rng rng(options.seed, "levels/" + u.disk);
        assembly::Assembly a;
        a.class_word = u.class_word;
        // Depth first: a record, then its children's subtrees.
        const auto add = [&](const auto& self, const Comp& c, const std::string& parent) -> void {
            const KeyInfo& info = keys.at(c.key);
            assembly::Component rec;
            rec.archive = assembly::name32(kRegistryFile);
            rec.record = assembly::name32(c.key);
            rec.flags = 1;
            if (!parent.empty()) {
                const std::vector<std::string>& names = node_names.at(parent);
                const auto it = std::find(names.begin(), names.end(), c.socket);
                if (it == names.end())
                    throw std::logic_error(u.disk + ": no node " + c.socket + " in " + parent);
                rec.attach = int32_t(it - names.begin());
            }
            char title[64];
            std::snprintf(title, sizeof title, info.title, rng.range(2, 999));
            rec.description = assembly::name32(title);
            rec.part_class = c.part_class;
            rec.child_count = int32_t(c.children.size());
            a.components.push_back(rec);
            for (const Comp& child : c.children) self(self, child, info.member);
        };
        add(add, u.root, "");
        out.push_back({u.disk, assembly::write(a)});
    }
    return out;
}

// ---- ground heights ---------------------------------------------------------------------------

// The terrain surface of a Land.msh: z at (x, y) from the face that holds the point (Z up).
class Ground {
  public:
    Ground(const Bytes& land_msh, const std::string& where) {
        const terrain::Terrain t = terrain::read(land_msh, ReadMode::Strict, where);
        pos_ = t.positions;
        for (size_t f = 0; f < t.faces.size(); ++f)
            if (terrain::face_usable(t, f)) tris_.push_back(t.faces[f].v);
        if (pos_.empty() || tris_.empty()) throw std::logic_error(where + ": no terrain");
        lo_x = hi_x = pos_[0].x;
        lo_y = hi_y = pos_[0].y;
        for (const Vec3& p : pos_) {
            lo_x = std::min(lo_x, double(p.x));
            hi_x = std::max(hi_x, double(p.x));
            lo_y = std::min(lo_y, double(p.y));
            hi_y = std::max(hi_y, double(p.y));
        }
        cells_.resize(kCells * kCells);
        for (uint32_t i = 0; i < tris_.size(); ++i) {
            double x0 = 1e300, x1 = -1e300, y0 = 1e300, y1 = -1e300;
            for (uint16_t v : tris_[i]) {
                x0 = std::min(x0, double(pos_[v].x));
                x1 = std::max(x1, double(pos_[v].x));
                y0 = std::min(y0, double(pos_[v].y));
                y1 = std::max(y1, double(pos_[v].y));
            }
            for (int cy = cell_y(y0); cy <= cell_y(y1); ++cy)
                for (int cx = cell_x(x0); cx <= cell_x(x1); ++cx)
                    cells_[size_t(cy * kCells + cx)].push_back(i);
        }
    }

    double lo_x, hi_x, lo_y, hi_y;

    // To 1/1024 of a unit: the last bits of the interpolation differ between compilers (one
    // build's corpus must be every build's), and real placements are no finer.
    double height(double x, double y) const {
        return std::round(exact_height(x, y) * 1024.0) / 1024.0;
    }

  private:
    double exact_height(double x, double y) const {
        for (uint32_t i : cells_[size_t(cell_y(y) * kCells + cell_x(x))]) {
            const Vec3 &a = pos_[tris_[i][0]], &b = pos_[tris_[i][1]], &c = pos_[tris_[i][2]];
            const double d = (double(b.y) - c.y) * (double(a.x) - c.x) +
                             (double(c.x) - b.x) * (double(a.y) - c.y);
            if (std::fabs(d) < 1e-12) continue;
            const double l1 =
                ((double(b.y) - c.y) * (x - c.x) + (double(c.x) - b.x) * (y - c.y)) / d;
            const double l2 =
                ((double(c.y) - a.y) * (x - c.x) + (double(a.x) - c.x) * (y - c.y)) / d;
            const double l3 = 1 - l1 - l2;
            constexpr double e = -1e-9;
            if (l1 >= e && l2 >= e && l3 >= e) return l1 * a.z + l2 * b.z + l3 * c.z;
        }
        // Outside every face (not for points inside the map): the nearest vertex.
        double best = 1e300, z = 0;
        for (const Vec3& p : pos_) {
            const double dd = std::hypot(p.x - x, p.y - y);
            if (dd < best) best = dd, z = p.z;
        }
        return z;
    }

    static constexpr int kCells = 64;
    int cell_x(double x) const {
        return std::clamp(int((x - lo_x) / (hi_x - lo_x) * kCells), 0, kCells - 1);
    }
    int cell_y(double y) const {
        return std::clamp(int((y - lo_y) / (hi_y - lo_y) * kCells), 0, kCells - 1);
    }
    std::vector<Vec3> pos_;
    std::vector<std::array<uint16_t, 3>> tris_;
    std::vector<std::vector<uint32_t>> cells_;
};

// ---- missions (MISSIONS/<dir>/data.tma, descr, mission.cfg) -----------------------------------

enum class Series { Autodemo, Single, Multi, Campaign };

struct MissionPlan {
    std::string dir; // under MISSIONS/
    std::string map;
    Series series;
    int objects;
    int bridges = 0; // pairs of halves
    int housed = 0;  // units inside a hangar
};

std::vector<MissionPlan> standard_plans() {
    return {
        {"Autodemo.00", "SynAuto", Series::Autodemo, 8},
        {"Single.01", "SynTut1", Series::Single, 30, 0, 1},
        {"Single.02", "SynTut1", Series::Single, 26, 1, 0},
        {"Multi.01", "SynProl", Series::Multi, 28, 1, 0},
        {"CAMPAIGN/CAMPAIGN.01/Mission.01", "SynTut2", Series::Campaign, 34, 1, 2},
        {"CAMPAIGN/CAMPAIGN.01/Mission.02", "SynTut2", Series::Campaign, 24, 0, 1},
    };
}

// The plans of a corpus: the standard six, then for a scaled corpus more on every map in turn,
// each map taken by one to two missions, until the game's counts are reached.
std::vector<MissionPlan> mission_plans(const Options& options,
                                       const std::vector<std::string>& maps) {
    std::vector<MissionPlan> plans = standard_plans();
    int standard_objects = 0;
    for (const MissionPlan& p : plans) standard_objects += p.objects;
    if (standard_objects != kStandardObjects || int(plans.size()) != kStandardMissions)
        throw std::logic_error("levels: the standard missions and their counts disagree");
    if (!(options.scale > 0)) return plans;
    const int missions =
        std::max(kStandardMissions, int(std::lround(kGameMissions * options.scale)));
    const int objects = std::max(kStandardObjects, int(std::lround(kGameObjects * options.scale)));
    const int extra = missions - kStandardMissions;
    int surplus = objects - kStandardObjects;
    if (extra == 0) {
        for (int i = 0; surplus > 0; ++i, --surplus) ++plans[size_t(i) % plans.size()].objects;
        return plans;
    }
    Rng rng(options.seed, "levels/plans");
    std::vector<double> weights;
    double sum = 0;
    for (int e = 0; e < extra; ++e) sum += weights.emplace_back(rng.uniform(0.4, 1.6));
    std::vector<int> budget(size_t(extra), 0);
    std::vector<std::pair<double, int>> remainders;
    int given = 0;
    for (int e = 0; e < extra; ++e) {
        const double share = surplus * weights[size_t(e)] / sum;
        budget[size_t(e)] = int(share);
        given += budget[size_t(e)];
        remainders.push_back({share - budget[size_t(e)], e});
    }
    std::sort(remainders.begin(), remainders.end(), std::greater<>());
    for (int i = 0; given < surplus; ++i, ++given) ++budget[size_t(remainders[size_t(i)].second)];
    int single = 3, multi = 2, campaign = 1, mission = 3;
    for (int e = 0; e < extra; ++e) {
        MissionPlan p;
        char dir[64];
        switch (e % 5) {
        case 1:
            p.series = Series::Single;
            std::snprintf(dir, sizeof dir, "Single.%02d", single++);
            break;
        case 3:
            p.series = Series::Multi;
            std::snprintf(dir, sizeof dir, "Multi.%02d", multi++);
            break;
        default:
            p.series = Series::Campaign;
            if (mission > 6) ++campaign, mission = 1;
            std::snprintf(dir, sizeof dir, "CAMPAIGN/CAMPAIGN.%02d/Mission.%02d", campaign,
                          mission++);
        }
        p.dir = dir;
        p.map = maps[size_t(4 + e - e / 4) % maps.size()];
        p.objects = std::max(1, budget[size_t(e)]);
        // Part 1 has nine bridges and 13 housed units over its 29 missions (the evidence's counts).
        p.bridges = (e * 6) % 23 < 6 ? 1 : 0;
        p.housed = (e * 9) % 23 < 9 ? 1 : 0;
        plans.push_back(std::move(p));
    }
    return plans;
}

mission::Property prop_int(const char* name, int32_t value, int32_t minimum = 0,
                           int32_t maximum = -1) {
    return {1, uint32_t(value), uint32_t(minimum), uint32_t(maximum), name};
}

mission::Property prop_float(const char* name, double value, double minimum, double maximum) {
    return {0, std::bit_cast<uint32_t>(float(value)), std::bit_cast<uint32_t>(float(minimum)),
            std::bit_cast<uint32_t>(float(maximum)), name};
}

struct Built {
    mission::Mission mission;
    std::string descr, cfg;
};

class MissionBuilder {
  public:
    MissionBuilder(const Options& options, const MissionPlan& plan, const Ground& ground)
        : plan_(plan), ground_(ground), rng_(options.seed, "levels/mission/" + plan.dir) {
        margin_ = 0.05 * std::min(ground.hi_x - ground.lo_x, ground.hi_y - ground.lo_y);
        next_id_ = rng_.range(1, 40);
    }

    Built build() {
        clans();
        objects();
        routes();
        lodes();
        mission::Mission& m = out_.mission;
        m.map_path = "DATA\\MAPS\\" + plan_.map + "\\land";
        m.mission_flag = plan_.series == Series::Multi || plan_.dir == "Single.01" ? 1 : 0;
        description();
        return std::move(out_);
    }

  private:
    const MissionPlan& plan_;
    const Ground& ground_;
    Rng rng_;
    Built out_;
    double margin_;
    int32_t next_id_;
    std::vector<int32_t> owned_;               // clan indices that own buildings and units
    std::vector<std::array<double, 2>> sites_; // buildings placed so far

    struct Point {
        float x, y, z;
    };
    // A point inside the map, its z on the ground.
    Point point(double margin) {
        const float x = float(rng_.uniform(ground_.lo_x + margin, ground_.hi_x - margin));
        const float y = float(rng_.uniform(ground_.lo_y + margin, ground_.hi_y - margin));
        return {x, y, float(ground_.height(x, y))};
    }
    Point site() {
        Point p{};
        for (int tries = 0; tries < 40; ++tries) {
            p = point(margin_);
            bool clear = true;
            for (const auto& s : sites_) clear &= std::hypot(s[0] - p.x, s[1] - p.y) >= 30;
            if (clear) break;
        }
        sites_.push_back({p.x, p.y});
        return p;
    }
    float heading() { return float(rng_.uniform(0, 2 * kPi)); }

    void clans() {
        std::vector<mission::Clan>& cs = out_.mission.clans;
        const auto add = [&](const std::string& name, uint32_t type) {
            mission::Clan c;
            c.name = name;
            c.type = type;
            cs.push_back(std::move(c));
        };
        add("Nature", 0);
        switch (plan_.series) {
        case Series::Autodemo:
            add("Clan_1", 2);
            add("Clan_2", 2);
            break;
        case Series::Multi:
            for (int i = 1, n = rng_.range(2, 4); i <= n; ++i)
                add("Player_" + std::to_string(i), 1);
            break;
        default:
            add("Player", 1);
            add("Enemy_1", 2);
            if (rng_.chance(0.5)) add("Enemy_2", 2);
            if (rng_.chance(0.3)) add("Neutral", 3);
        }
        int ai = 0, players = 0;
        for (size_t i = 0; i < cs.size(); ++i) {
            mission::Clan& c = cs[i];
            if (c.type != 0) owned_.push_back(int32_t(i));
            const Point base = point(margin_);
            if (c.type != 0) c.base_x = base.x, c.base_y = base.y;
            if (c.type == 1) {
                c.ai_script = "MISSIONS\\SCRIPTS\\scr_pl_" + std::to_string(++players);
                c.behaviour = "MISSIONS\\SCRIPTS\\player.trf";
            } else if (c.type == 2) {
                c.ai_script = "MISSIONS\\SCRIPTS\\scr_ai_" + std::to_string(++ai);
                c.behaviour = "MISSIONS\\SCRIPTS\\ai_" + std::to_string(rng_.range(1, 4)) + ".trf";
            } else if (c.type == 3) {
                c.ai_script = "MISSIONS\\SCRIPTS\\scr_nt_1";
            }
            c.minds = c.type == 0 ? 0 : uint32_t(rng_.range(4, 16));
            const int zones = c.type != 2                        ? 0
                              : plan_.series == Series::Campaign ? rng_.range(1, 2)
                                                                 : rng_.range(0, 1);
            for (int z = 0; z < zones; ++z) {
                const Point p = point(margin_);
                mission::Zone zone;
                zone.kind = 1;
                zone.centre = {p.x, p.y, p.z};
                zone.inner = float(rng_.range(3, 8) * 10);
                zone.outer = zone.inner + float(rng_.range(4, 12) * 10);
                c.zones.push_back(zone);
            }
            for (size_t j = 0; j < cs.size(); ++j)
                if (j != i) c.relations.push_back({cs[j].name, c.type == 2 && cs[j].type == 2});
        }
    }

    int32_t owner() { return owned_[size_t(rng_.range(0, int(owned_.size()) - 1))]; }

    mission::PlacedObject& add(uint32_t kind, const std::string& path, int32_t clan) {
        mission::PlacedObject o;
        o.kind = kind;
        o.path = path;
        o.clan = clan;
        o.logical_id = next_id_;
        next_id_ += rng_.range(1, 3);
        out_.mission.objects.push_back(std::move(o));
        return out_.mission.objects.back();
    }

    void common_properties(mission::PlacedObject& o, uint32_t class_word) {
        o.properties.push_back(prop_int("Invulnerability", rng_.chance(0.1) ? 1 : 0, 0, 1));
        o.properties.push_back(prop_float("Life state", 1.0, 0.0, 1.0));
        o.properties.push_back(prop_int("LogicalID", o.logical_id));
        o.properties.push_back(prop_int("ClanID", o.clan));
        o.properties.push_back(prop_int("Type", int32_t(class_word)));
    }

    void unit(Unit which, const Point& p, float heading, int32_t clan, const std::string& name) {
        const UnitFile& u = unit_files()[which];
        mission::PlacedObject& o = add(1, u.tma, clan);
        o.position = {p.x, p.y, p.z};
        o.rotation = {0, 0, heading};
        o.instance_name = name.empty() ? "Bot_" + std::to_string(o.logical_id) : name;
        common_properties(o, u.class_word);
        o.properties.push_back(prop_float("MaxSpeedPercent", 100.0, 0.0, 100.0));
        o.properties.push_back(prop_float("ChargeRadius", rng_.range(2, 12) * 10.0, 0.0, 500.0));
    }

    mission::PlacedObject& building(Unit which, const Point& p, float heading, int32_t clan) {
        static const char* const prefix[] = {"Gener", "Hangar", "Tower", "Bunker", "Bridge"};
        const UnitFile& u = unit_files()[which];
        mission::PlacedObject& o = add(0, u.tma, clan);
        o.position = {p.x, p.y, p.z};
        o.rotation = {0, 0, heading};
        o.instance_name = std::string(prefix[which]) + "_" + std::to_string(o.logical_id);
        o.start_flag = rng_.chance(0.8) ? 1 : 0;
        common_properties(o, u.class_word);
        if (which == kGener01 || which == kGener02) {
            const double ore = rng_.range(4, 40) * 500.0;
            o.properties.push_back(prop_float("MaximumOre", ore, 0.0, 100000.0));
            o.properties.push_back(
                prop_float("CurrentOre", ore * rng_.range(0, 10) / 10, 0.0, ore));
            o.properties.push_back(prop_int("FreeBotNum", rng_.range(0, 4)));
            o.properties.push_back(prop_int("FreeTechnoNum", rng_.range(0, 3)));
            o.properties.push_back(
                prop_float("FreeConstructionTime", rng_.range(0, 20) * 30.0, 0.0, 3600.0));
            o.properties.push_back(
                prop_float("FreeResearchTime", rng_.range(0, 20) * 30.0, 0.0, 3600.0));
            o.properties.push_back(prop_int("NOT USED", 0));
            o.properties.push_back(prop_int("NOT USED", 0));
        }
        return o;
    }

    // Two halves on ground of the same height either side of a dip, their far ends meeting.
    void bridge(int32_t clan) {
        constexpr double L = kBridgeLength;
        double best = -1e300;
        Point p1{}, p2{};
        float theta = 0;
        for (int tries = 0; tries < 300; ++tries) {
            const Point mid = point(margin_ + 2 * L);
            const float t = heading();
            const double dx = std::cos(double(t)), dy = std::sin(double(t));
            // To 1/1024 of a unit, as the heights: the last bit of a sine is the library's.
            const auto snap = [](double v) { return float(std::round(v * 1024.0) / 1024.0); };
            const float x1 = snap(mid.x - L * dx), y1 = snap(mid.y - L * dy);
            const float x2 = snap(x1 + 2 * L * dx), y2 = snap(y1 + 2 * L * dy);
            const double h1 = ground_.height(x1, y1), h2 = ground_.height(x2, y2);
            // Level banks first, then the deepest dip under the middle.
            const double score =
                -100 * std::max(0.0, std::fabs(h1 - h2) - 0.25) + (0.5 * (h1 + h2) - mid.z);
            if (score > best) {
                best = score;
                p1 = {x1, y1, float(h1)};
                p2 = {x2, y2, float(h2)};
                theta = t;
            }
        }
        sites_.push_back({0.5 * (p1.x + p2.x), 0.5 * (p1.y + p2.y)});
        building(kBridge, p1, theta, clan).instance_name += "a";
        const double back = double(theta) + (double(theta) < kPi ? kPi : -kPi); // in [0, 2 pi)
        building(kBridge, p2, float(back), clan).instance_name += "b";
    }

    void scenery() {
        int total = 0;
        for (const SceneryKey& s : kScenery) total += s.weight;
        int pick = rng_.range(0, total - 1);
        const SceneryKey* key = &kScenery[0];
        for (const SceneryKey& s : kScenery)
            if ((pick -= s.weight) < 0) {
                key = &s;
                break;
            }
        const Point p = point(margin_ * 0.5);
        // Scenery clan words hold leftovers (level.md §2.3).
        mission::PlacedObject& o =
            add(key->kind, key->key, rng_.range(0, int(out_.mission.clans.size()) - 1));
        o.position = {p.x, p.y, p.z};
        o.rotation = {0, 0, heading()};
        if (rng_.chance(0.25)) {
            static const float scales[] = {0.7f, 0.8f, 1.25f, 1.3f, 1.5f};
            const float s = rng_.pick(scales);
            o.scale = {s, s, s};
        }
        o.properties.push_back(prop_float("Life state", 1.0, 0.0, 1.0));
        o.properties.push_back(prop_int("LogicalID", o.logical_id));
    }

    void objects() {
        int left = plan_.objects;
        const bool player = plan_.series == Series::Single || plan_.series == Series::Campaign;
        // The hero: the player's own kind-1 object (the game has no start-point record).
        // (Arguments that draw numbers are drawn in statements of their own: the order in which a
        // call's arguments are evaluated is unspecified.)
        if (player && left >= 1) {
            const Point p = site();
            unit(kHero, p, heading(), 1, "Hero");
            --left;
        }
        // Units housed in a hangar: zero transform, the host's logical id and a bay of its graph.
        if (plan_.housed > 0 && left >= plan_.housed + 1) {
            const int32_t clan = player ? 1 : owner();
            const Point p = site();
            const int32_t host = building(kGener02, p, heading(), clan).logical_id;
            left -= 1 + plan_.housed;
            for (int i = 0; i < plan_.housed; ++i) {
                unit(i % 2 ? kWalker1 : kTrack, {0, 0, 0}, 0, clan, "");
                mission::PlacedObject& o = out_.mission.objects.back();
                o.host = host;
                o.hall_vertex = kHangarBays[size_t(i) % std::size(kHangarBays)];
            }
        }
        for (int b = 0; b < plan_.bridges && left >= 2; ++b, left -= 2) bridge(owner());
        const int buildings = int(std::lround(left * 0.2)), units = int(std::lround(left * 0.28));
        for (int i = 0; i < units; ++i) {
            Unit which = rng_.chance(0.4) ? kTrack : rng_.chance(0.5) ? kWalker2 : kWalker1;
            if (plan_.series == Series::Autodemo && i < 2) which = i == 0 ? kWalker2 : kWalker1;
            const Point p = point(margin_);
            const float h = heading();
            unit(which, p, h, owner(), "");
        }
        static const Unit kinds[] = {kGener01, kGener01, kGener02, kTower,
                                     kTower,   kBunker,  kBunker};
        for (int i = 0; i < buildings; ++i) {
            const Unit which = rng_.pick(kinds);
            const Point p = site();
            const float h = heading();
            building(which, p, h, owner());
        }
        for (int i = 0; i < left - buildings - units; ++i) scenery();
    }

    void routes() {
        const int n = plan_.series == Series::Campaign ? rng_.range(2, 4)
                      : plan_.series == Series::Single ? rng_.range(1, 2)
                                                       : 0;
        int32_t id = rng_.range(100, 300);
        for (int r = 0; r < n; ++r) {
            mission::Route route;
            route.id = id;
            id += rng_.range(1, 20);
            const Point c = point(margin_ + 160);
            const int points = rng_.range(3, 6);
            const double radius = rng_.range(4, 15) * 10.0;
            for (int i = 0; i < points; ++i) {
                const double a = 2 * kPi * i / points;
                const float x = float(c.x + radius * std::cos(a)),
                            y = float(c.y + radius * std::sin(a));
                route.points.push_back({x, y, float(ground_.height(x, y))});
            }
            out_.mission.routes.push_back(std::move(route));
        }
    }

    void lodes() {
        const int n = plan_.series == Series::Multi      ? rng_.range(4, 8)
                      : plan_.series == Series::Autodemo ? rng_.range(0, 2)
                                                         : rng_.range(2, 6);
        static const uint32_t types[] = {0, 1, 0x10001000};
        static const uint32_t words[] = {0, 1, 0xFFFFFFFFu};
        for (int i = 0; i < n; ++i) {
            const Point p = point(margin_);
            mission::Lode l;
            l.position = {p.x, p.y, p.z};
            l.found = rng_.chance(0.2) ? 1 : 0;
            l.type = rng_.pick(types);
            l.amount = float(rng_.range(20, 400) * 50);
            l.unknown = rng_.pick(words);
            out_.mission.lodes.push_back(l);
        }
    }

    // The TMA's description is a buffer: the text, a NUL, sometimes an older text, 0xCD fill to
    // its capacity (level.md §2.1); `descr` holds the text the game shows.
    void description() {
        const mission::Mission& m = out_.mission;
        int buildings = 0, units = 0;
        for (const mission::PlacedObject& o : m.objects) {
            buildings += o.kind == 0;
            units += o.kind == 1;
        }
        const std::string title = plan_.dir.substr(plan_.dir.rfind('/') + 1);
        const std::string text = title + ": " + std::to_string(m.clans.size() - 1) + " clans, " +
                                 std::to_string(buildings) + " buildings, " +
                                 std::to_string(units) + " units on " + plan_.map;
        static const size_t capacities[] = {128, 256, 512};
        size_t capacity = rng_.pick(capacities);
        while (capacity < text.size() + 40) capacity *= 2;
        Bytes d(text.begin(), text.end());
        d.push_back(0);
        if (rng_.chance(0.5)) {
            const std::string old = "Mission " + std::to_string(rng_.range(1, 30)) + " draft";
            d.insert(d.end(), old.begin(), old.end());
            d.push_back(0);
        }
        d.resize(capacity, 0xCD);
        out_.mission.description = std::move(d);

        const char* series[] = {"Autodemo", "Single", "Multi", "Campaign"};
        // One draw per statement: the order of a call's arguments is the compiler's choice.
        const int time_limit = rng_.range(0, 12) * 300;
        const int minimap = rng_.range(2, 4) * 64;
        out_.descr = title + "\r\n" + text + ".\r\n" +
                     "Ore in the lodes: " + std::to_string(int(std::lround(total_ore()))) + ".\r\n";
        out_.cfg = "[Mission]\r\nName=" + title + "\r\nSeries=" + series[int(plan_.series)] +
                   "\r\nLand=" + m.map_path + "\r\nClans=" + std::to_string(m.clans.size()) +
                   "\r\nTimeLimit=" + std::to_string(time_limit) +
                   "\r\n\r\n[Minimap]\r\nSize=" + std::to_string(minimap) + "\r\n";
    }

    double total_ore() const {
        double ore = 0;
        for (const mission::Lode& l : out_.mission.lodes) ore += l.amount;
        return ore;
    }
};

Bytes text_bytes(const std::string& s) {
    return Bytes(s.begin(), s.end());
}

} // namespace

int level_model_count() {
    return int(std::size(kPartModels));
}

std::vector<GeneratedFile> generate_levels(const Options& options,
                                           const std::vector<GeneratedFile>& corpus) {
    std::vector<GeneratedFile> files;
    std::map<std::string, std::vector<std::string>> node_names;
    files.push_back(parts_archive(options, node_names));
    files.push_back(registry_file(options));
    for (GeneratedFile& f : unit_assemblies(options, node_names)) files.push_back(std::move(f));

    // The maps of the corpus, in its order.
    std::vector<std::string> maps;
    std::map<std::string, const GeneratedFile*> land;
    for (const GeneratedFile& f : corpus) {
        const std::string prefix = "DATA/MAPS/", suffix = "/Land.msh";
        if (f.relative_path.starts_with(prefix) && f.relative_path.ends_with(suffix)) {
            const std::string name = f.relative_path.substr(
                prefix.size(), f.relative_path.size() - prefix.size() - suffix.size());
            maps.push_back(name);
            land[name] = &f;
        }
    }
    if (maps.empty()) throw std::logic_error("levels: the corpus has no maps");
    std::map<std::string, Ground> grounds;
    for (const MissionPlan& plan : mission_plans(options, maps)) {
        auto it = grounds.find(plan.map);
        if (it == grounds.end()) {
            const auto l = land.find(plan.map);
            if (l == land.end()) throw std::logic_error("levels: no map " + plan.map);
            it =
                grounds.emplace(plan.map, Ground(l->second->bytes, l->second->relative_path)).first;
        }
        Built b = MissionBuilder(options, plan, it->second).build();
        const std::string dir = "MISSIONS/" + plan.dir + "/";
        files.push_back({dir + "data.tma", mission::write(b.mission)});
        files.push_back({dir + "descr", text_bytes(b.descr)});
        files.push_back({dir + "mission.cfg", text_bytes(b.cfg)});
    }
    return files;
}

} // namespace msh::samples
