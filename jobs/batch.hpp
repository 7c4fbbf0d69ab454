// What the batch directions share (forward, reverse, previews): the run's settings, its I/O, the
// report lines and the caller's progress callback (include/mshconv/batch.hpp).
#pragma once

#include "batch_shard.hpp"
#include "job.hpp"

#include <mshconv/batch.hpp>

#include <chrono>
#include <mutex>
#include <string>
#include <vector>

namespace msh::jobs {

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

using Result = mshconv::BatchItem;
using Status = mshconv::ItemStatus;

// Hands each finished item to the caller's callback, one call at a time.
class Progress {
  public:
    explicit Progress(const mshconv::OnItem& on_item) : on_item_(on_item) {}
    void finished(const Result& r) {
        if (!on_item_) return;
        const std::lock_guard lock(mutex_);
        on_item_(r);
    }

  private:
    const mshconv::OnItem& on_item_;
    std::mutex mutex_;
};

struct Targets {
    std::string model_ext; // ".glb", ".gltf", ".obj" or empty: models and maps are skipped
    bool png = false;      // textures to PNG
    bool nres = false;     // reverse: rebuild archives
    bool preview = false;  // thumbnails, facts and a gallery (batch_preview.hpp)
    std::string text;
};

// `to` as given; throws UsageError on an unknown or contradictory format list.
Targets parse_targets(const std::string& text);

// One batch run: its request, I/O, job settings and report.
struct BatchRun {
    mshconv::Io& io;
    const mshconv::BatchOptions& options;
    const Targets& targets;
    Job job; // options.convert on `io`, the caller's messages
    Shard shard;
    int threads = 1;
    Progress& progress;
    std::vector<Result>& results;
};

// `inner` is `outer` or lies below it.
bool is_within(mshconv::Io& io, const std::filesystem::path& inner,
               const std::filesystem::path& outer);

} // namespace msh::jobs
