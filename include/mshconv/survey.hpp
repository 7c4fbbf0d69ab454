// What `mshconv survey GAME_DIR` finds in a game folder: counts of every kind beside the published
// figures of the real installs, the files and entries the tolerant readers find damaged and the
// strict readers refuse, and for each contested reading the statistic that decides it and the
// variant the data supports. The report holds counts, hashes and names only, never game bytes
// (docs/survey.md describes its JSON field by field). Public header: standard library only.
//
//   const mshconv::Survey s = mshconv::survey({"/games/parkan"});
//   for (const std::string& r : s.pass) std::printf("--reading %s\n", r.c_str());
#pragma once

#include <mshconv/error.hpp>
#include <mshconv/io.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mshconv {

struct SurveyRequest {
    Path game_dir;
    // Also written, as one set (all or none) and never inside game_dir: the report as JSON, and
    // the contact sheet of the 888 and paletted textures decoded both ways round (texm-rgb).
    std::optional<Path> json = {}, sheet = {};
    // Called after each file: files done, files in all, the file's name in the folder.
    std::function<void(std::size_t, std::size_t, const std::string&)> progress = {};
};

// A file or archive entry and the first error a reader reported for it.
struct SurveyProblem {
    std::string where; // relative path, `archive:entry` for entries
    std::string error;
};

// One count beside the figures published for the retail installs (absent: none published).
struct SurveyFigure {
    std::string key;   // "nres_files", "models", "texm_format_565", ...
    std::string label; // the report's words
    std::uint64_t found = 0;
    std::optional<std::uint64_t> part1, part2, openparkan;
};

// What the data says of a contested reading: one variant, both (the files disagree), or nothing
// (no file holds what would tell them apart).
enum class SurveyVerdict { Supported, Mixed, Undecided };
const char* to_string(SurveyVerdict verdict); // "supported", "mixed", "undecided"

// One contested reading (formats/readings.hpp) and what the data says of it.
struct SurveyReading {
    std::string name;
    std::vector<std::string> variants; // the default first
    SurveyVerdict verdict = SurveyVerdict::Undecided;
    std::string supported;   // the variant the data supports (verdict Supported), else empty
    bool switchable = false; // a --reading selects it; else a question for the spec
    std::string why;         // the deciding statistic in the spec's terms
    std::string offsets;     // the byte offsets `why` names, explained (or empty)
    std::string plain;       // one line in a player's words
};

struct Survey {
    std::string game_dir; // the folder's own name only (the rest of a path may name the player)
    // Every count of the report's "counts" (docs/survey.md), by name; the MAT0 histograms apart.
    std::map<std::string, std::uint64_t> counts;
    std::map<std::uint64_t, std::uint64_t> mat0_phases, mat0_anim_blocks; // count -> records
    std::vector<SurveyFigure> published;
    std::vector<SurveyProblem> damaged; // the tolerant readers' first error
    std::vector<SurveyProblem> strict;  // the strict readers' first error
    std::vector<SurveyReading> readings;
    // The switchable readings as NAME=VARIANT: to pass, the defaults the data confirms, and the
    // undecided ones (whose default is used).
    std::vector<std::string> pass, defaults_that_fit, undecided;
    std::optional<std::size_t> sheet_pages, sheet_textures; // with a sheet
};

// Never throws for a damaged or unreadable game file: it is listed in `damaged`. Throws
// UsageError when an output lies inside game_dir, std::runtime_error when game_dir is no folder.
Survey survey(const SurveyRequest& request, Io& io = disk());

} // namespace mshconv
