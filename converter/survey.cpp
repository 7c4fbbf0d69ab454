// `mshconv survey GAME_DIR [--json R.json] [--sheet DIR]`: what a player who owns the game runs and
// shares. Counts of every kind beside the published figures of the real install, the files and
// entries the tolerant readers find damaged and the strict readers refuse, and for each contested
// reading (formats/readings.hpp) the statistic that decides it and the variant the data supports.
// The report holds counts, hashes and names only, never game bytes; --sheet draws the 888 and
// paletted textures both ways round for the one reading no count decides (texm-rgb).
// The JSON is described field by field in docs/survey.md.
#include "commands.hpp"
#include "console.hpp"
#include "options.hpp"
#include "survey_stats.hpp"

#include "formats/file_io.hpp"
#include "formats/nres.hpp"
#include "formats/png.hpp"
#include "formats/readings.hpp"
#include "pipeline/outputs.hpp"
#include "sidecar/base64.hpp"

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <optional>

#ifndef MSHCONV_VERSION
#define MSHCONV_VERSION "unknown"
#endif

namespace msh::cli {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using survey::Result;

// ---- published figures of the real install -----------------------------------------------------
//
// part 1 / part 2: docs/formats (nres.md §11, msh.md §2, texm-materials.md §13, terrain.md §4,
// terrain.md §11; Texm formats 556, 88 and other are 0 in part 1: the five listed add up to the
// 518). openparkan: the figures the openparkan project publishes for its Part 1 install, as quoted
// in the task that added this command (116 NRes archives with 6,697 members; Textures.lib 393 Texm
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
        if (pipeline::lower_ascii(base) != leaf) continue;
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
    const std::map<std::string, uint64_t> plain = {{"nres_files", c.nres_files},
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
                                                   {"areals", c.areals}};
    return value_or_zero(plain, key);
}

// ---- the contested readings --------------------------------------------------------------------

struct Verdict {
    std::string name;
    std::vector<std::string> variants; // the default first
    std::string supported;             // a variant, or "undecided"
    std::string why;                   // one line: the deciding statistic in words
    json statistic;
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
    Verdict v{"key-quaternion", variants_of("key-quaternion"), "undecided", "", {}};
    if (at22 != at16) v.supported = at22 > at16 ? "xyzw" : "wxyz";
    v.why = std::string(by_static ? "static" : "all") +
            " keys with |value| = 32767 at +22 (word 3): " + n(at22) +
            ", at +16 (word 0): " + n(at16) +
            "; identity is (0,0,0,32767) under xyzw, (32767,0,0,0) under wxyz";
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
    Verdict v{"batch-material", variants_of("batch-material"), "undecided", "", {}};
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
    Verdict v{"face-material", variants_of("face-material"), "undecided", "", {}};
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
    Verdict v{"texm-rgb", variants_of("texm-rgb"), "undecided", "", {}};
    v.why = "no count decides it: " + n(r.texm_888) + " textures of format 888 and " +
            n(r.texm_paletted) + " paletted ones; " +
            (sheet ? "look at the contact sheet (left half bgr, right half rgb)"
                   : "run with --sheet DIR and look at them");
    v.statistic = {{"texm_888", r.texm_888}, {"texm_paletted", r.texm_paletted}};
    return v;
}

// No count tells a LOD from a damage state: the slots reading stays the user's call.
Verdict slots(const Result& r) {
    Verdict v{"slots", variants_of("slots"), "undecided", "", {}};
    v.why = "no count decides it: " + n(r.counts.models) +
            " models; compare a model's slots 5..9 (damage state 1 under state-lod) in the game";
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
    Verdict v{
        "nres-sort-fold", {nres::fold_name(def), nres::fold_name(other)}, "undecided", "", {}};
    if (upper && lower)
        v.supported = "mixed";
    else if (upper || lower)
        v.supported = upper ? "upper" : "lower";
    std::string list;
    for (const auto& [fold, count] : lib)
        list += (list.empty() ? "" : ", ") + n(count) + " " + fold;
    v.why = "libraries by the fold their stored order follows: " + (list.empty() ? "none" : list);
    json odd = json::array();
    for (const survey::Problem& p : r.folds.lower_or_neither)
        odd.push_back({{"where", p.where}, {"fold", p.error}});
    v.statistic = {{"libraries", lib}, {"images", r.folds.images}, {"lower_or_neither", odd}};
    return v;
}

Verdict cell_pairs(const Result& r) {
    const survey::CellPairStats& c = r.cell_pairs;
    Verdict v{"terrain-cell-pairs", {"one-per-face", "independent"}, "undecided", "", {}};
    if (c.equal && !c.different) v.supported = "one-per-face";
    if (c.different && !c.equal) v.supported = "independent";
    if (c.different && c.equal) v.supported = "mixed";
    v.why = "Land.msh with as many type-11 pairs as type-21 faces: " + n(c.equal) +
            ", other counts: " + n(c.different) + ", without either table: " + n(c.absent);
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
    Verdict v{"res20-node-index", {"node-index-48", "other"}, "undecided", "", {}};
    if (s.models && (s.out_of_range || !s.not_multiple_of_48.empty()))
        v.supported = "other";
    else if (s.records && !s.out_of_range)
        v.supported = "node-index-48";
    // A count can only refute the 48-byte reading: "node-index-48" means "not refuted".
    v.why = n(s.models) + " models with Res20, " + n(s.not_multiple_of_48.size()) +
            " not a multiple of 48 bytes; of " + n(s.records) +
            " 48-byte records the i32 at +0 is a node index on " + n(s.in_range) +
            ", out of range on " + n(s.out_of_range) + " (a count can only refute node-index-48)";
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

// ---- contact sheet -----------------------------------------------------------------------------

struct SheetOutcome {
    size_t pages = 0, textures = 0;
};

constexpr uint32_t kPage = 1024;

// Each cell: level 0 as stored (B, G, R) on the left, with R and B exchanged on the right, `gap` px
// apart; cells kSpacing px apart, packed in rows (shelves) onto pages of at most kPage x kPage.
constexpr uint32_t kSpacing = 16;

// The pages and their index, added to `files` (the report's set).
SheetOutcome add_sheet(AtomicFileSet& files, const fs::path& dir,
                       const std::vector<survey::SheetTexture>& items, uint32_t gap) {
    struct Place {
        size_t page;
        uint32_t x, y;
    };
    std::vector<Place> places;
    std::vector<std::pair<uint32_t, uint32_t>> extent; // per page: used width, height
    uint32_t x = kSpacing, y = kSpacing, row = 0;
    for (const survey::SheetTexture& t : items) {
        const uint32_t w = 2 * t.bgr.width + gap, h = t.bgr.height;
        if (extent.empty()) extent.push_back({0, 0});
        if (x + w + kSpacing > kPage) x = kSpacing, y += row + kSpacing, row = 0;
        if (y + h + kSpacing > kPage) extent.push_back({0, 0}), x = kSpacing, y = kSpacing, row = 0;
        places.push_back({extent.size() - 1, x, y});
        extent.back().first = std::max(extent.back().first, x + w + kSpacing);
        extent.back().second = std::max(extent.back().second, y + h + kSpacing);
        x += w + kSpacing;
        row = std::max(row, h);
    }
    auto page_name = [](size_t p) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "sheet-%03zu.png", p + 1);
        return std::string(buf);
    };
    for (size_t p = 0; p < extent.size(); ++p) {
        texm::Image page(extent[p].first, extent[p].second);
        for (size_t i = 0; i < page.rgba.size(); i += 4)
            page.rgba[i] = page.rgba[i + 1] = page.rgba[i + 2] = 40, page.rgba[i + 3] = 255;
        for (size_t i = 0; i < items.size(); ++i) {
            if (places[i].page != p) continue;
            const texm::Image& img = items[i].bgr;
            for (uint32_t yy = 0; yy < img.height; ++yy)
                for (uint32_t xx = 0; xx < img.width; ++xx) {
                    const uint8_t* s = img.at(xx, yy);
                    uint8_t* left = page.at(places[i].x + xx, places[i].y + yy);
                    uint8_t* right = page.at(places[i].x + img.width + gap + xx, places[i].y + yy);
                    std::copy(s, s + 4, left);
                    right[0] = s[2], right[1] = s[1], right[2] = s[0], right[3] = s[3];
                }
        }
        files.add(dir / page_name(p), png::encode_rgba(page));
    }
    std::string index =
        "# mshconv survey contact sheet: each cell is one texture's level 0 twice, " +
        std::to_string(gap) +
        " px apart: one half decoded B,G,R (texm-rgb=bgr, the default), the other R,G,B "
        "(texm-rgb=rgb).\n# Pick the half whose colours look right: `mshconv ... --reading "
        "texm-rgb=rgb` if it is the rgb one.\n# "
        "page\tx\ty\twidth\theight\tformat\tstored_size\tbgr_half\t"
        "texture\n";
    for (size_t i = 0; i < items.size(); ++i) {
        const survey::SheetTexture& t = items[i];
        index += page_name(places[i].page) + "\t" + std::to_string(places[i].x) + "\t" +
                 std::to_string(places[i].y) + "\t" + std::to_string(2 * t.bgr.width + gap) + "\t" +
                 std::to_string(t.bgr.height) + "\t" + std::to_string(t.format) + "\t" +
                 std::to_string(t.width) + "x" + std::to_string(t.height) + "\tleft\t" + t.where +
                 "\n";
    }
    files.add(dir / "index.txt",
              ByteView(reinterpret_cast<const uint8_t*>(index.data()), index.size()));
    return {extent.size(), items.size()};
}

// ---- progress ----------------------------------------------------------------------------------

// One status line on stderr when it is a terminal (and the log level shows warnings).
class ProgressLine {
  public:
    ProgressLine()
        : show_(stderr_is_terminal() && spdlog::get_level() <= spdlog::level::warn),
          start_(std::chrono::steady_clock::now()) {}
    void update(size_t done, size_t total, const std::string& name) {
        if (!show_) return;
        const auto now = std::chrono::steady_clock::now();
        if (done != total && now - last_ < std::chrono::milliseconds(200)) return;
        last_ = now;
        const double s = std::chrono::duration<double>(now - start_).count();
        const int width = 30;
        const int filled = total ? int(double(done) / double(total) * width) : width;
        std::fprintf(stderr, "\r\033[Ksurvey [%s%s] %zu/%zu files, %.0f s  %s",
                     std::string(size_t(filled), '#').c_str(),
                     std::string(size_t(width - filled), '.').c_str(), done, total, s,
                     name.substr(0, 60).c_str());
        drawn_ = true;
    }
    void end() {
        if (drawn_) std::fputs("\r\033[K", stderr);
        drawn_ = false;
    }

  private:
    bool show_, drawn_ = false;
    std::chrono::steady_clock::time_point start_, last_{};
};

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
                   {"areals", c.areals}};
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
            {"sheet",
             sheet ? json{{"pages", sheet->pages}, {"textures", sheet->textures}} : json(nullptr)},
            {"files", files}};
}

void print_report(const Result& r, const std::vector<Verdict>& verdicts, const std::string& dir,
                  const std::optional<SheetOutcome>& sheet, const std::string& sheet_dir) {
    const survey::Counts& c = r.counts;
    std::printf("mshconv survey of %s: %llu files, %.1f MB\n\n", dir.c_str(),
                static_cast<unsigned long long>(c.files), double(c.bytes) / 1e6);
    std::printf("Counts (found vs published)\n");
    std::printf("  %-36s %10s %10s %10s %11s\n", "", "found", "part 1", "part 2", "openparkan");
    auto cell = [](const Figure& f) { return f ? std::to_string(*f) : std::string("-"); };
    for (const Published& p : kPublished)
        std::printf("  %-36s %10llu %10s %10s %11s\n", p.label,
                    static_cast<unsigned long long>(figure(r, p.key)), cell(p.part1).c_str(),
                    cell(p.part2).c_str(), cell(p.openparkan).c_str());
    std::printf("\n  also: %llu nested libraries, %llu Texm with a Page table, %llu loose Texm, "
                "%llu Land.map with %llu areals,\n        WEAR tables %llu in archives + %llu "
                "loose (%llu rows, %llu with extra tokens, %llu LIGHTMAPS sections, %llu of them "
                "with count 0),\n        %llu legacy node tables, %llu other files\n",
                (unsigned long long)c.nested_archives, (unsigned long long)c.texm_with_page,
                (unsigned long long)c.loose_texm, (unsigned long long)c.areal_maps,
                (unsigned long long)c.areals, (unsigned long long)c.wear_in_archives,
                (unsigned long long)c.wear_loose, (unsigned long long)c.wear_rows,
                (unsigned long long)c.wear_rows_with_extra,
                (unsigned long long)c.wear_lightmap_sections,
                (unsigned long long)c.wear_lightmaps_count_zero,
                (unsigned long long)c.legacy_node_models, (unsigned long long)c.other_files);
    auto hist = [](const char* what, const std::map<uint64_t, uint64_t>& m) {
        std::string s;
        for (const auto& [k, v] : m)
            s += (s.empty() ? "" : ", ") + std::to_string(k) + ": " + std::to_string(v);
        std::printf("  %s: %s\n", what, s.empty() ? "none" : s.c_str());
    };
    hist("MAT0 by phase count", c.mat0_phases);
    hist("MAT0 by animation blocks", c.mat0_anim_blocks);

    std::printf("\nDamaged (the tolerant readers' first error): %zu\n", r.damaged.size());
    for (const survey::Problem& p : r.damaged)
        std::printf("  %s: %s\n", p.where.c_str(), p.error.c_str());
    std::printf("\nStrict failures (the strict readers' first error): %zu\n", r.strict.size());
    for (const survey::Problem& p : r.strict)
        std::printf("  %s: %s\n", p.where.c_str(), p.error.c_str());

    std::printf("\nReadings (supported variant; the default first in each list)\n");
    for (const Verdict& v : verdicts) {
        std::string vars;
        for (const std::string& x : v.variants) vars += (vars.empty() ? "" : "|") + x;
        std::printf("  %-20s %-14s (%s)\n      %s\n", v.name.c_str(), v.supported.c_str(),
                    vars.c_str(), v.why.c_str());
    }
    if (sheet)
        std::printf("\nContact sheet: %zu textures on %zu pages in %s (index.txt)\n",
                    sheet->textures, sheet->pages, sheet_dir.c_str());
}

} // namespace

int run_survey(const Args& args) {
    po::options_description desc("survey options");
    desc.add_options()("json", po::value<std::string>()->value_name("R.json"),
                       "also write the report as JSON (docs/survey.md)")(
        "sheet", po::value<std::string>()->value_name("DIR"),
        "write a contact sheet of the 888 and paletted textures decoded both ways (texm-rgb) "
        "into this folder");
    po::variables_map vm;
    if (!parse_options(args, "survey GAME_DIR [--json R.json] [--sheet DIR]", desc,
                       {{"game-dir", "GAME_DIR"}}, vm))
        return 0;
    const fs::path dir = vm["game-dir"].as<std::string>();
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
        spdlog::error("{}: {}", dir.string(),
                      fs::exists(dir, ec) ? "not a folder" : "no such folder");
        return 1;
    }

    fs::path canonical = fs::weakly_canonical(dir, ec);
    if (ec) canonical = dir;
    if (canonical.filename().empty()) canonical = canonical.parent_path();
    // The report is written beside the game, never into it: every file there is an input.
    for (const char* option : {"json", "sheet"}) {
        if (!vm.count(option)) continue;
        const fs::path out = fs::weakly_canonical(vm[option].as<std::string>(), ec);
        const auto [g, o] =
            std::mismatch(canonical.begin(), canonical.end(), out.begin(), out.end());
        if (g == canonical.end())
            throw UsageError(std::string("--") + option + " " + vm[option].as<std::string>() +
                             " lies inside the game folder " + dir.string() +
                             "; the survey writes beside it, never into it");
    }

    survey::Options options;
    options.sheet = vm.count("sheet") > 0;
    options.sheet_max_width = kPage - 2 * kSpacing;
    ProgressLine progress;
    options.progress = [&](size_t done, size_t total, const std::string& name) {
        progress.update(done, total, name);
    };
    Result r = survey::collect(dir, options);
    progress.end();

    // The sheet and the JSON appear together or not at all.
    AtomicFileSet files;
    std::optional<SheetOutcome> sheet;
    if (options.sheet)
        sheet = add_sheet(files, vm["sheet"].as<std::string>(), r.sheet, options.sheet_gap);

    const std::vector<Verdict> verdicts = {
        key_quaternion(r), batch_material(r), face_material(r), texm_rgb(r, options.sheet),
        slots(r),          sort_fold(r),      cell_pairs(r),    res20(r)};
    // The folder's own name only: the rest of the path may name the player.
    const std::string dir_name = canonical.filename().string();
    if (vm.count("json")) {
        const std::string text = to_json(r, verdicts, dir_name, sheet)
                                     .dump(2, ' ', false, json::error_handler_t::replace) +
                                 "\n";
        files.add(vm["json"].as<std::string>(),
                  ByteView(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
    }
    files.commit();
    print_report(r, verdicts, dir.string(), sheet,
                 options.sheet ? vm["sheet"].as<std::string>() : "");
    return 0;
}

} // namespace msh::cli
