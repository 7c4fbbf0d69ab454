// Whole folders at once, as `mshconv batch IN... -o DIR --to FMT` runs them: every model, map
// and texture below the inputs (folders walked, archives unpacked, nested archives too) converted
// into a mirror of the input's structure (docs/cli.md#batch); `to` Nres rebuilds the game's
// files from such a mirror, byte for byte when nothing was edited; `to` Preview draws a
// thumbnail gallery. Items run in parallel; each one is its own output set, and a failed item
// does not stop the others. Public header: standard library only.
//
//   mshconv::BatchRequest request{{"game"}, "out"};
//   request.options.to = {mshconv::BatchFormat::Glb, mshconv::BatchFormat::Png};
//   const mshconv::BatchResult r = mshconv::batch(request, io, [](const mshconv::BatchItem& i) {
//       std::printf("%s %s\n", mshconv::status_name(i.status), i.input.c_str());
//   });
#pragma once

#include <mshconv/convert.hpp>
#include <mshconv/io.hpp>
#include <mshconv/preview.hpp>

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace mshconv {

// What a batch writes: one of Glb, Gltf and Obj (models and maps) and/or Png (textures); or Nres
// (the game's files rebuilt from a batch output); or Preview (thumbnails, their facts, index.json
// and index.html).
enum class BatchFormat { Glb, Gltf, Obj, Png, Nres, Preview };
using BatchFormats = std::set<BatchFormat>;

// "glb,png" as `mshconv batch --to` takes it (any case); throws UsageError on an unknown name.
BatchFormats parse_batch_formats(const std::string& text);
// The names, comma-separated, in the enum's order: "glb,png".
std::string to_string(const BatchFormats& formats);

// Job `index` (1..count) of `count`: its share of the work, deterministic and balanced by size
// (docs/cli.md#batch).
struct BatchShard {
    unsigned index = 1, count = 1;
};
// "I/N" as `mshconv batch --shard` takes it; throws UsageError unless 1 <= I <= N.
BatchShard parse_batch_shard(const std::string& text);

struct BatchOptions {
    BatchFormats to;
    std::optional<BatchShard> shard;
    std::optional<unsigned> threads; // default: all cores
    // Model and texture export: lod, group, fps, skin, msft_lod, mips, png_level, areal_faces,
    // overlay, readings; game_dir names the game's libraries for every input (default: the
    // nearest folder above each input holding them).
    ConvertOptions convert = {};
    PreviewOptions preview = {}; // to Preview
    bool force = false;          // preview: redo the assets whose key is unchanged
    bool views = true;           // preview: each asset's interactive 3D view
    bool full_read = false;      // Nres: read even the files the exports wrote
};

struct BatchRequest {
    std::vector<std::string> inputs; // folders, archives, files or ARCHIVE:ENTRY
    Path output;                     // a folder (nres with one unpacked archive: the archive)
    BatchOptions options = {};
};

enum class ItemStatus { Converted, Failed, Skipped };
const char* status_name(ItemStatus status); // "converted", "failed", "skipped"

// What an item is: a model, a map, a texture, an archive (or its unpacked folder), an archive
// entry none of these (copied as it is), or another file.
enum class ItemKind { Model, Map, Texture, Archive, Raw, Other, Level };
// "model", "map", "texture", "archive", "raw", "other", "level" (a mission's data.tma)
const char* to_string(ItemKind kind);

// One line of the report: an input file, archive entry or folder and what became of it.
struct BatchItem {
    std::string input; // its address (file or ARCHIVE:ENTRY) or folder
    ItemKind kind = ItemKind::Other;
    // Relative to the output folder (nres with -o naming the archive: its file name): what was
    // written, or the copy of an input that was not converted (also of a failed one).
    std::string output;
    ItemStatus status = ItemStatus::Skipped;
    std::string message; // the error, or why it was skipped
    double seconds = 0;
    bool unchanged = false; // nres: the original came back byte for byte; preview: key unchanged
    std::vector<std::string> warnings; // what its conversion warned of
    // When it ended: the items ended so far (this one included) and the items the run expects
    // (an estimate that grows while archives are read; never below `done`).
    std::size_t done = 0, total = 0;
};

// Called as each item ends, from the worker threads but never two calls at once.
using OnItem = std::function<void(const BatchItem&)>;

struct BatchResult {
    std::vector<BatchItem> items; // in input order, whatever finished first
    std::size_t converted = 0, failed = 0, skipped = 0, unchanged = 0;
    std::map<std::string, std::size_t> converted_by_kind; // by to_string(ItemKind)
    double seconds = 0;
    unsigned threads = 0;
    std::vector<std::string> warnings; // warnings of no item (a game library that cannot be read)
    // What was asked: the formats, the inputs and the output as given, the shard.
    BatchFormats to;
    std::vector<std::string> inputs;
    std::string output;
    std::optional<BatchShard> shard;
    // A merged report (merge_batch_reports): how many shards, and their jobs' seconds added up
    // (`seconds` is the slowest job's); 0 for one run.
    unsigned shards = 0;
    double job_seconds = 0;
};

// The JSON report (schema mshconv-batch/1, docs/cli.md#batch) that `mshconv batch --report`
// writes, of one run or of merged shards.
std::string to_json(const BatchResult& result);

// Throws UsageError on a request that cannot run (an unknown format, an output inside an input);
// a damaged input is a failed item, not an exception.
BatchResult batch(const BatchRequest& request, Io& io = disk(), const OnItem& on_item = {},
                  const OnMessage& on_message = {});

// The reports (to_json texts) of the N shards of one run (`shard` 1/N ... N/N) merged into the
// result of the whole run: every item, the totals and the slowest shard's seconds. `names` name
// the reports in errors; UsageError when they are not the shards 1..N of one run, each once.
BatchResult merge_batch_reports(const std::vector<std::string>& report_texts,
                                const std::vector<std::string>& names);

} // namespace mshconv
