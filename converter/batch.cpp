// `mshconv batch IN... -o DIR --to FMT[,FMT]`: conversion of whole game folders for pipelines.
//
// Forward (--to glb|gltf|obj and/or png): IN may be folders (walked recursively), archives or
// single files (also `archive:entry`). Models and maps (Land.msh) convert to the model format,
// Texm textures (archive entries, loose files) to PNG. Output paths keep the input's structure:
// a file at REL below a folder IN goes to DIR/REL; an archive becomes a folder of the same name
// (DIR/static.rlb/TANK.glb) holding its converted entries, every other entry as a raw file, and
// the archive's `_nres.json` manifest (pipeline/nres_manifest.hpp), so the folder can be turned
// back into the archive. An archive none of whose entries converts is skipped. A conversion
// that fails is reported; inside an archive the entry is then kept as a raw file.
//
// Reverse (--to nres): every folder below IN that holds `_nres.json` is rebuilt into its archive
// (converted entries are imported from their PNG/glTF/OBJ + sidecar, the others read raw), byte
// for byte when nothing was edited. -o names the archive when IN itself is one such folder,
// else the folder the archives go to (at their relative paths).
//
// Both directions continue after a failure, report each one on stderr (and all of them in
// --report FILE.json) and exit 1 at the end if any failed. Work runs on -j N threads (OpenMP;
// default: all cores); the entries of several archives (a queue bounded at 64 MB of archives)
// and loose files are converted in parallel.
#include "batch_forward.hpp"
#include "batch_preview.hpp"
#include "batch_progress.hpp"
#include "batch_rebuild.hpp"
#include "batch_shard.hpp"
#include "commands.hpp"
#include "disk_jobs.hpp"
#include "options.hpp"
#include "preview_cmd.hpp"

#include "formats/file_io.hpp"

#include <nlohmann/json.hpp>
#include <omp.h>
#include <spdlog/spdlog.h>

#include <map>

namespace msh::cli {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// `inner` is `outer` or lies below it (both resolved: `..`, `.` and symlinks of existing parts).
bool is_within(const fs::path& inner, const fs::path& outer) {
    std::error_code ec;
    const fs::path a = fs::weakly_canonical(inner, ec), b = fs::weakly_canonical(outer, ec);
    auto ai = a.begin();
    for (auto bi = b.begin(); bi != b.end(); ++bi, ++ai)
        if (ai == a.end() || *ai != *bi) return *bi == fs::path() && std::next(bi) == b.end();
    return true;
}

// Outputs never touch inputs: every output goes below OUT, so OUT may neither be an input, lie
// inside an input folder, nor hold an input; --report may not be an input or OUT itself.
void check_batch_paths(const std::vector<std::string>& inputs, const fs::path& out,
                       const po::variables_map& vm) {
    for (const std::string& spec : inputs) {
        const fs::path in = parse_address(spec).file;
        if (is_within(out, in))
            throw UsageError("the output " + out.string() + " is or lies inside the input " +
                             in.string() + "; choose an output outside every input");
        if (is_within(in, out))
            throw UsageError("the input " + in.string() + " lies inside the output " +
                             out.string() + "; choose an output outside every input");
        if (vm.count("report") && is_within(vm["report"].as<std::string>(), in))
            throw UsageError("--report " + vm["report"].as<std::string>() +
                             " is or lies inside the input " + in.string());
    }
    if (vm.count("report") && is_within(out, vm["report"].as<std::string>()))
        throw UsageError("--report names the output " + out.string());
}

} // namespace

int run_batch(const Args& args) {
    po::options_description desc("batch options");
    desc.add_options()("input", po::value<std::vector<std::string>>()->required(),
                       "folders, archives, files or archive:entry")(
        "output,o", po::value<std::string>()->required(),
        "output folder (--to nres with one unpacked archive: the archive file)")(
        "to", po::value<std::string>(),
        "glb | gltf | obj (models, maps) and/or png (textures), comma-separated; or nres "
        "(rebuild archives from batch output); or preview (thumbnails, facts, index.html)")(
        "shard", po::value<std::string>(),
        "I/N: only job I's share of N (deterministic, balanced by size; merge the reports with "
        "--merge-reports)")("merge-reports",
                            "IN... are the --report files of the N shards of one run; -o is the "
                            "merged report")("jobs,j", po::value<int>(),
                                             "threads (default: all cores)")(
        "report", po::value<std::string>(), "write a JSON summary of every item")(
        "progress", "status line on stderr also when it is not a terminal")(
        "lod", po::value<std::string>()->default_value("0"), "models: LOD 0..2 or all")(
        "group", po::value<std::string>()->default_value("0"), "models: slot group 0..4 or all")(
        "fps", po::value<double>(), "models: frames per second of key times (default 24)")(
        "skin", "models (glTF): one skinned mesh per LOD/group")(
        "msft-lod", "models (glTF) with --lod all: the MSFT_lod extension")(
        "game-dir", po::value<std::string>(),
        "folder with Material.lib, Textures.lib, palettes.lib, LightMap.lib (default: the "
        "nearest folder above each input holding them)")("mips",
                                                         "textures: also write every mip level")(
        "areal-faces", "maps to OBJ: also write the areals as filled faces")(
        "png-level", po::value<int>(),
        "PNG encoding, zlib level 0..9 with adaptive row filters (9: smallest files); default: "
        "the fast setting (ISA-L igzip level 0, Up filter; same pixels)")(
        "force", "--to preview: redo every asset, also those whose key is unchanged")(
        "no-views", "--to preview: thumbnails and facts only, without the interactive views (the "
                    "maps' views are most of a gallery's size)")(
        "full-read", "--to nres: read and compare even the files the exports wrote (by default "
                     "those give their originals without being read)");
    add_reading_option(desc);
    po::options_description preview_desc("--to preview options (see mshconv preview --help)");
    add_preview_options(preview_desc, false);
    desc.add(preview_desc);
    po::positional_options_description pos;
    pos.add("input", -1);
    po::variables_map vm;
    if (!parse_options(args, "batch IN... -o DIR --to FMT[,FMT] [options]", desc, pos, vm))
        return 0;

    const std::vector<std::string> inputs = vm["input"].as<std::vector<std::string>>();
    const fs::path out = vm["output"].as<std::string>();
    if (vm.count("merge-reports")) {
        check_batch_paths(inputs, out, vm);
        return merge_reports(inputs, out);
    }
    if (!vm.count("to")) throw UsageError("--to is required (or --merge-reports)");
    const Targets targets = parse_targets(vm["to"].as<std::string>());
    const Shard shard = vm.count("shard") ? parse_shard(vm["shard"].as<std::string>()) : Shard{};
    if (vm.count("jobs")) {
        const int n = vm["jobs"].as<int>();
        if (n < 1) throw UsageError("-j must be at least 1");
        omp_set_num_threads(n);
    }
    check_batch_paths(inputs, out, vm);
    if (!targets.model_ext.empty()) { // usage errors now, not once per file
        const mshconv::ConvertOptions options = convert_options(vm);
        jobs::model_export_settings(options, "model" + targets.model_ext);
        jobs::terrain_overlay(options);
    }
    if (targets.preview) preview_settings(vm);
    if (vm.count("game-dir") && !fs::is_directory(vm["game-dir"].as<std::string>()))
        throw UsageError("--game-dir is not a folder: " + vm["game-dir"].as<std::string>());

    const auto start = Clock::now();
    Progress progress(vm.count("progress") > 0);
    std::vector<Result> results;
    PreviewRun previews;
    if (targets.nres) {
        rebuild_all(inputs, out, shard, progress, results, vm.count("full-read") > 0);
    } else if (targets.preview) {
        previews = preview_all(inputs, out, vm, shard, progress, results);
    } else {
        convert_forward(targets, inputs, out, vm, shard, progress, results);
    }
    progress.end();
    const double seconds = seconds_since(start);

    std::map<std::string, size_t> converted_by_kind;
    size_t converted = 0, failed = 0, skipped = 0, unchanged = 0;
    json items = json::array();
    for (const Result& r : results) {
        // Reverse: raw entries are copied, not converted (reported only when they fail).
        if (r.kind == "raw" && r.status != Status::Failed) continue;
        converted += r.status == Status::Converted;
        failed += r.status == Status::Failed;
        skipped += r.status == Status::Skipped;
        if (r.status == Status::Converted) ++converted_by_kind[r.kind];
        json item = {{"input", r.input}, {"kind", r.kind}, {"status", status_name(r.status)}};
        if (!r.output.empty()) item["output"] = r.output;
        if (!r.message.empty()) item[r.status == Status::Failed ? "error" : "reason"] = r.message;
        if (r.status == Status::Converted) item["seconds"] = r.seconds;
        if (targets.nres && r.status == Status::Converted && r.kind != "archive") {
            item["unchanged"] = r.unchanged;
            unchanged += r.unchanged;
        }
        items.push_back(std::move(item));
    }
    if (vm.count("report")) {
        json report = {{"schema", "mshconv-batch/1"},
                       {"to", targets.text},
                       {"inputs", inputs},
                       {"output", out.string()},
                       {"threads", omp_get_max_threads()},
                       {"seconds", seconds},
                       {"converted", converted},
                       {"converted_by_kind", converted_by_kind},
                       {"failed", failed},
                       {"skipped", skipped},
                       {"items", items}};
        if (targets.nres) report["unchanged"] = unchanged;
        if (targets.preview) report["unchanged"] = previews.unchanged;
        if (!shard.whole()) report["shard"] = {{"index", shard.index}, {"count", shard.count}};
        // Messages may quote damaged (non-UTF-8) bytes.
        const std::string text = report.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
        write_file_atomic(vm["report"].as<std::string>(), Bytes(text.begin(), text.end()));
    }
    // Previews: how many were skipped as unchanged is news for the user, so it is said.
    if (targets.preview && spdlog::get_level() <= spdlog::level::warn)
        std::printf("batch: %zu previews drawn, %zu unchanged (skipped; --force redoes them), "
                    "%zu failed in %.2f s\n",
                    converted, previews.unchanged, failed, seconds);
    else
        spdlog::log(failed ? spdlog::level::err : spdlog::level::info,
                    "batch: {} converted, {} failed, {} skipped in {:.2f} s{}", converted, failed,
                    skipped, seconds,
                    vm.count("report") ? ""
                    : failed           ? " (details: --report R.json)"
                                       : "");
    return failed ? 1 : 0;
}

} // namespace msh::cli
