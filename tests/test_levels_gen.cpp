// The synthetic corpus' levels (samples/levels_gen.hpp): parts.rlb, objects.rlb, the unit
// assemblies and the missions are there, read back strictly and write back byte for byte, every
// reference resolves, objects stand on their maps, bridge halves meet, housed units stand in their
// host's hall-way graph, and a game-sized corpus has the published counts.
#include "corpus.hpp"

#include "formats/assembly.hpp"
#include "formats/mission.hpp"
#include "formats/msh.hpp"
#include "formats/names.hpp"
#include "formats/nres.hpp"
#include "formats/object_registry.hpp"
#include "formats/terrain.hpp"
#include "mapping/level_to_scene.hpp"
#include "samples/generator.hpp"
#include "samples/levels_gen.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <map>
#include <memory>
#include <numbers>
#include <set>

// The file's own names: the test program compiles in unity batches (CMakeLists.txt).
namespace levels_gen_tests {

using namespace msh;

namespace {

const samples::GeneratedFile* find_file(const std::string& path) {
    for (const samples::GeneratedFile& f : test::corpus())
        if (f.relative_path == path) return &f;
    return nullptr;
}

// A path as data.tma names it (backslashes, any case) to the corpus file, or none.
const samples::GeneratedFile* find_game_path(std::string path) {
    std::replace(path.begin(), path.end(), '\\', '/');
    const std::string want = lower_ascii(path);
    for (const samples::GeneratedFile& f : test::corpus())
        if (lower_ascii(f.relative_path) == want) return &f;
    return nullptr;
}

struct Level {
    std::string dir; // MISSIONS/<dir>/
    const samples::GeneratedFile* file = nullptr;
    mission::Mission mission;
};

const std::vector<Level>& levels() {
    static const std::vector<Level> all = [] {
        std::vector<Level> out;
        for (const samples::GeneratedFile& f : test::corpus())
            if (f.relative_path.starts_with("MISSIONS/") && f.relative_path.ends_with("/data.tma"))
                out.push_back({f.relative_path.substr(0, f.relative_path.size() - 8), &f,
                               mission::read(f.bytes, ReadMode::Strict, f.relative_path)});
        return out;
    }();
    return all;
}

const registry::Registry& reg() {
    static const registry::Registry r = [] {
        const samples::GeneratedFile* f = find_file("objects.rlb");
        if (!f) throw std::runtime_error("the corpus has no objects.rlb");
        return registry::Registry(f->bytes, f->relative_path);
    }();
    return r;
}

// A model archive of the corpus by the name a registry slot gives it (case-insensitive).
const nres::Archive* model_archive(const std::string& name) {
    static std::map<std::string, std::unique_ptr<nres::Archive>> cache;
    const std::string key = lower_ascii(name);
    auto it = cache.find(key);
    if (it == cache.end()) {
        const samples::GeneratedFile* f = find_game_path(name);
        it = cache
                 .emplace(key, f ? std::make_unique<nres::Archive>(
                                       nres::read(f->bytes, ReadMode::Strict, f->relative_path))
                                 : nullptr)
                 .first;
    }
    return it->second.get();
}

// The model a registry key leads to, read strictly; nullptr when it does not resolve.
const Model* model_of_key(const std::string& key) {
    static std::map<std::string, std::unique_ptr<Model>> cache;
    const std::string k = lower_ascii(key);
    if (auto it = cache.find(k); it != cache.end()) return it->second.get();
    std::unique_ptr<Model> m;
    if (const std::optional<registry::ModelRef> ref = reg().model(key))
        if (const nres::Archive* ar = model_archive(ref->archive))
            if (const std::optional<size_t> i = ar->find(ref->member))
                m = std::make_unique<Model>(read_model(ar->entries[*i].data, ReadMode::Strict,
                                                       ref->archive + ":" + ref->member));
    return cache.emplace(k, std::move(m)).first->second.get();
}

assembly::Assembly assembly_at(const std::string& tma_path) {
    const samples::GeneratedFile* f = find_game_path(tma_path);
    if (!f) throw std::runtime_error("no file " + tma_path);
    return assembly::read(f->bytes, ReadMode::Strict, f->relative_path);
}

// The model of a placed object: its registry key's (scenery) or its assembly root's.
const Model* model_of(const mission::PlacedObject& o) {
    if (mission::is_scenery(o.kind)) return model_of_key(o.path);
    return model_of_key(assembly::text(assembly_at(o.path).components.at(0).record));
}

// The ground of a Land.msh: z of the face holding (x, y).
struct Ground {
    terrain::Terrain t;
    double lo_x = 1e300, hi_x = -1e300, lo_y = 1e300, hi_y = -1e300;
    explicit Ground(const samples::GeneratedFile& f)
        : t(terrain::read(f.bytes, ReadMode::Strict, f.relative_path)) {
        for (const Vec3& p : t.positions) {
            lo_x = std::min(lo_x, double(p.x));
            hi_x = std::max(hi_x, double(p.x));
            lo_y = std::min(lo_y, double(p.y));
            hi_y = std::max(hi_y, double(p.y));
        }
    }
    bool inside(double x, double y) const {
        return x >= lo_x && x <= hi_x && y >= lo_y && y <= hi_y;
    }
    // The exporter's own sampler (mapping/level_to_scene): where the level export stands things.
    std::optional<double> height(double x, double y) const {
        return mapping::ground_height(t, float(x), float(y));
    }
};

const Ground& ground_of(const mission::Mission& m) {
    static std::map<std::string, std::unique_ptr<Ground>> cache;
    const std::string land = mission::map_folder(m.map_path) + "/Land.msh";
    auto it = cache.find(land);
    if (it == cache.end()) {
        const samples::GeneratedFile* f = find_game_path(land);
        if (!f) throw std::runtime_error("no map " + land);
        it = cache.emplace(land, std::make_unique<Ground>(*f)).first;
    }
    return *it->second;
}

bool housed(const mission::PlacedObject& o) {
    return o.host != -1;
}

float as_float(uint32_t bits) {
    return std::bit_cast<float>(bits);
}

} // namespace

BOOST_AUTO_TEST_SUITE(levels_gen)

BOOST_AUTO_TEST_CASE(the_level_files_are_there) {
    std::set<std::string> names;
    for (const samples::GeneratedFile& f : test::corpus()) names.insert(f.relative_path);
    // What the corpus held before the levels came is all still there.
    for (const char* before :
         {"static.rlb", "animals.rlb", "fortif.rlb", "system.rlb", "turrets.rlb", "weapon.rlb",
          "Textures.lib", "LightMap.lib", "Material.lib", "palettes.lib"})
        BOOST_TEST(names.count(before) == 1u, before);
    for (const char* map : {"SynAuto", "SynProl", "SynTut1", "SynTut2", "SynTut3", "SynTut4"})
        for (const char* file : {"Land.msh", "Land.map", "Land1.wea", "Land2.wea"})
            BOOST_TEST(names.count(std::string("DATA/MAPS/") + map + "/" + file) == 1u,
                       map << "/" << file);
    // The levels.
    for (const char* level :
         {"objects.rlb", "parts.rlb", "UNITS/BUILDS/GENER/gener01.dat",
          "UNITS/UNITS/HERO/hero_t.dat", "MISSIONS/Single.01/data.tma",
          "MISSIONS/Single.02/data.tma", "MISSIONS/Multi.01/data.tma",
          "MISSIONS/Autodemo.00/data.tma", "MISSIONS/CAMPAIGN/CAMPAIGN.01/Mission.01/data.tma"})
        BOOST_TEST(names.count(level) == 1u, level);
    BOOST_TEST(levels().size() == size_t(samples::kStandardMissions));
    std::map<std::string, int> missions_on;
    for (const Level& l : levels()) {
        BOOST_TEST(names.count(l.dir + "descr") == 1u, l.dir);
        BOOST_TEST(names.count(l.dir + "mission.cfg") == 1u, l.dir);
        ++missions_on[lower_ascii(l.mission.map_path)];
    }
    BOOST_TEST(std::any_of(missions_on.begin(), missions_on.end(),
                           [](const auto& m) { return m.second >= 2; }),
               "no map is shared by two missions");
    // Mixed case on disk, as the game has it.
    size_t dats = 0, mixed = 0;
    for (const std::string& n : names)
        if (n.starts_with("UNITS/") && lower_ascii(n).ends_with(".dat")) {
            ++dats;
            mixed += n.substr(n.rfind('/')) != lower_ascii(n.substr(n.rfind('/')));
        }
    BOOST_TEST(dats >= 5u);
    BOOST_TEST(mixed >= 1u);
}

BOOST_AUTO_TEST_CASE(every_level_file_reads_strictly_and_writes_back) {
    size_t tma = 0, dat = 0;
    for (const samples::GeneratedFile& f : test::corpus()) {
        const std::string& p = f.relative_path;
        if (p.ends_with("/data.tma")) {
            ++tma;
            BOOST_TEST(mission::looks_like_mission(f.bytes), p);
            const mission::Mission m = mission::read(f.bytes, ReadMode::Strict, p);
            BOOST_TEST((mission::write(m) == f.bytes), p << " does not write back byte for byte");
        } else if (p.starts_with("UNITS/")) {
            ++dat;
            BOOST_TEST(assembly::looks_like_assembly(f.bytes), p);
            const assembly::Assembly a = assembly::read(f.bytes, ReadMode::Strict, p);
            BOOST_TEST((assembly::write(a) == f.bytes), p << " does not write back byte for byte");
        }
    }
    BOOST_TEST(tma == size_t(samples::kStandardMissions));
    BOOST_TEST(dat >= 5u);
    const samples::GeneratedFile* rlb = find_file("objects.rlb");
    BOOST_REQUIRE(rlb);
    const nres::Archive ar = nres::read(rlb->bytes, ReadMode::Strict, "objects.rlb");
    BOOST_TEST((nres::write(ar) == rlb->bytes));
    BOOST_TEST(reg().size() == ar.entries.size());
    for (const nres::Entry& e : ar.entries) {
        const auto slots = registry::read_slots(e.data.bytes(), e.name());
        BOOST_TEST(
            (registry::write_slots(slots) == Bytes(e.data.bytes().begin(), e.data.bytes().end())),
            e.name());
    }
}

BOOST_AUTO_TEST_CASE(the_registry_has_the_shapes_real_files_have) {
    const nres::Archive& ar = reg().archive();
    size_t stat = 0, fort = 0, leftovers = 0, differ = 0;
    for (const nres::Entry& e : ar.entries) {
        const std::vector<registry::Slot>& slots = *reg().find(e.name());
        for (const registry::Slot& s : slots)
            for (size_t half = 0; half < 2; ++half) {
                const uint8_t* p = s.raw.data() + half * registry::kFieldSize;
                const uint8_t* nul = std::find(p, p + registry::kFieldSize, uint8_t(0));
                leftovers +=
                    std::any_of(nul, p + registry::kFieldSize, [](uint8_t b) { return b != 0; });
            }
        if (e.type == nres::fourcc("STAT")) {
            ++stat;
            BOOST_TEST(slots.size() == 6u, e.name());
            BOOST_TEST(lower_ascii(slots[0].member()).ends_with(".msh"), e.name());
            BOOST_TEST(lower_ascii(slots[1].member()).ends_with(".wea"), e.name());
            const std::string mesh = slots[0].member();
            differ += lower_ascii(mesh.substr(0, mesh.size() - 4)) != lower_ascii(e.name());
        } else if (e.type == nres::fourcc("FORT")) {
            ++fort;
            BOOST_TEST(slots.size() == 2u, e.name());
            bool parent = false;
            for (const registry::Slot& s : slots) {
                BOOST_TEST(!lower_ascii(s.member()).ends_with(".msh"), e.name());
                if (lower_ascii(s.archive()) == "objects.rlb") {
                    parent = true;
                    BOOST_TEST(reg().find(s.member()) != nullptr, e.name() << " -> " << s.member());
                }
            }
            BOOST_TEST(parent, e.name() << " names no parent record");
            const auto ref = reg().model(e.name());
            BOOST_REQUIRE(ref.has_value());
            BOOST_TEST(ref->chain.size() == 2u, e.name());
        }
    }
    BOOST_TEST(stat >= 6u);
    BOOST_TEST(fort >= 3u);
    BOOST_TEST(differ == stat, "every scenery key differs from its mesh's name");
    BOOST_TEST(leftovers > 0u, "no slot keeps bytes after its NUL");
}

BOOST_AUTO_TEST_CASE(every_reference_resolves) {
    // Scenery keys name records whose model and WEAR are in their archive.
    size_t scenery = 0, dats = 0, other_case = 0;
    std::set<std::string> assemblies;
    for (const Level& l : levels())
        for (const mission::PlacedObject& o : l.mission.objects) {
            if (mission::is_scenery(o.kind)) {
                ++scenery;
                std::string why;
                const auto ref = reg().model(o.path, &why);
                BOOST_TEST_REQUIRE(ref.has_value(), l.dir << ": " << o.path << ": " << why);
                const nres::Archive* ar = model_archive(ref->archive);
                BOOST_TEST_REQUIRE(ar, ref->archive);
                BOOST_TEST(ar->find(ref->member).has_value(), ref->member);
                BOOST_TEST(ar->find(ref->wear).has_value(), ref->wear);
            } else {
                ++dats;
                BOOST_TEST(o.path.find('\\') != std::string::npos, o.path);
                BOOST_TEST(o.path.find('/') == std::string::npos, o.path);
                const samples::GeneratedFile* f = find_game_path(o.path);
                BOOST_TEST_REQUIRE(f, l.dir << ": " << o.path << " is not on disk");
                std::string as_disk = o.path;
                std::replace(as_disk.begin(), as_disk.end(), '\\', '/');
                other_case += as_disk != f->relative_path;
                assemblies.insert(f->relative_path);
            }
        }
    BOOST_TEST(scenery > 0u);
    BOOST_TEST(dats > 0u);
    BOOST_TEST(other_case > 0u, "every .dat path has the case of the file on disk");

    // Every assembly's components lead to a model; children attach to socket nodes of their
    // parent's model.
    std::set<uint32_t> hero_classes;
    for (const samples::GeneratedFile& f : test::corpus()) {
        if (!f.relative_path.starts_with("UNITS/")) continue;
        const assembly::Assembly a = assembly::read(f.bytes, ReadMode::Strict, f.relative_path);
        BOOST_TEST(a.magic == assembly::kMagic);
        if (f.relative_path.starts_with("UNITS/UNITS/"))
            BOOST_TEST(a.class_word == 0x01008000u, f.relative_path);
        else
            BOOST_TEST((a.class_word & 0xFFFF0000u) == 0x80000000u, f.relative_path);
        const std::vector<int> parents = a.parents();
        for (size_t i = 0; i < a.components.size(); ++i) {
            const assembly::Component& c = a.components[i];
            const std::string where = f.relative_path + " #" + std::to_string(i);
            BOOST_TEST(assembly::text(c.archive) == "objects.rlb", where);
            BOOST_TEST(c.flags == 1u, where);
            BOOST_TEST(c.part_class <= 5u, where);
            BOOST_TEST(!assembly::text(c.description).empty(), where);
            BOOST_TEST(model_of_key(assembly::text(c.record)) != nullptr,
                       where << ": " << assembly::text(c.record) << " leads to no model");
            if (f.relative_path == "UNITS/UNITS/HERO/hero_t.dat") hero_classes.insert(c.part_class);
            if (parents[i] < 0) {
                BOOST_TEST(i == 0u, where);
                BOOST_TEST(c.attach == -1, where);
                continue;
            }
            const Model* parent =
                model_of_key(assembly::text(a.components[size_t(parents[i])].record));
            BOOST_TEST_REQUIRE(parent, where);
            BOOST_TEST_REQUIRE(c.attach >= 0, where);
            BOOST_TEST_REQUIRE(size_t(c.attach) < parent->node_count(), where);
            BOOST_TEST(parent->node_name(size_t(c.attach)).starts_with("Base_"),
                       where << ": attaches to " << parent->node_name(size_t(c.attach)));
        }
    }
    BOOST_TEST((hero_classes == std::set<uint32_t>{0, 1, 2, 4, 5}));
}

BOOST_AUTO_TEST_CASE(objects_stand_on_their_maps) {
    size_t checked = 0, buildings = 0, scaled_scenery = 0;
    for (const Level& l : levels()) {
        const Ground& g = ground_of(l.mission);
        for (const mission::PlacedObject& o : l.mission.objects) {
            const std::string where = l.dir + " " + o.path + " #" + std::to_string(o.logical_id);
            BOOST_TEST(o.rotation.x == 0.0f, where);
            BOOST_TEST(o.rotation.y == 0.0f, where);
            BOOST_TEST((o.scale.x == o.scale.y && o.scale.y == o.scale.z), where);
            if (!mission::is_scenery(o.kind)) BOOST_TEST(o.scale.x == 1.0f, where);
            if (housed(o)) continue;
            ++checked;
            BOOST_TEST(g.inside(o.position.x, o.position.y), where << " lies outside its map");
            const std::optional<double> h = g.height(o.position.x, o.position.y);
            BOOST_TEST_REQUIRE(h.has_value(), where);
            // Building origins on the ground (real files: within about 0.1); the generator
            // puts every object there, scaled scenery included.
            BOOST_TEST(std::fabs(*h - o.position.z) <= 0.1,
                       where << ": " << o.position.z << " over ground " << *h);
            buildings += o.kind == 0;
            scaled_scenery += mission::is_scenery(o.kind) && o.scale.x != 1.0f;
        }
        for (const mission::Lode& lode : l.mission.lodes)
            BOOST_TEST(g.inside(lode.position.x, lode.position.y), l.dir);
        for (const mission::Clan& c : l.mission.clans)
            if (c.type != 0) BOOST_TEST(g.inside(c.base_x, c.base_y), l.dir << " " << c.name);
    }
    BOOST_TEST(checked >= 100u);
    BOOST_TEST(buildings >= 10u);
    BOOST_TEST(scaled_scenery >= 3u);
}

BOOST_AUTO_TEST_CASE(bridge_halves_meet) {
    size_t pairs = 0;
    for (const Level& l : levels()) {
        std::vector<const mission::PlacedObject*> halves;
        double length = 0;
        for (const mission::PlacedObject& o : l.mission.objects) {
            if (mission::is_scenery(o.kind)) continue;
            const std::string root = assembly::text(assembly_at(o.path).components.at(0).record);
            const auto ref = reg().model(root);
            if (!ref || lower_ascii(ref->member) != "bridge_h.msh") continue;
            halves.push_back(&o);
            // The half runs from its origin along +x.
            const Model* m = model_of(o);
            BOOST_REQUIRE(m);
            double lo = 1e300, hi = -1e300;
            for (const Vec3& p : m->positions) {
                lo = std::min(lo, double(p.x));
                hi = std::max(hi, double(p.x));
            }
            BOOST_TEST(lo >= -1e-6);
            length = hi;
        }
        BOOST_TEST_REQUIRE(halves.size() % 2 == 0u, l.dir);
        for (size_t i = 0; i < halves.size(); i += 2) {
            const mission::PlacedObject &a = *halves[i], &b = *halves[i + 1];
            const double turn =
                std::remainder(double(b.rotation.z) - a.rotation.z, 2 * std::numbers::pi);
            BOOST_TEST(std::fabs(std::fabs(turn) - std::numbers::pi) < 1e-4, l.dir);
            const auto far_end = [&](const mission::PlacedObject& o) {
                return std::array<double, 3>{o.position.x + length * std::cos(o.rotation.z),
                                             o.position.y + length * std::sin(o.rotation.z),
                                             o.position.z};
            };
            const auto ea = far_end(a), eb = far_end(b);
            const double gap = std::hypot(ea[0] - eb[0], ea[1] - eb[1], ea[2] - eb[2]);
            BOOST_TEST(gap <= 1.0, l.dir << ": bridge halves " << a.logical_id << " and "
                                         << b.logical_id << " are " << gap << " apart");
            ++pairs;
        }
    }
    BOOST_TEST(pairs >= 2u);
}

BOOST_AUTO_TEST_CASE(housed_units_stand_in_their_hosts_hall_way) {
    size_t count = 0;
    for (const Level& l : levels())
        for (const mission::PlacedObject& o : l.mission.objects) {
            if (!housed(o)) {
                BOOST_TEST(o.hall_vertex == -1, l.dir);
                continue;
            }
            ++count;
            const std::string where = l.dir + " #" + std::to_string(o.logical_id);
            BOOST_TEST(o.kind == 1u, where);
            for (const Vec3& v : {o.position, o.rotation})
                BOOST_TEST((v.x == 0.0f && v.y == 0.0f && v.z == 0.0f), where);
            const mission::PlacedObject* host = nullptr;
            for (const mission::PlacedObject& h : l.mission.objects)
                if (h.logical_id == o.host) {
                    BOOST_TEST(!host, where << ": two objects have the host's id");
                    host = &h;
                }
            BOOST_TEST_REQUIRE(host, where << ": no host " << o.host);
            BOOST_TEST(host->kind == 0u, where);
            BOOST_TEST(host->clan == o.clan, where);
            const Model* m = model_of(*host);
            BOOST_TEST_REQUIRE(m, where);
            const nres::Entry* graph = m->entry(kPathGraph);
            BOOST_TEST_REQUIRE(graph, where);
            BOOST_TEST(graph->data.size() == 20u * graph->attr1 + 40u * graph->attr2, where);
            BOOST_TEST(o.hall_vertex >= 0, where);
            BOOST_TEST(uint32_t(o.hall_vertex) < graph->attr1, where);
        }
    BOOST_TEST(count >= 2u);
}

BOOST_AUTO_TEST_CASE(missions_hold_what_real_files_hold) {
    const std::set<std::string> known = {
        "Invulnerability", "Life state",           "LogicalID",        "ClanID",       "Type",
        "MaxSpeedPercent", "MaximumOre",           "CurrentOre",       "ChargeRadius", "FreeBotNum",
        "FreeTechnoNum",   "FreeConstructionTime", "FreeResearchTime", "NOT USED"};
    size_t routes = 0, zones = 0, lodes = 0, repeats = 0;
    for (const Level& l : levels()) {
        const mission::Mission& m = l.mission;
        const std::string name = l.dir.substr(9, l.dir.size() - 10); // MISSIONS/<name>/
        BOOST_TEST(m.version == 1u);
        BOOST_TEST(m.clan_version == 6u);
        BOOST_TEST(m.object_version == 10u);
        BOOST_TEST(m.lode_word == 1u);
        BOOST_TEST(m.tail.empty());
        BOOST_TEST(m.map_path.starts_with("DATA\\MAPS\\"), m.map_path);
        BOOST_TEST(m.map_path.ends_with("\\land"), m.map_path);
        const bool flagged = name.starts_with("Multi.") || name == "Single.01";
        BOOST_TEST(m.mission_flag == (flagged ? 1u : 0u), name);
        // Routes: ids that are not their index.
        for (size_t i = 0; i < m.routes.size(); ++i) {
            BOOST_TEST(m.routes[i].id != int32_t(i), name);
            BOOST_TEST(m.routes[i].points.size() >= 3u, name);
        }
        routes += m.routes.size();
        // Clans: nature first, relations to every other clan, zones of kind 1.
        BOOST_TEST_REQUIRE(m.clans.size() >= 2u, name);
        BOOST_TEST(m.clans[0].type == 0u, name);
        for (size_t i = 0; i < m.clans.size(); ++i) {
            const mission::Clan& c = m.clans[i];
            BOOST_TEST(c.unnamed == -1, name);
            BOOST_TEST(c.type <= 3u, name);
            BOOST_TEST(c.relations.size() == m.clans.size() - 1, name);
            for (const mission::Relation& r : c.relations) BOOST_TEST(r.clan != c.name, name);
            for (const mission::Zone& z : c.zones) {
                BOOST_TEST(z.kind == 1u, name);
                BOOST_TEST(z.outer > z.inner, name);
            }
            zones += c.zones.size();
            if (c.type == 2) BOOST_TEST(c.behaviour.ends_with(".trf"), name);
        }
        // Objects.
        std::set<int32_t> ids;
        for (const mission::PlacedObject& o : m.objects) {
            const std::string where = name + " #" + std::to_string(o.logical_id);
            BOOST_TEST(o.kind <= 3u, where);
            BOOST_TEST(o.flags == mission::kObjectFlags, where);
            BOOST_TEST(ids.insert(o.logical_id).second, where << ": logical id used twice");
            BOOST_TEST(o.property_word == 1u, where);
            BOOST_TEST(o.instance_name.empty() == mission::is_scenery(o.kind), where);
            std::map<std::string, const mission::Property*> props;
            std::set<std::string> seen;
            for (const mission::Property& p : o.properties) {
                BOOST_TEST(known.count(p.name) == 1u, where << ": " << p.name);
                BOOST_TEST(p.type <= 1u, where);
                repeats += !seen.insert(p.name).second;
                props[p.name] = &p;
            }
            BOOST_TEST_REQUIRE(props.count("LogicalID") == 1u, where);
            BOOST_TEST(props["LogicalID"]->type == 1u);
            BOOST_TEST(int32_t(props["LogicalID"]->value) == o.logical_id, where);
            BOOST_TEST(props["LogicalID"]->maximum == 0xFFFFFFFFu, where);
            if (props.count("Life state")) {
                BOOST_TEST(props["Life state"]->type == 0u);
                BOOST_TEST(as_float(props["Life state"]->value) == 1.0f);
            }
            if (mission::is_scenery(o.kind)) continue;
            // Owned objects: a clan that is not nature, repeated as ClanID.
            BOOST_TEST_REQUIRE((o.clan > 0 && size_t(o.clan) < m.clans.size()), where);
            BOOST_TEST(m.clans[size_t(o.clan)].type != 0u, where);
            BOOST_TEST_REQUIRE(props.count("ClanID") == 1u, where);
            BOOST_TEST(int32_t(props["ClanID"]->value) == o.clan, where);
        }
        // The description: the text, a NUL, then the buffer's 0xCD fill to its capacity.
        const std::string text = mission::description_text(m);
        BOOST_TEST_REQUIRE(m.description.size() > text.size() + 1, name);
        BOOST_TEST(m.description[text.size()] == 0u, name);
        BOOST_TEST(m.description.back() == 0xCDu, name);
        const samples::GeneratedFile* descr = find_file(l.dir + "descr");
        BOOST_TEST_REQUIRE(descr);
        BOOST_TEST(std::string(descr->bytes.begin(), descr->bytes.end()).find(text) !=
                       std::string::npos,
                   name);
        for (const mission::Lode& lode : m.lodes) BOOST_TEST(lode.amount > 0.0f, name);
        lodes += m.lodes.size();
    }
    BOOST_TEST(routes > 0u);
    BOOST_TEST(zones > 0u);
    BOOST_TEST(lodes > 0u);
    BOOST_TEST(repeats > 0u, "no property is repeated");
}

// --scale game: Part 1's 29 missions with 864 placed objects (the evidence's counts), on the maps
// there are, deterministic.
BOOST_AUTO_TEST_CASE(a_game_sized_corpus_has_the_published_counts) {
    samples::Options game;
    game.scale = 1;
    const std::vector<samples::GeneratedFile> files =
        samples::generate_levels(game, test::corpus());
    size_t missions = 0, objects = 0, housed_units = 0, halves = 0;
    std::set<std::string> maps;
    for (const samples::GeneratedFile& f : files) {
        if (!f.relative_path.ends_with("/data.tma")) continue;
        ++missions;
        const mission::Mission m = mission::read(f.bytes, ReadMode::Strict, f.relative_path);
        BOOST_TEST((mission::write(m) == f.bytes), f.relative_path);
        objects += m.objects.size();
        maps.insert(m.map_path);
        BOOST_TEST(find_game_path(mission::map_folder(m.map_path) + "/Land.msh") != nullptr,
                   m.map_path);
        const Ground& g = ground_of(m);
        for (const mission::PlacedObject& o : m.objects) {
            housed_units += housed(o);
            halves += lower_ascii(o.path).find("bridge") != std::string::npos;
            if (housed(o)) continue;
            BOOST_TEST(g.inside(o.position.x, o.position.y), f.relative_path);
            const std::optional<double> h = g.height(o.position.x, o.position.y);
            BOOST_TEST((h && std::fabs(*h - o.position.z) <= 0.1), f.relative_path);
        }
    }
    BOOST_TEST(missions == size_t(samples::kGameMissions));
    BOOST_TEST(objects == size_t(samples::kGameObjects));
    BOOST_TEST(maps.size() == 6u); // every map of the standard corpus
    BOOST_TEST(housed_units == 13u);
    BOOST_TEST(halves == 18u);
    // The standard missions are the same ones.
    for (const samples::GeneratedFile& f : files)
        if (f.relative_path.starts_with("MISSIONS/Single.01/")) {
            const samples::GeneratedFile* standard = find_file(f.relative_path);
            BOOST_TEST_REQUIRE(standard);
            BOOST_TEST((standard->bytes == f.bytes), f.relative_path);
        }
    const std::vector<samples::GeneratedFile> again =
        samples::generate_levels(game, test::corpus());
    BOOST_REQUIRE_EQUAL(again.size(), files.size());
    for (size_t i = 0; i < files.size(); ++i)
        BOOST_TEST((again[i].bytes == files[i].bytes), files[i].relative_path);
}

// Two fixes in the format modules the generator writes with: a deep chain of parts reads without
// running the call stack out, and a CP1251 description keeps its letter 0xCD.
BOOST_AUTO_TEST_CASE(a_long_chain_of_parts_reads_back) {
    assembly::Assembly a;
    a.class_word = 0x01008000;
    const size_t n = 200000;
    a.components.resize(n);
    for (size_t i = 0; i < n; ++i) {
        a.components[i].archive = assembly::name32("objects.rlb");
        a.components[i].record = assembly::name32("u_clip_01");
        a.components[i].attach = i ? 0 : -1;
        a.components[i].child_count = i + 1 < n ? 1 : 0;
    }
    const Bytes bytes = assembly::write(a);
    const assembly::Assembly back = assembly::read(bytes, ReadMode::Strict, "chain.dat");
    const std::vector<int> parents = back.parents();
    BOOST_TEST(parents.front() == -1);
    BOOST_TEST(parents.back() == int(n - 2));
}

BOOST_AUTO_TEST_CASE(a_description_keeps_its_cp1251_letters) {
    mission::Mission m;
    m.description = {'A', 0xCD, 'B', 0, 'o', 'l', 'd', 0, 0xCD, 0xCD};
    BOOST_TEST(mission::description_text(m) == "A\xCD"
                                               "B");
    m.description = {'A', 'B', 0xCD, 0xCD}; // fill without a NUL
    BOOST_TEST(mission::description_text(m) == "AB");
}

BOOST_AUTO_TEST_SUITE_END()

} // namespace levels_gen_tests
