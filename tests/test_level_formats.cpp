// A level's three formats (docs/formats/level.md): data.tma, objects.rlb's slots and the unit .dat
// assemblies, built in code in the shapes real files have: read -> write byte for byte, every
// version's gated fields, every cut of a file refused with the offset of the field that runs
// out, and the registry's parent records followed (cycles and depth refused).
#include "test_util.hpp"

#include "formats/assembly.hpp"
#include "formats/diagnostics.hpp"
#include "formats/mission.hpp"
#include "formats/nres.hpp"
#include "formats/object_registry.hpp"
#include "formats/sniff.hpp"

#include <boost/test/unit_test.hpp>

#include <bit>
#include <cstring>
#include <string>

// The file's own names: the test program compiles in unity batches (CMakeLists.txt).
namespace level_format_tests {

using namespace msh;

namespace {

mission::Mission sample_mission() {
    mission::Mission m;
    m.routes.push_back({7, {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}});
    m.routes.push_back({-2, {}});
    mission::Clan c;
    c.name = "Player";
    c.base_x = 100.5f;
    c.base_y = 200.25f;
    c.type = 1;
    c.ai_script = "MISSIONS\\SCRIPTS\\scr_pl_1";
    c.zones.push_back({1, {10, 20, 0}, 5, 15});
    c.behaviour = "player.trf";
    c.minds = 12;
    c.relations.push_back({"Enemy", 0});
    m.clans.push_back(c);
    c.name = "Enemy";
    c.type = 2;
    c.zones.clear();
    c.relations = {{"Player", 0}};
    m.clans.push_back(c);
    mission::PlacedObject tree;
    tree.kind = 2;
    tree.path = "s_tree_06";
    tree.clan = 7; // scenery holds leftovers
    tree.position = {300, 400, 12.5f};
    tree.rotation = {0, 0, 1.25f};
    tree.scale = {1.3f, 1.3f, 1.3f};
    m.objects.push_back(tree);
    mission::PlacedObject building;
    building.kind = 0;
    building.path = "UNITS\\BUILDS\\GENER\\gener01.dat";
    building.clan = 1;
    building.logical_id = 42;
    building.position = {500, 600, 30};
    building.rotation = {0, 0, -0.0f}; // -0.0 kept bit for bit
    building.instance_name = "Generator 1";
    building.start_flag = 1;
    building.properties.push_back({1, 42, 0, 0xFFFFFFFF, "LogicalID"});
    building.properties.push_back(
        {0, std::bit_cast<uint32_t>(0.5f), 0, std::bit_cast<uint32_t>(1.f), "Life state"});
    building.properties.push_back({1, 42, 0, 0xFFFFFFFF, "LogicalID"}); // repeats kept
    m.objects.push_back(building);
    mission::PlacedObject unit;
    unit.kind = 1;
    unit.path = "UNITS\\UNITS\\HERO\\hero_t.dat";
    unit.host = 42;
    unit.hall_vertex = 3;
    m.objects.push_back(unit);
    m.map_path = "DATA\\MAPS\\SC_3\\land";
    m.mission_flag = 1;
    std::string text = "Take the base";
    m.description.assign(text.begin(), text.end());
    m.description.push_back(0);
    m.description.insert(m.description.end(), 40, 0xCD);
    m.lodes.push_back({{10, 11, 0}, 0, 0x10001000, 500.f, 9});
    return m;
}

std::string read_error(const Bytes& bytes, ReadMode mode = ReadMode::Strict) {
    try {
        mission::read(bytes, mode, "data.tma");
    } catch (const FormatError& e) {
        return e.what();
    }
    return "";
}

assembly::Component component(const std::string& record, int attach, uint32_t cls, int children) {
    assembly::Component c;
    c.archive = assembly::name32("objects.rlb");
    c.record = assembly::name32(record);
    c.attach = attach;
    c.description = assembly::name32(record + " part");
    c.part_class = cls;
    c.child_count = children;
    return c;
}

nres::Entry registry_record(const std::string& key, const char* type,
                            const std::vector<registry::Slot>& slots) {
    nres::Entry e;
    e.type = nres::fourcc(type[0] == 'S' ? "STAT" : "FORT");
    e.set_name(key);
    e.data = registry::write_slots(slots);
    return e;
}

} // namespace

BOOST_AUTO_TEST_SUITE(level_formats)

BOOST_AUTO_TEST_CASE(mission_round_trips_byte_for_byte) {
    const Bytes bytes = mission::write(sample_mission());
    const mission::Mission back = mission::read(bytes, ReadMode::Strict, "data.tma");
    BOOST_TEST(mission::write(back) == bytes);
    BOOST_TEST(back.routes.size() == 2u);
    BOOST_TEST(back.routes[0].id == 7);
    BOOST_TEST(back.clans.size() == 2u);
    BOOST_TEST(back.clans[0].zones.size() == 1u);
    BOOST_TEST(back.objects.size() == 3u);
    BOOST_TEST(back.objects[1].properties.size() == 3u);
    BOOST_TEST(back.objects[1].instance_name == "Generator 1");
    BOOST_TEST(std::signbit(back.objects[1].rotation.z));
    BOOST_TEST(back.objects[2].host == 42);
    BOOST_TEST(mission::description_text(back) == "Take the base");
    BOOST_TEST(mission::map_folder(back.map_path) == "DATA/MAPS/SC_3");
    // The transform's offset names the nine floats: position x is where the record put it.
    const mission::PlacedObject& tree = back.objects[0];
    BOOST_TEST(load<float>(bytes, tree.transform_offset) == 300.f);
    BOOST_TEST(load<float>(bytes, tree.transform_offset + 20) == 1.25f);
    BOOST_TEST(load<float>(bytes, tree.transform_offset + 24) == 1.3f);
    BOOST_TEST((sniff(bytes, {"data.tma", std::nullopt}) == ContentKind::Mission));
}

BOOST_AUTO_TEST_CASE(every_object_version_reads_its_own_fields) {
    for (uint32_t version = 1; version <= 10; ++version) {
        mission::Mission m = sample_mission();
        m.object_version = version;
        const Bytes bytes = mission::write(m);
        DiagnosticSink sink(ReadMode::Tolerant);
        const mission::Mission back = mission::read(bytes, sink, "data.tma");
        BOOST_TEST(!sink.has_errors(), "version " << version);
        BOOST_TEST(mission::write(back) == bytes, "version " << version);
        BOOST_TEST(back.objects[1].properties.size() == (version >= 6 ? 3u : 0u));
        BOOST_TEST(back.objects[0].scale.x == (version >= 10 ? 1.3f : 1.f));
        BOOST_TEST(back.objects[2].host == (version >= 9 ? 42 : -1));
        // Strict reads version 10 only.
        BOOST_TEST(read_error(bytes).empty() == (version == 10), "version " << version);
    }
}

BOOST_AUTO_TEST_CASE(every_cut_is_refused_with_an_offset) {
    const Bytes bytes = mission::write(sample_mission());
    for (size_t cut = 0; cut < bytes.size(); ++cut) {
        const Bytes part(bytes.begin(), bytes.begin() + std::ptrdiff_t(cut));
        const std::string error = read_error(part, ReadMode::Tolerant);
        BOOST_TEST_REQUIRE(!error.empty(), "cut at " << cut << " read");
        BOOST_TEST(error.find("data.tma") != std::string::npos, error);
        BOOST_TEST(error.find("offset") != std::string::npos, error);
    }
}

BOOST_AUTO_TEST_CASE(strict_and_tolerant_rules) {
    Bytes bytes = mission::write(sample_mission());
    Bytes tail = bytes;
    tail.push_back(0xAB);
    BOOST_TEST(read_error(tail).find("bytes after the lodes") != std::string::npos);
    const mission::Mission kept = mission::read(tail, ReadMode::Tolerant, "data.tma");
    BOOST_TEST(mission::write(kept) == tail);

    mission::Mission m = sample_mission();
    m.objects[0].flags = 0x12345678;
    const Bytes odd_flags = mission::write(m);
    BOOST_TEST(read_error(odd_flags).find("flags") != std::string::npos);
    BOOST_TEST(read_error(odd_flags, ReadMode::Tolerant).empty());

    m = sample_mission();
    m.clan_version = 5;
    BOOST_TEST(read_error(mission::write(m), ReadMode::Tolerant).find("clan table version 5") !=
               std::string::npos);

    // A count far beyond the file is refused before anything is allocated for it.
    Bytes huge = bytes;
    store<uint32_t>(huge.data() + 4, 0x7FFFFFFF);
    BOOST_TEST(read_error(huge, ReadMode::Tolerant).find("route count") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(registry_slots_keep_every_byte) {
    registry::Slot odd = registry::Slot::make("static.rlb", "s_tree_0_06.msh");
    odd.raw[20] = 0x55; // after the archive's NUL
    odd.raw[60] = 0x77; // after the member's NUL
    const std::vector<registry::Slot> slots{odd,
                                            registry::Slot::make("static.rlb", "s_tree_0_06.wea"),
                                            registry::Slot{},
                                            registry::Slot{},
                                            registry::Slot{},
                                            registry::Slot{}};
    const Bytes payload = registry::write_slots(slots);
    BOOST_TEST(payload.size() == 6u * 64u);
    const std::vector<registry::Slot> back = registry::read_slots(payload, "objects.rlb:s_tree_06");
    BOOST_TEST(registry::write_slots(back) == payload);
    BOOST_TEST(back[0].archive() == "static.rlb");
    BOOST_TEST(back[0].member() == "s_tree_0_06.msh");
    BOOST_CHECK_THROW(registry::read_slots(ByteView(payload).first(100), "x"), FormatError);

    nres::Archive archive;
    archive.entries.push_back(registry_record("s_tree_06", "STAT", slots));
    archive.entries.push_back(registry_record(
        "gener01", "FORT", {registry::Slot::make("objects.rlb", "gener_base"), registry::Slot{}}));
    archive.entries.push_back(registry_record("gener_base", "STAT",
                                              {registry::Slot::make("fortif.rlb", "Factory.msh"),
                                               registry::Slot::make("fortif.rlb", "Factory.wea")}));
    archive.entries.push_back(
        registry_record("loop_a", "FORT", {registry::Slot::make("objects.rlb", "loop_b")}));
    archive.entries.push_back(
        registry_record("loop_b", "FORT", {registry::Slot::make("objects.rlb", "LOOP_A")}));
    const Bytes file = nres::write_canonical(archive);
    const registry::Registry reg(file, "objects.rlb");
    const auto tree = reg.model("S_TREE_06"); // keys compare case-insensitively
    BOOST_TEST_REQUIRE(tree.has_value());
    BOOST_TEST(tree->member == "s_tree_0_06.msh");
    BOOST_TEST(tree->wear == "s_tree_0_06.wea");
    const auto building = reg.model("gener01");
    BOOST_TEST_REQUIRE(building.has_value());
    BOOST_TEST(building->member == "Factory.msh");
    BOOST_TEST(building->chain.size() == 2u);
    std::string why;
    BOOST_TEST(!reg.model("loop_a", &why));
    BOOST_TEST(why.find("cycle") != std::string::npos, why);
    BOOST_TEST(!reg.model("nothing", &why));
    BOOST_TEST(why.find("no record 'nothing'") != std::string::npos, why);
}

BOOST_AUTO_TEST_CASE(assembly_tree_round_trips) {
    assembly::Assembly a;
    a.class_word = 0x01008000;
    a.components = {component("hero_chassis", -1, 0, 2), component("hero_turret", 3, 1, 1),
                    component("hero_gun", 1, 4, 0), component("hero_armour", 2, 2, 0)};
    const Bytes bytes = assembly::write(a);
    BOOST_TEST(bytes.size() == 8u + 4u * 112u);
    const assembly::Assembly back = assembly::read(bytes, ReadMode::Strict, "hero_t.dat");
    BOOST_TEST(assembly::write(back) == bytes);
    BOOST_TEST((back.parents() == std::vector<int>{-1, 0, 1, 0}));
    BOOST_TEST(assembly::text(back.components[1].record) == "hero_turret");
    BOOST_TEST((sniff(bytes, {"hero_t.dat", std::nullopt}) == ContentKind::Assembly));

    // A tree that leaves a record out, or counts past the end.
    assembly::Assembly short_tree = a;
    short_tree.components[0].child_count = 1;
    BOOST_CHECK_THROW(assembly::read(assembly::write(short_tree), ReadMode::Strict, "x.dat"),
                      FormatError);
    BOOST_CHECK_NO_THROW(assembly::read(assembly::write(short_tree), ReadMode::Tolerant, "x.dat"));
    assembly::Assembly long_tree = a;
    long_tree.components[0].child_count = 5;
    BOOST_CHECK_THROW(assembly::read(assembly::write(long_tree), ReadMode::Strict, "x.dat"),
                      FormatError);
    // A size that is no whole number of components, in both modes.
    Bytes cut = bytes;
    cut.pop_back();
    BOOST_CHECK_THROW(assembly::read(cut, ReadMode::Tolerant, "x.dat"), FormatError);
}

BOOST_AUTO_TEST_SUITE_END()

} // namespace level_format_tests
