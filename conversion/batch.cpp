// mshconv::batch (include/mshconv/batch.hpp): whole game folders for pipelines.
//
// Forward (glb|gltf|obj and/or png): the inputs may be folders (walked recursively), archives or
// single files (also `archive:entry`). Models and maps (Land.msh) convert to the model format,
// Texm textures (archive entries, loose files) to PNG. Output paths keep the input's structure:
// a file at REL below a folder IN goes to DIR/REL; an archive becomes a folder of the same name
// (DIR/static.rlb/TANK.glb) holding its converted entries, every other entry as a raw file, and
// the archive's `_nres.json` manifest (conversion/nres_manifest.hpp), so the folder can be turned
// back into the archive. An archive none of whose entries converts is copied as it is. A
// conversion that fails is reported; inside an archive the entry is then kept as a raw file.
//
// Reverse (nres): every folder below the inputs that holds `_nres.json` is rebuilt into its
// archive (converted entries are imported from their PNG/glTF/OBJ + sidecar, the others read
// raw), byte for byte when nothing was edited; a whole-tree mirror (`_batch.json`) comes back as
// the tree it was made from.
//
// Every direction continues after a failure and reports each item. Work runs on `threads`
// threads (OpenMP); the entries of several archives (a queue bounded at 64 MB of archives) and
// loose files are converted in parallel.
#include "batch.hpp"

#include "address.hpp"
#include "batch_forward.hpp"
#include "batch_preview.hpp"
#include "batch_rebuild.hpp"
#include "convert.hpp"
#include "enum_names.hpp"
#include "preview.hpp"

#include "formats/file_io.hpp"

#include <nlohmann/json.hpp>
#include <omp.h>

#include <map>

const char* mshconv::status_name(ItemStatus status) {
    switch (status) {
    case ItemStatus::Converted:
        return "converted";
    case ItemStatus::Failed:
        return "failed";
    case ItemStatus::Skipped:
        return "skipped";
    }
    return "";
}

namespace msh::conversion {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Outputs never touch inputs: every output goes below OUT, so OUT may neither be an input, lie
// inside an input folder, nor hold an input.
void check_batch_paths(Io& io, const std::vector<std::string>& inputs, const fs::path& out) {
    for (const std::string& spec : inputs) {
        const fs::path in = parse_address(io, spec).file;
        if (is_within(io, out, in))
            throw UsageError("the output " + out.string() + " is or lies inside the input " +
                             in.string() + "; choose an output outside every input");
        if (is_within(io, in, out))
            throw UsageError("the input " + in.string() + " lies inside the output " +
                             out.string() + "; choose an output outside every input");
    }
}

void check_options(Io& io, const mshconv::BatchOptions& options, const Targets& targets) {
    if (!targets.model_ext.empty()) { // usage errors now, not once per file
        model_export_settings(options.convert, "model" + targets.model_ext);
    }
    if (targets.preview) preview_settings(options.preview, readings_of(options.convert));
    if (!options.convert.game_dir.empty() && !io.is_folder(options.convert.game_dir))
        throw UsageError("--game-dir is not a folder: " + options.convert.game_dir.string());
}

} // namespace

} // namespace msh::conversion

mshconv::ItemKind msh::conversion::item_kind(std::string_view name) {
    return named(kItemKindNames, name).value_or(mshconv::ItemKind::Other);
}

const char* mshconv::to_string(ItemKind kind) {
    return msh::conversion::name_of(msh::conversion::kItemKindNames, kind);
}

mshconv::BatchFormats mshconv::parse_batch_formats(const std::string& text) {
    const std::string lower = msh::lower_ascii(text);
    BatchFormats formats;
    size_t start = 0;
    while (start <= lower.size()) {
        const size_t comma = lower.find(',', start);
        const std::string name = lower.substr(start, comma - start);
        const std::optional<BatchFormat> known =
            msh::conversion::named(msh::conversion::kBatchFormatNames, name);
        if (!known)
            throw UsageError("--to takes glb, gltf, obj, png (comma-separated, e.g. glb,png), "
                             "nres or preview, not '" +
                             name + "'");
        formats.insert(*known);
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return formats;
}

std::string mshconv::to_string(const BatchFormats& formats) {
    std::string text;
    for (const auto& [format, name] : msh::conversion::kBatchFormatNames)
        if (formats.count(format)) text += (text.empty() ? "" : ",") + std::string(name);
    return text;
}

// On the disk both resolved (`..`, `.` and symlinks of existing parts); in other stores by their
// normal form.
bool mshconv::is_within(Io& io, const Path& inner, const Path& outer) {
    namespace fs = std::filesystem;
    fs::path a = inner.lexically_normal(), b = outer.lexically_normal();
    if (msh::on_disk(&io)) {
        std::error_code ec;
        a = fs::weakly_canonical(inner, ec);
        b = fs::weakly_canonical(outer, ec);
    }
    auto ai = a.begin();
    for (auto bi = b.begin(); bi != b.end(); ++bi, ++ai)
        if (ai == a.end() || *ai != *bi) return *bi == fs::path() && std::next(bi) == b.end();
    return true;
}

mshconv::BatchResult mshconv::batch(const BatchRequest& request, Io& io, const OnItem& on_item,
                                    const OnMessage& on_message) {
    using namespace msh::conversion;
    const auto start = Clock::now();
    const BatchOptions& options = request.options;
    if (options.to.empty()) throw UsageError("--to is required (or --merge-reports)");
    if (request.inputs.empty()) throw UsageError("no input to convert");
    const Targets targets = targets_of(options.to);
    const Shard shard = options.shard ? checked_shard(*options.shard) : Shard{};
    if (options.threads && *options.threads < 1) throw UsageError("-j must be at least 1");
    check_batch_paths(io, request.inputs, request.output);
    check_options(io, options, targets);

    BatchResult result;
    result.threads = options.threads ? *options.threads : unsigned(omp_get_max_threads());
    Progress progress(on_item);
    KeptWarnings run_warnings;
    BatchRun run{io,           options,
                 targets,      on_message,
                 run_warnings, keeping_warnings({options.convert, io, on_message}, run_warnings),
                 shard,        int(result.threads),
                 progress,     result.items};
    PreviewRun previews;
    if (targets.nres)
        convert_backward(run, request.inputs, request.output);
    else if (targets.preview)
        previews = preview_all(run, request.inputs, request.output);
    else
        convert_forward(run, request.inputs, request.output);
    result.seconds = seconds_since(start);

    result.warnings = run_warnings.texts();
    for (const BatchItem& r : result.items) {
        result.converted += r.status == ItemStatus::Converted;
        result.failed += r.status == ItemStatus::Failed;
        result.skipped += r.status == ItemStatus::Skipped;
        if (r.status == ItemStatus::Converted)
            ++result.converted_by_kind[mshconv::to_string(r.kind)];
        if (targets.nres && r.status == ItemStatus::Converted && r.kind != ItemKind::Archive)
            result.unchanged += r.unchanged;
    }
    if (targets.preview) result.unchanged = previews.unchanged;
    result.to = options.to;
    result.inputs = request.inputs;
    result.output = request.output.string();
    if (!shard.whole()) result.shard = BatchShard{unsigned(shard.index), unsigned(shard.count)};
    return result;
}

std::string mshconv::to_json(const BatchResult& result) {
    using nlohmann::json;
    const bool nres = result.to.count(BatchFormat::Nres) > 0;
    json items = json::array();
    for (const BatchItem& r : result.items) {
        json item = {
            {"input", r.input}, {"kind", to_string(r.kind)}, {"status", status_name(r.status)}};
        if (!r.output.empty()) item["output"] = r.output;
        if (!r.message.empty())
            item[r.status == ItemStatus::Failed ? "error" : "reason"] = r.message;
        if (!r.warnings.empty()) item["warnings"] = r.warnings;
        if (r.status == ItemStatus::Converted) item["seconds"] = r.seconds;
        if (nres && r.status == ItemStatus::Converted && r.kind != ItemKind::Archive)
            item["unchanged"] = r.unchanged;
        items.push_back(std::move(item));
    }
    json report = {{"schema", "mshconv-batch/1"},
                   {"to", to_string(result.to)},
                   {"inputs", result.inputs},
                   {"output", result.output},
                   {"seconds", result.seconds},
                   {"converted", result.converted},
                   {"converted_by_kind", result.converted_by_kind},
                   {"failed", result.failed},
                   {"skipped", result.skipped},
                   {"unchanged", result.unchanged},
                   {"warnings", result.warnings},
                   {"items", items}};
    if (result.shards) {
        report["shards"] = result.shards;
        report["job_seconds"] = result.job_seconds;
    } else {
        report["threads"] = result.threads;
    }
    if (result.shard)
        report["shard"] = {{"index", result.shard->index}, {"count", result.shard->count}};
    // Messages may quote damaged (non-UTF-8) bytes.
    return report.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}
