// What the batch directions share (forward, reverse, previews): the run's settings, its I/O, the
// report lines and the caller's progress callback (include/mshconv/batch.hpp).
#pragma once

#include "batch_shard.hpp"
#include "job.hpp"

#include <mshconv/batch.hpp>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace msh::conversion {

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

using Result = mshconv::BatchItem;
using Status = mshconv::ItemStatus;

// The kind a report line names ("model", ...; a name none of them: Other; enum_names.hpp).
mshconv::ItemKind item_kind(std::string_view name);

// A line of the report, before its seconds, warnings and progress count.
inline Result report_line(std::string input, std::string_view kind, std::string output,
                          Status status, std::string message) {
    Result r;
    r.input = std::move(input);
    r.kind = item_kind(kind);
    r.output = std::move(output);
    r.status = status;
    r.message = std::move(message);
    return r;
}

// Hands each finished item to the caller's callback, one call at a time, with the run's count.
class Progress {
  public:
    explicit Progress(const mshconv::OnItem& on_item) : on_item_(on_item) {}
    // `n` more items are planned.
    void expect(size_t n) {
        const std::lock_guard lock(mutex_);
        total_ += n;
    }
    void finished(Result& r) {
        const std::lock_guard lock(mutex_);
        r.done = ++done_;
        r.total = total_ = std::max(total_, done_);
        if (on_item_) on_item_(r);
    }

  private:
    const mshconv::OnItem& on_item_;
    std::mutex mutex_;
    size_t done_ = 0, total_ = 0;
};

struct Targets {
    std::string model_ext; // ".glb", ".gltf", ".obj" or empty: models and maps are skipped
    bool png = false;      // textures to PNG
    bool nres = false;     // reverse: rebuild archives
    bool preview = false;  // thumbnails, facts and a gallery (batch_preview.hpp)
    std::string text;      // the formats' names (mshconv::to_string)
};

// What `to` asks for; throws UsageError on a contradictory set.
Targets targets_of(const mshconv::BatchFormats& formats);

// One batch run: its request, I/O, job settings and report.
struct BatchRun {
    mshconv::Io& io;
    const mshconv::BatchOptions& options;
    const Targets& targets;
    mshconv::OnMessage on_message; // the caller's
    KeptWarnings& run_warnings;    // of no item (a game library that cannot be read)
    Job job;                       // options.convert on `io`; its warnings in run_warnings
    Shard shard;
    int threads = 1;
    Progress& progress;
    std::vector<Result>& results;

    // An item's job: its warnings go to `kept` (the item's report line) and to the caller.
    Job item_job(KeptWarnings& kept) const {
        return keeping_warnings({options.convert, io, on_message}, kept);
    }
};

} // namespace msh::conversion
