// `mshconv survey GAME_DIR [--json R.json] [--sheet DIR]`: what a player who owns the game runs and
// shares (mshconv::survey, include/mshconv/survey.hpp). The text report opens with the verdict for
// the player (the --reading flags the data supports, which to pass, and why in words); the
// statistics follow for spec authors. The JSON is described field by field in docs/survey.md.
#include "commands.hpp"
#include "console.hpp"
#include "log.hpp"
#include "options.hpp"

#include <mshconv/survey.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <optional>

namespace msh::cli {

namespace {

namespace fs = std::filesystem;

// ---- progress ----------------------------------------------------------------------------------

// One status line on stderr when it is a terminal (and the log level shows warnings).
class ProgressLine {
  public:
    ProgressLine()
        : show_(stderr_is_terminal() && log_shows(LogLevel::Warn)),
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

std::string joined(const std::vector<std::string>& items, const std::string& prefix,
                   const std::string& separator) {
    std::string s;
    for (const std::string& x : items) s += (s.empty() ? "" : separator) + prefix + x;
    return s;
}

// `text` on lines of at most kColumns, broken at spaces: the first after `first`, the others
// after `rest` (a hanging indent).
constexpr size_t kColumns = 100;
void print_wrapped(const std::string& first, const std::string& rest, const std::string& text) {
    std::string line = first;
    bool empty = true;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find(' ', start);
        if (end == std::string::npos) end = text.size();
        const std::string word = text.substr(start, end - start);
        if (!empty && line.size() + 1 + word.size() > kColumns) {
            std::printf("%s\n", line.c_str());
            line = rest, empty = true;
        }
        line += (empty ? "" : " ") + word;
        empty = false;
        start = end + 1;
    }
    std::printf("%s\n", line.c_str());
}

// The verdict first: what to pass, which defaults fit, what stays undecided, and one line per
// reading saying why in a player's words.
void print_verdict(const mshconv::Survey& s) {
    std::vector<std::string> decided = s.pass;
    decided.insert(decided.end(), s.defaults_that_fit.begin(), s.defaults_that_fit.end());
    // Unwrapped: the flags and NAME=VARIANT pairs are copied from these lines.
    const std::string support = decided.empty() ? std::string("no reading a count decides")
                                                : joined(decided, "--reading ", " ");
    const std::string pass =
        s.pass.empty() ? std::string("nothing, the defaults fit (convert without --reading)")
                       : joined(s.pass, "--reading ", " ") + " (to convert, batch and preview)";
    std::printf("Verdict: your files support: %s\n  pass: %s\n", support.c_str(), pass.c_str());
    std::printf("  defaults that fit: %s\n", s.defaults_that_fit.empty()
                                                 ? "none"
                                                 : joined(s.defaults_that_fit, "", ", ").c_str());
    if (!s.undecided.empty())
        std::printf("  undecided, so the default is used: %s\n",
                    joined(s.undecided, "", ", ").c_str());
    if (!s.damaged.empty() || !s.strict.empty())
        std::printf("  damaged files or entries: %zu; refused by the strict reader: %zu (listed "
                    "below)\n",
                    s.damaged.size(), s.strict.size());
    std::printf("\nWhy (what was counted):\n");
    for (const mshconv::SurveyReading& r : s.readings)
        if (r.switchable) print_wrapped("  ", "      ", r.plain);
    std::printf("\nQuestions for the format spec (no --reading, nothing to pass):\n");
    for (const mshconv::SurveyReading& r : s.readings)
        if (!r.switchable) print_wrapped("  ", "      ", r.plain);
}

void print_report(const mshconv::Survey& s, const std::string& dir, const std::string& sheet_dir) {
    const auto count = [&s](const char* key) -> unsigned long long {
        const auto it = s.counts.find(key);
        return it == s.counts.end() ? 0 : it->second;
    };
    std::printf("mshconv survey of %s: %llu files, %.1f MB\n\n", dir.c_str(), count("files"),
                double(count("bytes")) / 1e6);
    print_verdict(s);
    if (s.sheet_pages)
        std::printf("\nContact sheet: %zu textures on %zu pages in %s (open index.html)\n",
                    *s.sheet_textures, *s.sheet_pages, sheet_dir.c_str());

    std::printf("\n==== Statistics (for spec authors and bug reports) ====\n\n");
    std::printf("Counts (found vs published)\n");
    print_wrapped("  ", "  ",
                  "found: what this folder holds. part 1, part 2: the counts the project's "
                  "format spec (docs/formats) records for the retail Part 1 and Part 2 "
                  "installs. openparkan: the figures the openparkan project publishes for its "
                  "Part 1 install. -: no figure published. A patched, modded or partial install "
                  "differs; that alone is no fault.");
    std::printf("  %-36s %10s %10s %10s %11s\n", "", "found", "part 1", "part 2", "openparkan");
    auto cell = [](const std::optional<uint64_t>& f) {
        return f ? std::to_string(*f) : std::string("-");
    };
    for (const mshconv::SurveyFigure& p : s.published)
        std::printf("  %-36s %10llu %10s %10s %11s\n", p.label.c_str(),
                    static_cast<unsigned long long>(p.found), cell(p.part1).c_str(),
                    cell(p.part2).c_str(), cell(p.openparkan).c_str());
    std::printf("\n  also: %llu nested libraries, %llu Texm with a Page table, %llu loose Texm, "
                "%llu Land.map with %llu areals,\n        WEAR tables %llu in archives + %llu "
                "loose (%llu rows, %llu with extra tokens, %llu LIGHTMAPS sections, %llu of them "
                "with count 0),\n        %llu legacy node tables, %llu other files\n",
                count("nested_archives"), count("texm_with_page"), count("loose_texm"),
                count("areal_maps"), count("areals"), count("wear_in_archives"),
                count("wear_loose"), count("wear_rows"), count("wear_rows_with_extra_tokens"),
                count("wear_lightmap_sections"), count("wear_lightmap_sections_count_zero"),
                count("legacy_node_models"), count("other_files"));
    auto hist = [](const char* what, const std::map<uint64_t, uint64_t>& m) {
        std::string text;
        for (const auto& [k, v] : m)
            text += (text.empty() ? "" : ", ") + std::to_string(k) + ": " + std::to_string(v);
        std::printf("  %s: %s\n", what, text.empty() ? "none" : text.c_str());
    };
    hist("MAT0 by phase count", s.mat0_phases);
    hist("MAT0 by animation blocks", s.mat0_anim_blocks);

    std::printf("\nDamaged (the tolerant readers' first error): %zu\n", s.damaged.size());
    for (const mshconv::SurveyProblem& p : s.damaged)
        std::printf("  %s: %s\n", p.where.c_str(), p.error.c_str());
    std::printf("\nStrict failures (the strict readers' first error): %zu\n", s.strict.size());
    for (const mshconv::SurveyProblem& p : s.strict)
        std::printf("  %s: %s\n", p.where.c_str(), p.error.c_str());

    std::printf("\nReadings (supported variant; the default first in each list)\n");
    print_wrapped("  ", "  ",
                  "+N is a byte position inside one stored record (an animation key, a batch, a "
                  "ground face); the \"offsets:\" line under a reading says what sits there.");
    for (const mshconv::SurveyReading& r : s.readings) {
        std::string vars;
        for (const std::string& x : r.variants) vars += (vars.empty() ? "" : "|") + x;
        const char* verdict = r.verdict == mshconv::SurveyVerdict::Supported
                                  ? r.supported.c_str()
                                  : mshconv::to_string(r.verdict);
        std::printf("  %-20s %-14s (%s)\n", r.name.c_str(), verdict, vars.c_str());
        print_wrapped("      ", "      ", r.why);
        if (!r.offsets.empty()) print_wrapped("      offsets: ", "        ", r.offsets);
    }
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
    mshconv::Io& disk = mshconv::disk();
    if (!disk.is_folder(dir)) {
        log_error(dir.string() + ": " + (disk.is_file(dir) ? "not a folder" : "no such folder"));
        return 1;
    }
    mshconv::SurveyRequest request{dir};
    if (vm.count("json")) request.json = vm["json"].as<std::string>();
    if (vm.count("sheet")) request.sheet = vm["sheet"].as<std::string>();
    ProgressLine progress;
    request.progress = [&](size_t done, size_t total, const std::string& name) {
        progress.update(done, total, name);
    };
    const mshconv::Survey s = mshconv::survey(request, disk);
    progress.end();
    print_report(s, dir.string(), request.sheet ? request.sheet->string() : "");
    return 0;
}

} // namespace msh::cli
