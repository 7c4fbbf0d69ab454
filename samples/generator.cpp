// The synthetic corpus: six outer archives shaped like the game's (static, animals, fortif,
// system, turrets, weapon), each holding nested MSH images and a sibling WEAR text per model.
// Geometry is built from closed primitives per node; all derived fields follow msh.md §11 and
// animation.md §9; the unknown fields carry varied non-zero values so that converters have to
// preserve them rather than re-derive them.
#include "samples/generator.hpp"

#include "formats/file_io.hpp"
#include "samples/game_scale.hpp"
#include "samples/levels_gen.hpp"
#include "samples/terrain_gen.hpp"
#include "samples/textures_gen.hpp"

#include "formats/nres.hpp"
#include "samples/kit.hpp"
#include "samples/recipes.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <optional>
#include <stdexcept>

namespace msh::samples {

namespace {

// ---- catalogue --------------------------------------------------------------------------------

struct Recipe {
    std::string name; // member name, e.g. "TANK.msh"
    std::function<void(Kit&)> build;
};

struct ArchiveRecipe {
    std::string file;
    std::string wear_ext; // ".wea" or ".WEA"
    std::vector<Recipe> models;
};

std::vector<ArchiveRecipe> catalogue() {
    std::vector<ArchiveRecipe> a;
    a.push_back({"static.rlb",
                 ".wea",
                 {
                     {"House_01.msh",
                      [](Kit& k) {
                          building(k, {3.0, 2.5, 1.5, false, false, true, true});
                      }},
                     {"HOUSE_02.msh",
                      [](Kit& k) {
                          building(k, {4.0, 3.0, 1.8, true, true, false, true});
                      }},
                     {"Tree_Pine.msh", [](Kit& k) { tree(k, true); }},
                     {"tree_oak.msh", [](Kit& k) { tree(k, false); }},
                     {"Rock_A.msh",
                      [](Kit& k) {
                          rock(k);
                          k.spec.neg128_share = 0.3;
                      }},
                     {"ROCK_B.msh",
                      [](Kit& k) {
                          rock(k);
                          k.spec.nw_share = 0.2;
                      }},
                     {"A_B.msh",
                      [](Kit& k) {
                          crate(k, false);
                          k.spec.neg128_share = 0.5;
                      }},
                     {"aab.msh", [](Kit& k) { crate(k, true); }},
                     {"Windmill.msh", [](Kit& k) { windmill(k); }},
                     {"Radar_01.msh", [](Kit& k) { radar(k); }},
                     {"Tank_Big.msh", [](Kit& k) { tank(k, 1.6, false, true); }},
                     {"Lamp_Post.msh", [](Kit& k) { lamp(k); }},
                     {"Fence_01.msh",
                      [](Kit& k) {
                          fence(k);
                          k.spec.nw_share = 0.05;
                      }},
                     {"Silo_L.msh",
                      [](Kit& k) {
                          silo(k);
                          k.spec.lightmapped = true;
                      }},
                     {"Pipe_Line.msh", [](Kit& k) { pipeline(k); }},
                     {"Bridge_A.msh",
                      [](Kit& k) {
                          bridge(k);
                          k.spec.lightmapped = true;
                      }},
                 }});
    a.push_back({"animals.rlb",
                 ".wea",
                 {
                     {"A_L_01.msh", [](Kit& k) { quadruped(k, 2, 1.0, false); }},
                     {"A_L_02.msh", [](Kit& k) { quadruped(k, 2, 1.4, true); }},
                     {"a_l_03.msh",
                      [](Kit& k) {
                          quadruped(k, 3, 0.8, false);
                          k.spec.nw_share = 0.1;
                      }},
                     {"A_F_01.msh",
                      [](Kit& k) {
                          bird(k, 1.0);
                          k.label_all();
                      }},
                     {"A_F_02.msh",
                      [](Kit& k) {
                          bird(k, 1.6);
                          k.spec.selector_share = 0.0;
                      }},
                     {"A_W_01.msh", [](Kit& k) { worm(k, 6, 1.0); }},
                     {"A_W_02.msh",
                      [](Kit& k) {
                          worm(k, 12, 0.7);
                          k.blank_name(5);
                          k.blank_name(6);
                          k.blank_name(7);
                      }},
                     {"A_BIG.msh", [](Kit&) {}}, // built by build_recipe (vertex target)
                     {"Crab_01.msh",
                      [](Kit& k) {
                          quadruped(k, 3, 0.6, true);
                          k.spec.neg128_share = 0.2;
                      }},
                     {"ALB.msh", [](Kit& k) { quadruped(k, 1, 1.2, false); }},
                 }});
    a.push_back({"fortif.rlb",
                 ".wea",
                 {
                     {"BUNKER_1.msh", [](Kit& k) { bunker(k, false); }},
                     {"Bunker_2.msh", [](Kit& k) { bunker(k, true); }},
                     {"TOWER_A.msh", [](Kit& k) { tower(k); }},
                     {"Wall_L.msh", [](Kit& k) { wall(k); }},
                     {"GATE_01.msh", [](Kit& k) { gate(k); }},
                     {"Factory.msh",
                      [](Kit& k) {
                          factory(k);
                          k.spec.lightmapped = true;
                      }},
                     {"POD_BASE.msh",
                      [](Kit& k) {
                          pod_base(k);
                          k.spec.lightmapped = true;
                      }},
                     {"Dock_01.msh",
                      [](Kit& k) {
                          dock(k);
                          k.spec.lightmapped = true;
                      }},
                     {"Store_A.msh", [](Kit& k) { store(k); }},
                     {"MINE_01.msh", [](Kit& k) { mine(k); }},
                 }});
    a.push_back({"system.rlb",
                 ".WEA",
                 {
                     {"SHADE.MSH", [](Kit& k) { shade(k); }},
                     {"ARROW.MSH", [](Kit& k) { arrow(k); }},
                     {"MTCHECK.MSH", [](Kit& k) { mtcheck(k); }},
                     {"CURSOR.MSH", [](Kit& k) { cursor(k); }},
                     {"SELECT.MSH", [](Kit& k) { select_ring(k); }},
                     {"FLAG.MSH", [](Kit& k) { flag(k); }},
                     {"WAYPNT.MSH", [](Kit& k) { waypoint(k); }},
                     {"BEACON.MSH",
                      [](Kit& k) {
                          beacon(k);
                          k.label_all();
                      }},
                 }});
    a.push_back({"turrets.rlb",
                 ".wea",
                 {
                     {"TURRET_1.msh",
                      [](Kit& k) {
                          turret(k, {1.0, 1, false, false, 0});
                          k.label_all();
                      }},
                     {"Turret_2.msh",
                      [](Kit& k) {
                          turret(k, {1.3, 2, false, false, 60});
                      }},
                     {"TUR_LAS.msh",
                      [](Kit& k) {
                          turret(k, {1.0, 1, true, false, 90});
                      }},
                     {"tur_rocket.msh",
                      [](Kit& k) {
                          turret(k, {1.2, 4, false, true, 0});
                      }},
                     {"TANKA.msh", [](Kit& k) { tank(k, 1.0, true, false); }},
                     {"Tank_Light.msh",
                      [](Kit& k) {
                          tank(k, 0.8, true, false);
                          k.spec.nw_share = 0.1;
                      }},
                     {"MG_NEST.msh",
                      [](Kit& k) {
                          turret(k, {0.6, 2, false, false, 45});
                      }},
                     {"AA_GUN.msh",
                      [](Kit& k) {
                          turret(k, {0.9, 4, false, false, 0});
                          k.blank_name(6);
                          k.blank_name(8);
                      }},
                     {"Cannon_H.msh",
                      [](Kit& k) {
                          turret(k, {1.6, 1, false, false, 30});
                          k.spec.neg128_share = 0.25;
                      }},
                     {"T_B.msh",
                      [](Kit& k) {
                          turret(k, {0.7, 1, true, false, 0});
                      }},
                 }});
    a.push_back({"weapon.rlb",
                 ".wea",
                 {
                     {"ROCKET_1.msh", [](Kit& k) { rocket(k, false, false); }},
                     {"Rocket_2.msh", [](Kit& k) { rocket(k, true, false); }},
                     {"SHELL_A.msh", [](Kit& k) { shell(k, false); }},
                     {"Bomb_01.msh", [](Kit& k) { shell(k, true); }},
                     {"MINE_AT.msh", [](Kit& k) { landmine(k); }},
                     {"GATLING.msh", [](Kit& k) { gatling(k); }},
                     {"Laser_Gun.msh", [](Kit& k) { laser_gun(k); }},
                     {"PLASMA.msh", [](Kit& k) { plasma(k); }},
                     {"grenade.msh",
                      [](Kit& k) {
                          shell(k, true);
                          k.spec.nw_share = 0.3;
                      }},
                     {"MISSILE_H.msh", [](Kit& k) { rocket(k, false, true); }},
                 }});
    return a;
}

// Same legacy id for the same name across the corpus (ids are parsed but unused by the engine).
int legacy_id(const std::string& name) {
    return int(hash_name(name) % 900) + 100;
}

// A model's WEAR. As shipped tables do (texm-materials.md §11): some rows carry tokens after the
// name, and some unlit models have a LIGHTMAPS section with a count of 0 (`model` picks which).
std::string wear_text(const std::string& model, const std::vector<std::string>& rows,
                      const std::optional<std::string>& lightmap) {
    const uint64_t h = hash_name(model);
    const bool extra_tokens = h % 4 == 1, empty_lightmaps = !lightmap && h % 5 == 2;
    std::string s = std::to_string(rows.size()) + "\r\n";
    for (size_t i = 0; i < rows.size(); ++i) {
        s += std::to_string(legacy_id(rows[i])) + " " + rows[i];
        if (extra_tokens && i % 2 == 0) s += " " + std::to_string(i % 3) + " ; " + rows[i];
        s += "\r\n";
    }
    if (lightmap)
        s += "\r\nLIGHTMAPS\r\n1\r\n" + std::to_string(legacy_id(*lightmap) % 64) + " " +
             *lightmap + "\r\n";
    else if (empty_lightmaps)
        s += "\r\nLIGHTMAPS\r\n0\r\n";
    return s;
}

std::string stem(const std::string& name) {
    return name.substr(0, name.rfind('.'));
}

std::string upper(std::string s) {
    for (char& c : s)
        if (c >= 'a' && c <= 'z') c = char(c - 'a' + 'A');
    return s;
}

BuiltModel build_recipe(const Options& o, const std::string& kit_name, const Recipe& r, Kit& k) {
    if (r.name == "A_BIG.msh") {
        // The largest detail level that stays below the target (about 9,700 vertices), then
        // boxes (24 vertices) instead of wedges (18) among the padding parts to get close to it.
        constexpr size_t kTarget = 9700;
        int best = 3, best_pads = 0;
        size_t best_v = 0;
        for (int d = 3; d <= 12; ++d) {
            Kit probe(o, kit_name);
            int pads = big_creature(probe, d, 0);
            size_t v = probe.vertex_count();
            if (v <= kTarget && v > best_v) {
                best = d;
                best_v = v;
                best_pads = pads;
            }
        }
        big_creature(k, best, std::min(best_pads, int((kTarget - best_v) / 6)));
    } else {
        r.build(k);
    }
    if (k.spec.lightmapped) k.lightmap = "LM_" + upper(stem(r.name));
    BuiltModel b = build_model(k.spec);
    if (b.material_rows != k.materials.size())
        throw std::logic_error(r.name + ": WEAR rows and batch materials disagree");
    return b;
}

// The extra models of a scaled corpus: the catalogue's recipes in turn (not A_BIG: the game has
// one model of that size), each under its own name and so its own random stream, dealt over
// extra_model_archives().
std::vector<ArchiveRecipe> extra_archives(int count) {
    std::vector<std::pair<const ArchiveRecipe*, const Recipe*>> cycle;
    static const std::vector<ArchiveRecipe> base = catalogue();
    for (const ArchiveRecipe& ar : base)
        for (const Recipe& r : ar.models)
            if (r.name != "A_BIG.msh") cycle.emplace_back(&ar, &r);
    const std::vector<std::string>& files = extra_model_archives();
    std::vector<ArchiveRecipe> out;
    for (const std::string& f : files) out.push_back({f, ".wea", {}});
    for (int i = 0; i < count; ++i) {
        const auto& [ar, r] = cycle[size_t(i) % cycle.size()];
        char suffix[16];
        std::snprintf(suffix, sizeof suffix, "_%02d", i / int(cycle.size()) + 1);
        ArchiveRecipe& to = out[size_t(i) % out.size()];
        to.wear_ext = ar->wear_ext;
        // Lightmapped models stay the standard few (the game has ~21 per part, each with its own
        // LightMap.lib texture).
        auto build = [b = r->build](Kit& k) {
            b(k);
            k.spec.lightmapped = false;
        };
        to.models.push_back({stem(r->name) + suffix + r->name.substr(r->name.rfind('.')), build});
    }
    return out;
}

} // namespace

std::vector<GeneratedFile> generate_corpus(const Options& options) {
    std::vector<ArchiveRecipe> archives = catalogue();
    CorpusSize standard{0, int(texture_specs(options.seed).size()), int(map_specs(false).size())};
    for (const ArchiveRecipe& ar : archives) standard.models += int(ar.models.size());
    standard.models += level_model_count(); // parts.rlb, written with the levels
    const CorpusSize size = options.scale > 0 ? game_size(options.scale, standard) : standard;
    for (ArchiveRecipe& ar : extra_archives(size.models - standard.models))
        if (!ar.models.empty()) archives.push_back(std::move(ar));

    std::vector<GeneratedFile> files;
    for (const ArchiveRecipe& ar : archives) {
        nres::Archive archive;
        for (const Recipe& r : ar.models) {
            std::string kit_name = ar.file + ":" + r.name;
            Kit k(options, kit_name);
            BuiltModel b = build_recipe(options, kit_name, r, k);
            nres::Entry mesh;
            mesh.type = nres::fourcc("MESH");
            mesh.set_name(r.name);
            mesh.data = std::move(b.image);
            archive.entries.push_back(std::move(mesh));

            nres::Entry wear;
            wear.type = nres::fourcc("WEAR");
            wear.set_name(stem(r.name) + ar.wear_ext);
            wear.attr3 = 1;
            std::string text = wear_text(r.name, k.materials, k.lightmap);
            wear.data = Bytes(text.begin(), text.end());
            archive.entries.push_back(std::move(wear));
        }
        files.push_back({ar.file, nres::write_canonical(archive)});
    }
    // The libraries the game keeps beside the model archives (Textures.lib, Material.lib, ...),
    // so the corpus folder works as --game-dir.
    for (GeneratedFile& f : generate_material_libraries(
             options.seed, extra_texture_specs(options.seed, size.textures - standard.textures)))
        files.push_back(std::move(f));
    // Levels: DATA/MAPS/<map>/Land.msh, Land.map, Land1.wea, Land2.wea (the stress map is on
    // demand).
    for (GeneratedFile& f : generate_maps(options.seed, false)) files.push_back(std::move(f));
    for (const MapSpec& spec :
         extra_map_specs(options.seed, standard.maps + 1, size.maps - standard.maps))
        for (GeneratedFile& f : generate_map(spec, options.seed)) files.push_back(std::move(f));
    // Missions on those maps: parts.rlb, objects.rlb, UNITS/**/*.dat and MISSIONS/**
    // (levels_gen.hpp).
    for (GeneratedFile& f : generate_levels(options, files)) files.push_back(std::move(f));
    return files;
}

std::vector<std::filesystem::path> write_corpus(const std::filesystem::path& out_dir,
                                                const Options& options) {
    // One set: a full disk leaves no part of a corpus that tests would take for a whole one.
    std::vector<std::filesystem::path> written;
    const std::vector<GeneratedFile> files = generate_corpus(options);
    AtomicFileSet set;
    for (const GeneratedFile& f : files) {
        written.push_back(out_dir / f.relative_path);
        set.add(written.back(), f.bytes);
    }
    set.commit();
    return written;
}

} // namespace msh::samples
