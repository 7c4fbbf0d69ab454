// batch's reporting: one Result per item, and the Progress display that counts finished items
// (a status line on a terminal or with --progress) and prints errors so that they do not mix with
// that line.
#pragma once

#include <spdlog/spdlog.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <string>
#include <unistd.h>

namespace msh::cli {

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

enum class Status { Converted, Failed, Skipped };

const char* status_name(Status s);

// One line of the report.
struct Result {
    std::string input; // address (file or archive:entry) or folder
    std::string kind;  // model, map, texture, archive, other
    std::string output;
    Status status = Status::Skipped;
    std::string message; // the error, or why it was skipped
    double seconds = 0;
    bool unchanged = false; // reverse: the original payload came back byte for byte
};

// Counts finished items; on a terminal (or with --progress) shows one status line on stderr.
// Errors go through it so that they do not mix with the status line.
class Progress {
  public:
    explicit Progress(bool forced)
        : show_(spdlog::get_level() <= spdlog::level::warn && (forced || ::isatty(2))),
          overwrite_(::isatty(2) != 0), start_(Clock::now()) {}

    void finished(const Result& r) {
        const size_t done = ++done_;
        if (r.status == Status::Failed) ++failed_;
        std::lock_guard lock(mutex_);
        if (r.status == Status::Failed) {
            clear_line();
            // Format errors already name the file (and entry).
            if (r.message.starts_with(r.input))
                spdlog::error("{}", r.message);
            else
                spdlog::error("{}: {}", r.input, r.message);
        } else if (r.status == Status::Converted) {
            spdlog::debug("{} -> {} ({:.3f} s)", r.input, r.output, r.seconds);
        } else {
            spdlog::debug("{}: skipped ({})", r.input, r.message);
        }
        // Long jobs only, at most a few times a second.
        if (!show_ || seconds_since(start_) < 1.0 || seconds_since(last_) < (overwrite_ ? 0.2 : 2))
            return;
        last_ = Clock::now();
        std::fprintf(stderr, "%sbatch: %zu done, %zu failed, %.0f s  %s%s",
                     overwrite_ ? "\r\033[K" : "", done, failed_.load(), seconds_since(start_),
                     r.input.c_str(), overwrite_ ? "" : "\n");
        drawn_ = overwrite_;
    }

    void end() {
        std::lock_guard lock(mutex_);
        clear_line();
    }

  private:
    void clear_line() {
        if (drawn_) std::fputs("\r\033[K", stderr);
        drawn_ = false;
    }

    bool show_, overwrite_;
    bool drawn_ = false;
    Clock::time_point start_, last_{};
    std::atomic<size_t> done_{0}, failed_{0};
    std::mutex mutex_;
};

} // namespace msh::cli
