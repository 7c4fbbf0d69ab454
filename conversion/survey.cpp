// The survey behind include/mshconv/survey.hpp: one walk of a game folder through the Io
// (survey_stats.hpp), the published figures beside its counts, the verdict on each contested
// reading (formats/readings.hpp), and the JSON report of docs/survey.md, written with the contact
// sheet (survey_sheet.hpp) as one set.
#include "enum_names.hpp"
#include "survey_sheet.hpp"
#include "survey_stats.hpp"

#include <mshconv/convert.hpp>
#include <mshconv/survey.hpp>

#include "formats/file_io.hpp"
#include "formats/names.hpp"
#include "formats/nres.hpp"
#include "formats/readings.hpp"
#include "sidecar/base64.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <optional>

#ifndef MSHCONV_VERSION
#define MSHCONV_VERSION "unknown"
#endif

namespace msh::conversion::survey {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// ---- published figures of the real install -----------------------------------------------------
//
// part 1 / part 2: docs/formats (nres.md §11, msh.md §2, texm-materials.md §13, terrain.md §4,
// terrain.md §11; Texm formats 556, 88 and other are 0 in part 1: the five listed add up to the
// 518). openparkan: the figures the openparkan project (dragonee/openparkan) publishes for its
// Part 1 install (116 NRes archives with 6,697 members; Textures.lib 393 Texm
// {0: 15, 565: 47, 888: 52, 4444: 42, 8888: 237}, 65 with a Page table; 435 meshes with 241,887
// triangles; Material.lib 905 records; 15,138 batches).
using Figure = std::optional<uint64_t>;
struct Published {
    const char* key;   // the found value (figure() below)
    const char* label; // report text
    Figure part1, part2, openparkan;
};
constexpr std::nullopt_t none = std::nullopt;
const Published kPublished[] = {
    {"nres_files", "NRes files", 120, 134, 116},                // nres.md §11
    {"nres_entries", "NRes entries", 6804, 8171, 6697},         // nres.md §11
    {"models", "MSH models", 435, 511, 435},                    // msh.md §2
    {"animated_models", "animated models", 157, 200, none},     // msh.md §2
    {"models_with_res20", "models with Res20", 21, none, none}, // msh.md §2
    {"batches", "batches", 15153, none, 15138},                 // msh.md §2
    {"triangles", "triangles", 241887, none, 241887},           // msh.md §2
    {"texm", "Texm textures", 518, 631, none},                  // texm-materials.md §13
    {"texm_format_0", "  Texm format 0 (paletted)", 15, none, none},
    {"texm_format_565", "  Texm format 565", 155, none, none},
    {"texm_format_556", "  Texm format 556", 0, none, none},
    {"texm_format_4444", "  Texm format 4444", 59, none, none},
    {"texm_format_88", "  Texm format 88", 0, none, none},
    {"texm_format_888", "  Texm format 888", 52, none, none},
    {"texm_format_8888", "  Texm format 8888", 237, none, none},
    {"texm_format_other", "  Texm other formats", 0, none, none},
    {"textures_lib_texm", "Textures.lib Texm", 393, none, 393}, // texm-materials.md §13
    {"textures_lib_format_0", "  Textures.lib format 0", 15, none, 15},
    {"textures_lib_format_565", "  Textures.lib format 565", 47, none, 47},
    {"textures_lib_format_888", "  Textures.lib format 888", 52, none, 52},
    {"textures_lib_format_4444", "  Textures.lib format 4444", 42, none, 42},
    {"textures_lib_format_8888", "  Textures.lib format 8888", 237, none, 237},
    {"textures_lib_page", "  Textures.lib with Page table", 65, none, 65},
    {"mat0", "MAT0 records", 905, 1127, none}, // texm-materials.md §13
    {"material_lib_mat0", "Material.lib MAT0 records", none, none, 905},
    {"mat0_one_phase", "  MAT0 with 1 phase", 531, none, none},
    {"mat0_anim_blocks_1", "  MAT0 with 1 animation block", 860, none, none},
    {"mat0_anim_blocks_2", "  MAT0 with 2 animation blocks", 43, none, none},
    {"mat0_anim_blocks_8", "  MAT0 with 8 animation blocks", 2, none, none},
    {"terrains", "Land.msh terrains", 33, 32, none}, // terrain.md §11
    {"terrain_vertices", "terrain vertices", 299450, 188024, none},
    {"terrain_faces", "terrain faces", 275882, 184454, none},
    {"terrain_faces_layer2", "terrain faces with a second layer", 32450, none, none}, // §4
    {"areals", "areals (Land.map)", 34662, 18984, none}, // terrain.md §11
    {"missions", "missions (data.tma)", 29, 31, 29},     // level.md §2
    {"placed_objects", "placed objects", 864, 885, 864}, // level.md §2
    {"unresolved_references", "objects whose model does not resolve", 0, none, 0}, // level.md §3
};

uint64_t value_or_zero(const std::map<std::string, uint64_t>& m, const std::string& k) {
    const auto it = m.find(k);
    return it == m.end() ? 0 : it->second;
}

// Figures of the top-level libraries with this leaf name (case-insensitive).
survey::ArchiveFigures library(const Result& r, const std::string& leaf) {
    survey::ArchiveFigures sum;
    for (const auto& [name, f] : r.counts.archives) {
        const std::string base = name.substr(name.rfind('/') + 1);
        if (lower_ascii(base) != leaf) continue;
        sum.entries += f.entries, sum.texm += f.texm, sum.texm_with_page += f.texm_with_page;
        sum.mat0 += f.mat0, sum.models += f.models;
        for (const auto& [k, n] : f.texm_formats) sum.texm_formats[k] += n;
    }
    return sum;
}

uint64_t figure(const Result& r, const std::string& key) {
    const survey::Counts& c = r.counts;
    if (key.starts_with("texm_format_")) return value_or_zero(c.texm_formats, key.substr(12));
    if (key.starts_with("textures_lib")) {
        const survey::ArchiveFigures t = library(r, "textures.lib");
        if (key == "textures_lib_texm") return t.texm;
        if (key == "textures_lib_page") return t.texm_with_page;
        return value_or_zero(t.texm_formats, key.substr(sizeof("textures_lib_format_") - 1));
    }
    if (key == "material_lib_mat0") return library(r, "material.lib").mat0;
    if (key == "mat0_one_phase") {
        const auto it = c.mat0_phases.find(1);
        return it == c.mat0_phases.end() ? 0 : it->second;
    }
    if (key.starts_with("mat0_anim_blocks_")) {
        const auto it = c.mat0_anim_blocks.find(std::stoull(key.substr(17)));
        return it == c.mat0_anim_blocks.end() ? 0 : it->second;
    }
    const std::map<std::string, uint64_t> plain = {
        {"nres_files", c.nres_files},
        {"nres_entries", c.nres_entries},
        {"models", c.models},
        {"animated_models", c.animated_models},
        {"models_with_res20", c.models_with_res20},
        {"batches", c.batches},
        {"triangles", c.triangles},
        {"texm", c.texm},
        {"mat0", c.mat0},
        {"terrains", c.terrains},
        {"terrain_vertices", c.terrain_vertices},
        {"terrain_faces", c.terrain_faces},
        {"terrain_faces_layer2", c.terrain_faces_layer2},
        {"areals", c.areals},
        {"missions", c.missions},
        {"placed_objects", c.placed_objects},
        {"unresolved_references", c.unresolved_references}};
    return value_or_zero(plain, key);
}

// ---- the contested readings --------------------------------------------------------------------

struct Verdict {
    std::string name;
    std::vector<std::string> variants; // the default first
    std::string supported;             // a variant, "undecided" or "mixed"
    std::string why;                   // one line: the deciding statistic in the spec's terms
    json statistic;
    std::string evidence; // what was counted, in a player's words
    std::string offsets;  // the byte offsets `why` names, explained ("" when it names none)

    // A `--reading NAME=VARIANT` selects it; the others are questions for the format spec only.
    bool switchable() const {
        for (const ReadingInfo& info : reading_infos())
            if (info.name == name) return true;
        return false;
    }
    bool decided() const {
        return std::find(variants.begin(), variants.end(), supported) != variants.end();
    }
};

std::vector<std::string> variants_of(const char* name) {
    for (const ReadingInfo& info : reading_infos())
        if (std::string(info.name) == name) return {info.variants.begin(), info.variants.end()};
    return {};
}

std::string n(uint64_t v) {
    return std::to_string(v);
}

// The variant without violations when the other has some; the one with fewer otherwise.
std::string fewer_violations(uint64_t a, uint64_t b, const std::string& va, const std::string& vb) {
    if (a == b) return "undecided";
    return a < b ? va : vb;
}

Verdict key_quaternion(const Result& r) {
    const survey::KeyStats& k = r.keys;
    const bool by_static = k.static_at_22 + k.static_at_16 > 0;
    const uint64_t at22 = by_static ? k.static_at_22 : k.all_at_22;
    const uint64_t at16 = by_static ? k.static_at_16 : k.all_at_16;
    Verdict v{"key-quaternion", variants_of("key-quaternion"), "undecided", "", {}, "", ""};
    if (at22 != at16) v.supported = at22 > at16 ? "xyzw" : "wxyz";
    v.why = std::string(by_static ? "static" : "all") +
            " keys with |value| = 32767 at +22 (word 3): " + n(at22) +
            ", at +16 (word 0): " + n(at16) +
            "; identity is (0,0,0,32767) under xyzw, (32767,0,0,0) under wxyz";
    if (k.keys == 0) {
        v.evidence = "no animation key found";
    } else if (by_static) {
        const uint64_t turned = k.static_keys - at22 - at16;
        v.evidence =
            n(at22) + " of " + n(k.static_keys) +
            " parts that never move store \"no rotation\" the way xyzw reads it, " + n(at16) +
            " the way wxyz does (read the wrong way, such a part stands turned half round)" +
            (turned ? "; the other " + n(turned) + " are turned and tell nothing" : "");
    } else {
        v.evidence = "no part that never moves stores \"no rotation\"; of " + n(k.keys) +
                     " animation keys, " + n(at22) + " hold a full-length value where xyzw keeps " +
                     "the rotation's w, " + n(at16) + " where wxyz does";
    }
    v.offsets = "a key's rotation is four 16-bit numbers at +16..+23 (word 0 at +16, word 3 at "
                "+22); 32767 stands for 1.0, the w of \"no rotation\"";
    v.statistic = {{"models", k.models},
                   {"keys", k.keys},
                   {"static_keys", k.static_keys},
                   {"decided_on", by_static ? "static_keys" : "all_keys"},
                   {"all_keys_full_at_22", k.all_at_22},
                   {"all_keys_full_at_16", k.all_at_16},
                   {"static_keys_full_at_22", k.static_at_22},
                   {"static_keys_full_at_16", k.static_at_16}};
    return v;
}

Verdict batch_material(const Result& r) {
    const survey::BatchStats& b = r.batches;
    Verdict v{"batch-material", variants_of("batch-material"), "undecided", "", {}, "", ""};
    // Violations: "row" when +2 is past the WEAR rows; "wear-id" when the low byte of +4 is no
    // row's legacy id.
    if (b.batches == 0)
        v.why = "no batch of a model with a WEAR of its stem";
    else if (b.row_out_of_range == 0 && b.id_unresolved == 0)
        v.why = "both readings resolve every batch (" + n(b.id_same_row) + " of " + n(b.batches) +
                " to the same row)";
    else
        v.supported = fewer_violations(b.row_out_of_range, b.id_unresolved, "row", "wear-id");
    if (v.why.empty())
        v.why = n(b.batches) + " batches: +2 past the WEAR rows on " + n(b.row_out_of_range) +
                "; low byte of +4 no row's legacy id on " + n(b.id_unresolved) +
                "; +2 != low byte on " + n(b.low_byte_differs) + " (" +
                n(b.differs_explained_by_id) + " of them explained by the legacy id)";
    if (b.batches == 0)
        v.evidence = "no model with a material list (.wea) of its own name was found";
    else
        v.evidence = "of " + n(b.batches) + " model parts (batches), " + n(b.row_in_range) +
                     " find their material in their model's .wea by row number (row), " +
                     n(b.id_resolves) + " by material id (wear-id)" +
                     (b.row_out_of_range == 0 && b.id_unresolved == 0
                          ? ", " + n(b.id_same_row) + " of them the same material both ways"
                          : "; a part that finds none shows a wrong or missing material");
    v.offsets = "a batch is the triangles of one part with one material: +2 is its 16-bit row "
                "number in the WEAR (.wea) list, +4 the byte matched against the rows' ids";
    v.statistic = {{"models_with_wear", b.models_with_wear},
                   {"models_without_wear", b.models_without_wear},
                   {"models_with_unreadable_wear", b.models_with_unreadable_wear},
                   {"batches", b.batches},
                   {"row_in_range", b.row_in_range},
                   {"row_out_of_range", b.row_out_of_range},
                   {"low_byte_differs", b.low_byte_differs},
                   {"id_resolves", b.id_resolves},
                   {"id_unresolved", b.id_unresolved},
                   {"id_same_row", b.id_same_row},
                   {"differs_explained_by_id", b.differs_explained_by_id}};
    return v;
}

Verdict face_material(const Result& r) {
    const survey::FaceStats& f = r.faces;
    Verdict v{"face-material", variants_of("face-material"), "undecided", "", {}, "", ""};
    const uint64_t v12 = f.byte4_past_land1 + f.byte5_past_land2;
    const uint64_t v21 = f.byte4_past_land2 + f.byte5_past_land1;
    if (f.maps == 0)
        v.why = "no Land.msh with Land1.wea and Land2.wea beside it";
    else if (v12 == 0 && v21 == 0)
        v.why = "no face indexes past either table under either reading";
    else
        v.supported = fewer_violations(v12, v21, "land1-land2", "land2-land1");
    if (v.why.empty())
        v.why = n(f.faces) + " faces on " + n(f.maps) +
                " maps: out-of-range rows under land1-land2 " + n(v12) + ", under land2-land1 " +
                n(v21);
    if (f.maps == 0)
        v.evidence = "no Land.msh with Land1.wea and Land2.wea beside it";
    else
        v.evidence = "of " + n(f.faces) + " ground faces on " + n(f.maps) + " maps, " + n(v12) +
                     " material references point past the end of their list under land1-land2, " +
                     n(v21) +
                     " under land2-land1 (such a face shows a wrong or missing ground texture)";
    v.offsets = "a ground face's byte 4 names its material row, byte 5 a second layer's row "
                "(0xFF: none); land1-land2 looks byte 4 up in Land1.wea and byte 5 in Land2.wea, "
                "land2-land1 the other way round";
    v.statistic = {{"maps", f.maps},
                   {"maps_without_wear", f.maps_without_wear},
                   {"faces", f.faces},
                   {"byte5_set", f.byte5_set},
                   {"byte4_past_land1", f.byte4_past_land1},
                   {"byte4_past_land2", f.byte4_past_land2},
                   {"byte5_past_land1", f.byte5_past_land1},
                   {"byte5_past_land2", f.byte5_past_land2},
                   {"violations_land1_land2", v12},
                   {"violations_land2_land1", v21}};
    return v;
}

Verdict texm_rgb(const Result& r, bool sheet) {
    Verdict v{"texm-rgb", variants_of("texm-rgb"), "undecided", "", {}, "", ""};
    v.why = "no count decides it: " + n(r.texm_888) + " textures of format 888 and " +
            n(r.texm_paletted) + " paletted ones; " +
            (sheet ? "look at the contact sheet (left half bgr, right half rgb)"
                   : "run with --sheet DIR and look at them");
    const uint64_t both = r.texm_888 + r.texm_paletted;
    if (both == 0)
        v.evidence =
            "no texture of format 888 or paletted was found; no other format depends on it";
    else
        v.evidence = "no count can tell: " + n(both) + " textures (" + n(r.texm_888) +
                     " true-colour, " + n(r.texm_paletted) +
                     " paletted) show red and blue swapped under the wrong reading; " +
                     (sheet ? "look at the contact sheet: natural colours (skin, sky, fire) on "
                              "the right halves, labelled RGB, mean --reading texm-rgb=rgb"
                            : "run again with --sheet DIR and look at them");
    v.statistic = {{"texm_888", r.texm_888}, {"texm_paletted", r.texm_paletted}};
    return v;
}

// No count tells a LOD from a damage state: the slots reading stays the user's call.
Verdict slots(const Result& r) {
    Verdict v{"slots", variants_of("slots"), "undecided", "", {}, "", ""};
    v.why = "no count decides it: " + n(r.counts.models) +
            " models; compare a model's slots 5..9 (damage state 1 under state-lod) in the game";
    v.evidence = "no count can tell whether a part's 15 slots are 3 levels of detail x 5 groups "
                 "(lod-group) or 3 damage states x 5 levels of detail (state-lod); export a "
                 "model: if its @lod1 parts look damaged rather than simpler, try --reading "
                 "slots=state-lod";
    v.statistic = {{"models", r.counts.models}};
    return v;
}

Verdict sort_fold(const Result& r) {
    const auto& lib = r.folds.libraries;
    const uint64_t upper = value_or_zero(lib, "upper"), lower = value_or_zero(lib, "lower");
    // The variants: the fold new archives are written with (the project's default) first.
    const nres::NameFold def = nres::Archive{}.fold;
    const nres::NameFold other =
        def == nres::NameFold::Upper ? nres::NameFold::Lower : nres::NameFold::Upper;
    Verdict v{"nres-sort-fold",
              {nres::fold_name(def), nres::fold_name(other)},
              "undecided",
              "",
              {},
              "",
              ""};
    if (upper && lower)
        v.supported = "mixed";
    else if (upper || lower)
        v.supported = upper ? "upper" : "lower";
    std::string list;
    for (const auto& [fold, count] : lib)
        list += (list.empty() ? "" : ", ") + n(count) + " " + fold;
    v.why = "libraries by the fold their stored order follows: " + (list.empty() ? "none" : list);
    uint64_t libraries = 0;
    for (const auto& [fold, count] : lib) libraries += count;
    v.evidence = "of " + n(libraries) + " archives, " + n(lower) +
                 " are sorted by lower-case names, " + n(upper) + " by upper-case names, " +
                 n(value_or_zero(lib, "either")) + " either way (their names do not tell), " +
                 n(value_or_zero(lib, "neither")) +
                 " neither; mshconv keeps each archive's stored order and sorts new ones by " +
                 nres::fold_name(def) + "-case names";
    json odd = json::array();
    for (const survey::Problem& p : r.folds.lower_or_neither)
        odd.push_back({{"where", p.where}, {"fold", p.error}});
    v.statistic = {{"libraries", lib}, {"images", r.folds.images}, {"lower_or_neither", odd}};
    return v;
}

Verdict cell_pairs(const Result& r) {
    const survey::CellPairStats& c = r.cell_pairs;
    Verdict v{"terrain-cell-pairs", {"one-per-face", "independent"}, "undecided", "", {}, "", ""};
    if (c.equal && !c.different) v.supported = "one-per-face";
    if (c.different && !c.equal) v.supported = "independent";
    if (c.different && c.equal) v.supported = "mixed";
    v.why = "Land.msh with as many type-11 pairs as type-21 faces: " + n(c.equal) +
            ", other counts: " + n(c.different) + ", without either table: " + n(c.absent);
    v.evidence = "of " + n(c.maps) + " maps, " + n(c.equal) +
                 " have exactly one cell pair (type 11) per ground face (type 21), " +
                 n(c.different) + " another number, " + n(c.absent) +
                 " lack one of the tables; mshconv keeps both tables as stored";
    json diff = json::array();
    for (const auto& m : c.differing)
        diff.push_back({{"where", m.where}, {"pairs", m.pairs}, {"faces", m.faces}});
    v.statistic = {{"maps", c.maps},
                   {"equal", c.equal},
                   {"different", c.different},
                   {"absent", c.absent},
                   {"differing", diff}};
    return v;
}

Verdict res20(const Result& r) {
    const survey::Res20Stats& s = r.res20;
    Verdict v{"res20-node-index", {"node-index-48", "other"}, "undecided", "", {}, "", ""};
    if (s.models && (s.out_of_range || !s.not_multiple_of_48.empty()))
        v.supported = "other";
    else if (s.records && !s.out_of_range)
        v.supported = "node-index-48";
    // A count can only refute the 48-byte reading: "node-index-48" means "not refuted".
    v.why = n(s.models) + " models with Res20, " + n(s.not_multiple_of_48.size()) +
            " not a multiple of 48 bytes; of " + n(s.records) +
            " 48-byte records the i32 at +0 is a node index on " + n(s.in_range) +
            ", out of range on " + n(s.out_of_range) + " (a count can only refute node-index-48)";
    v.evidence = n(s.models) +
                 " models carry the extra table Res20; read as 48-byte records that start with "
                 "a part number, " +
                 n(s.in_range) + " of " + n(s.records) + " records name an existing part, " +
                 n(s.out_of_range) + " do not, " + n(s.not_multiple_of_48.size()) +
                 " tables are no multiple of 48 bytes; a count can only rule this reading out, "
                 "and mshconv keeps the table as stored";
    v.offsets = "+0 is the first 4 bytes of each 48-byte record";
    json odd = json::array();
    for (const auto& t : s.not_multiple_of_48)
        odd.push_back({{"where", t.where}, {"size", t.size}});
    v.statistic = {{"models", s.models},
                   {"models_multiple_of_48", s.models_multiple_of_48},
                   {"records", s.records},
                   {"in_range", s.in_range},
                   {"out_of_range", s.out_of_range},
                   {"not_multiple_of_48", odd}};
    return v;
}

// ---- the verdict -------------------------------------------------------------------------------

// One reading in a player's words: the variant the data fits or the one used, and what was
// counted.
std::string plain_line(const Verdict& v) {
    if (!v.switchable()) return v.name + ": " + v.supported + "; " + v.evidence;
    if (v.decided()) return v.name + "=" + v.supported + " fits: " + v.evidence;
    return v.name + ": undecided, " + v.variants[0] + " (the default) is used; " + v.evidence;
}

// The switchable readings sorted into what to pass, the defaults the data confirms, and the
// undecided ones (whose default is used); each as NAME=VARIANT.
struct Summary {
    std::vector<std::string> pass, defaults_that_fit, undecided;
};

Summary summarize(const std::vector<Verdict>& verdicts) {
    Summary s;
    for (const Verdict& v : verdicts) {
        if (!v.switchable()) continue;
        if (!v.decided())
            s.undecided.push_back(v.name + "=" + v.variants[0]);
        else
            (v.supported == v.variants[0] ? s.defaults_that_fit : s.pass)
                .push_back(v.name + "=" + v.supported);
    }
    return s;
}

json verdict_json(const std::vector<Verdict>& verdicts) {
    const Summary s = summarize(verdicts);
    json undecided = json::object(), why = json::object();
    for (const Verdict& v : verdicts) {
        why[v.name] = plain_line(v);
        if (v.switchable() && !v.decided()) undecided[v.name] = v.variants[0];
    }
    return {{"pass", s.pass},
            {"defaults_that_fit", s.defaults_that_fit},
            {"undecided", undecided},
            {"why", why}};
}

// ---- report ------------------------------------------------------------------------------------

json problems(const std::vector<survey::Problem>& list) {
    json a = json::array();
    for (const survey::Problem& p : list) a.push_back({{"where", p.where}, {"error", p.error}});
    return a;
}

json to_json(const Result& r, const std::vector<Verdict>& verdicts, const std::string& dir_name,
             const std::optional<SheetOutcome>& sheet) {
    const survey::Counts& c = r.counts;
    auto keyed = [](const std::map<uint64_t, uint64_t>& m) {
        json j = json::object();
        for (const auto& [k, v] : m) j[std::to_string(k)] = v;
        return j;
    };
    json formats = json::object();
    for (const texm::Format f : texm::kAllFormats) formats[std::to_string(uint32_t(f))] = 0;
    formats["other"] = 0;
    for (const auto& [k, v] : c.texm_formats) formats[k] = v;
    json counts = {{"files", c.files},
                   {"bytes", c.bytes},
                   {"unreadable_files", c.unreadable_files},
                   {"other_files", c.other_files},
                   {"nres_files", c.nres_files},
                   {"nres_entries", c.nres_entries},
                   {"nested_archives", c.nested_archives},
                   {"models", c.models},
                   {"loose_models", c.loose_models},
                   {"legacy_node_models", c.legacy_node_models},
                   {"animated_models", c.animated_models},
                   {"model_nodes", c.model_nodes},
                   {"model_vertices", c.model_vertices},
                   {"batches", c.batches},
                   {"triangles", c.triangles},
                   {"keys", c.keys},
                   {"models_with_res20", c.models_with_res20},
                   {"texm", c.texm},
                   {"loose_texm", c.loose_texm},
                   {"texm_formats", formats},
                   {"texm_with_page", c.texm_with_page},
                   {"mat0", c.mat0},
                   {"mat0_phases", keyed(c.mat0_phases)},
                   {"mat0_anim_blocks", keyed(c.mat0_anim_blocks)},
                   {"wear",
                    {{"in_archives", c.wear_in_archives},
                     {"loose", c.wear_loose},
                     {"rows", c.wear_rows},
                     {"rows_with_extra_tokens", c.wear_rows_with_extra},
                     {"lightmap_sections", c.wear_lightmap_sections},
                     {"lightmap_sections_count_zero", c.wear_lightmaps_count_zero}}},
                   {"terrains", c.terrains},
                   {"terrain_vertices", c.terrain_vertices},
                   {"terrain_faces", c.terrain_faces},
                   {"terrain_faces_layer2", c.terrain_faces_layer2},
                   {"areal_maps", c.areal_maps},
                   {"areals", c.areals},
                   {"missions", c.missions},
                   {"placed_objects", c.placed_objects},
                   {"unresolved_references", c.unresolved_references}};
    json archives = json::object();
    for (const auto& [name, f] : c.archives)
        archives[name] = {{"entries", f.entries},
                          {"models", f.models},
                          {"texm", f.texm},
                          {"texm_formats", f.texm_formats},
                          {"texm_with_page", f.texm_with_page},
                          {"mat0", f.mat0}};
    json published = json::array();
    for (const Published& p : kPublished) {
        auto fig = [](const Figure& f) { return f ? json(*f) : json(nullptr); };
        published.push_back({{"figure", p.key},
                             {"found", figure(r, p.key)},
                             {"part1", fig(p.part1)},
                             {"part2", fig(p.part2)},
                             {"openparkan", fig(p.openparkan)}});
    }
    json readings = json::object();
    for (const Verdict& v : verdicts)
        readings[v.name] = {{"variants", v.variants},
                            {"default", v.variants.empty() ? "" : v.variants[0]},
                            {"supported", v.supported},
                            {"why", v.why},
                            {"statistic", v.statistic}};
    json files = json::array();
    for (const survey::FileRecord& f : r.files)
        files.push_back({{"name", f.name},
                         {"size", f.size},
                         {"xxh3_64", sidecar::hex64(f.hash)},
                         {"kind", f.kind}});
    return {{"schema", "mshconv-survey/1"},
            {"tool_version", MSHCONV_VERSION},
            {"game_dir", dir_name},
            {"counts", counts},
            {"archives", archives},
            {"published", published},
            {"damaged", problems(r.damaged)},
            {"strict_failures", problems(r.strict)},
            {"readings", readings},
            {"verdict", verdict_json(verdicts)},
            {"sheet",
             sheet ? json{{"pages", sheet->pages}, {"textures", sheet->textures}} : json(nullptr)},
            {"files", files}};
}
mshconv::Survey run(const mshconv::SurveyRequest& request, mshconv::Io& io) {
    const fs::path& dir = request.game_dir;
    if (!io.is_folder(dir))
        throw std::runtime_error(dir.string() + ": " +
                                 (io.is_file(dir) ? "not a folder" : "no such folder"));
    // The report is written beside the game, never into it: every file there is an input.
    for (const auto& [option, path] : {std::pair{"json", request.json}, {"sheet", request.sheet}})
        if (path && mshconv::is_within(io, *path, dir))
            throw mshconv::UsageError(std::string("--") + option + " " + path->string() +
                                      " lies inside the game folder " + dir.string() +
                                      "; the survey writes beside it, never into it");
    fs::path canonical = dir;
    if (on_disk(&io)) {
        std::error_code ec;
        canonical = fs::weakly_canonical(dir, ec);
        if (ec) canonical = dir;
    }
    if (canonical.filename().empty()) canonical = canonical.parent_path();

    Options options;
    options.sheet = request.sheet.has_value();
    options.sheet_max_width = kSheetPage - 2 * kSheetSpacing;
    options.progress = request.progress;
    const Result r = collect(io, dir, options);

    // The sheet and the JSON appear together or not at all.
    OwnedFiles files;
    std::optional<SheetOutcome> sheet;
    if (request.sheet) sheet = add_sheet(files, *request.sheet, r.sheet, options.sheet_gap);
    const std::vector<Verdict> verdicts = {
        key_quaternion(r), batch_material(r), face_material(r), texm_rgb(r, options.sheet),
        slots(r),          sort_fold(r),      cell_pairs(r),    res20(r)};
    // The folder's own name only: the rest of the path may name the player.
    const std::string dir_name = canonical.filename().string();
    const json report = to_json(r, verdicts, dir_name, sheet);
    if (request.json) {
        const std::string text = report.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
        files.emplace_back(*request.json, Bytes(text.begin(), text.end()));
    }
    std::vector<mshconv::FileToWrite> set;
    for (const auto& [path, bytes] : files) set.push_back({path, {ByteView(bytes)}});
    if (!set.empty()) io.write_set(set);

    mshconv::Survey out;
    out.game_dir = dir_name;
    for (const auto& [key, value] : report["counts"].items()) {
        if (value.is_number_unsigned())
            out.counts[key] = value.get<uint64_t>();
        else if (key == "wear" || key == "texm_formats")
            for (const auto& [sub, n] : value.items())
                out.counts[(key == "wear" ? "wear_" : "texm_format_") + sub] = n.get<uint64_t>();
    }
    out.mat0_phases = r.counts.mat0_phases;
    out.mat0_anim_blocks = r.counts.mat0_anim_blocks;
    for (const Published& p : kPublished)
        out.published.push_back({p.key, p.label, figure(r, p.key), p.part1, p.part2, p.openparkan});
    for (const Problem& p : r.damaged) out.damaged.push_back({p.where, p.error});
    for (const Problem& p : r.strict) out.strict.push_back({p.where, p.error});
    for (const Verdict& v : verdicts) {
        using mshconv::SurveyVerdict;
        // `supported` is the variant, or the verdict's own name.
        const SurveyVerdict verdict =
            v.decided()
                ? SurveyVerdict::Supported
                : named(kSurveyVerdictNames, v.supported).value_or(SurveyVerdict::Undecided);
        out.readings.push_back({v.name, v.variants, verdict,
                                verdict == SurveyVerdict::Supported ? v.supported : "",
                                v.switchable(), v.why, v.offsets, plain_line(v)});
    }
    Summary summary = summarize(verdicts);
    out.pass = std::move(summary.pass);
    out.defaults_that_fit = std::move(summary.defaults_that_fit);
    out.undecided = std::move(summary.undecided);
    if (sheet) out.sheet_pages = sheet->pages, out.sheet_textures = sheet->textures;
    return out;
}

} // namespace

} // namespace msh::conversion::survey

const char* mshconv::to_string(SurveyVerdict verdict) {
    return msh::conversion::name_of(msh::conversion::kSurveyVerdictNames, verdict);
}

mshconv::Survey mshconv::survey(const SurveyRequest& request, Io& io) {
    return msh::conversion::survey::run(request, io);
}
