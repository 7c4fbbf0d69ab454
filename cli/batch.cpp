// `mshconv batch IN... -o DIR --to FMT[,FMT]`: whole game folders through mshconv::batch
// (include/mshconv/batch.hpp), with a status line, the failures and the
// folded warnings on stderr, a summary line on stdout and --report FILE.json; `--merge-reports`
// joins the reports of a --shard run.
#include "batch_progress.hpp"
#include "commands.hpp"
#include "convert_options.hpp"
#include "log.hpp"
#include "options.hpp"
#include "preview_cmd.hpp"

#include "formats/file_io.hpp"
#include "formats/names.hpp"

#include <mshconv/batch.hpp>

namespace msh::cli {

namespace fs = std::filesystem;

namespace {

bool is_within(const fs::path& inner, const fs::path& outer) {
    return mshconv::is_within(mshconv::disk(), inner, outer);
}

// --report may not be an input or the output (the library checks the outputs themselves).
void check_report_path(const std::vector<std::string>& inputs, const fs::path& out,
                       const po::variables_map& vm) {
    if (!vm.count("report")) return;
    const fs::path report = vm["report"].as<std::string>();
    for (const std::string& spec : inputs) {
        const fs::path in = mshconv::address_file(spec);
        if (is_within(report, in))
            throw UsageError("--report " + report.string() + " is or lies inside the input " +
                             in.string());
    }
    if (is_within(out, report)) throw UsageError("--report names the output " + out.string());
}

void write_text(const fs::path& path, const std::string& text) {
    write_file_atomic(path, ByteView(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

// `--merge-reports R1.json ... -o MERGED.json`.
int merge_reports(const std::vector<std::string>& reports, const fs::path& out) {
    for (const std::string& r : reports)
        if (is_within(out, r)) throw UsageError("the output " + out.string() + " is an input");
    std::vector<std::string> texts;
    for (const std::string& r : reports) {
        const Bytes bytes = read_file(r);
        texts.emplace_back(bytes.begin(), bytes.end());
    }
    const mshconv::BatchResult merged = mshconv::merge_batch_reports(texts, reports);
    write_text(out, mshconv::to_json(merged));
    log_info("merged " + std::to_string(reports.size()) + " shard reports: " +
             std::to_string(merged.converted) + " converted, " + std::to_string(merged.failed) +
             " failed, " + std::to_string(merged.skipped) + " skipped");
    return merged.failed ? 1 : 0;
}

} // namespace

int run_batch(const Args& args) {
    po::options_description desc("batch options");
    desc.add_options()("output,o", po::value<std::string>()->required()->value_name("DIR"),
                       "output folder (--to nres with one unpacked archive: the archive file)")(
        "to", po::value<std::string>()->value_name("FMT[,FMT]"),
        "glb | gltf | obj (models, maps) and/or png (textures), comma-separated; or nres "
        "(rebuild archives from batch output); or preview (thumbnails, facts, index.html)")(
        "shard", po::value<std::string>()->value_name("I/N"),
        "only job I's share of N (deterministic, balanced by size; merge the reports with "
        "--merge-reports)")("merge-reports",
                            "IN... are the --report files of the N shards of one run; -o is the "
                            "merged report")("jobs,j", po::value<int>()->value_name("N"),
                                             "threads (default: all cores)")(
        "report", po::value<std::string>()->value_name("R.json"),
        "write a JSON summary of every item")(
        "progress", "status line on stderr also when it is not a terminal (every 10 s)")(
        "lod", po::value<std::string>()->default_value("0")->value_name("N|all"),
        "models: LOD 0..2 or all")(
        "group", po::value<std::string>()->default_value("0")->value_name("N|all"),
        "models: slot group 0..4 or all")("fps", po::value<double>()->value_name("F"),
                                          "models: frames per second of key times (default 24)")(
        "skin", "models (glTF): one skinned mesh per LOD/group")(
        "msft-lod", "models (glTF) with --lod all: the MSFT_lod extension")(
        "game-dir", po::value<std::string>()->value_name("DIR"),
        "folder with Material.lib, Textures.lib, palettes.lib, LightMap.lib (default: the "
        "nearest folder above each input holding them)")("mips",
                                                         "textures: also write every mip level")(
        "overlay", po::value<std::string>()->value_name("raw|draped|both"),
        "maps to glTF: raw (no draped layer: smaller, faster) or draped / both (default: the "
        "overlay also laid on the terrain)")("areal-faces",
                                             "maps to OBJ: also write the areals as filled faces")(
        "png-level", po::value<int>()->value_name("N"),
        "PNG encoding, zlib level 0..9 with adaptive row filters (9: smallest files); default: "
        "the fast setting (ISA-L igzip level 0, Up filter; same pixels)")(
        "force", "--to preview: redo every asset, also those whose key is unchanged")(
        "no-views", "--to preview: thumbnails and facts only, without the interactive views (the "
                    "maps' views are most of a gallery's size)")(
        "full-read", "--to nres: read and compare even the files the exports wrote (by default "
                     "those give their originals without being read)");
    add_reading_option(desc);
    po::options_description preview_desc("--to preview options (see mshconv preview --help)");
    add_preview_options(preview_desc, PreviewUse::Batch);
    desc.add(preview_desc);
    po::variables_map vm;
    if (!parse_options(args, "batch IN... -o DIR --to FMT[,FMT] [options]", desc,
                       {{"input", "IN...", true}}, vm))
        return 0;
    const bool previews =
        vm.count("to") &&
        lower_ascii(vm["to"].as<std::string>()).find("preview") != std::string::npos;
    if (previews) adopt_old_overlay_spelling(vm);

    const std::vector<std::string> inputs = vm["input"].as<std::vector<std::string>>();
    const fs::path out = vm["output"].as<std::string>();
    check_report_path(inputs, out, vm);
    if (vm.count("merge-reports")) return merge_reports(inputs, out);

    mshconv::BatchRequest request{inputs, out};
    mshconv::BatchOptions& o = request.options;
    if (vm.count("to")) o.to = mshconv::parse_batch_formats(vm["to"].as<std::string>());
    if (vm.count("shard")) o.shard = mshconv::parse_batch_shard(vm["shard"].as<std::string>());
    o.convert = convert_options(vm); // -j also gives the threads
    o.threads = o.convert.threads;
    if (previews) o.preview = preview_options(vm);
    o.force = vm.count("force") > 0;
    o.views = vm.count("no-views") == 0;
    o.full_read = vm.count("full-read") > 0;

    ProgressLine progress(vm.count("progress") > 0);
    // Warnings are in the result (each item's, and those of no item): printed at the end, folded.
    const mshconv::BatchResult r =
        mshconv::batch(request, mshconv::disk(), std::ref(progress),
                       [](mshconv::MessageLevel level, const std::string& text) {
                           if (level != mshconv::MessageLevel::Warning) print_message(level, text);
                       });
    progress.clear_line();
    if (vm.count("report")) write_text(vm["report"].as<std::string>(), mshconv::to_json(r));
    FoldedWarnings warnings;
    for (const std::string& w : r.warnings) warnings.add(w, "");
    for (const mshconv::BatchItem& item : r.items)
        for (const std::string& w : item.warnings) warnings.add(w, item.input);
    warnings.print();
    if (log_shows(LogLevel::Warn)) {
        const bool preview = o.to.count(mshconv::BatchFormat::Preview) > 0;
        std::printf("batch: %zu converted, %zu unchanged, %zu skipped, %zu failed in %.1f s%s\n",
                    r.converted, r.unchanged, r.skipped, r.failed, r.seconds,
                    preview && r.unchanged ? " (unchanged previews are kept; --force redoes them)"
                    : r.failed && !vm.count("report") ? " (details: --report R.json)"
                                                      : "");
    }
    return r.failed ? 1 : 0;
}

} // namespace msh::cli
