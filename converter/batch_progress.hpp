// batch's display: counts the finished items (a status line on stderr on a terminal or with
// --progress) and prints each failure so that it does not mix with that line. It is the
// OnItem callback the command hands to mshconv::batch.
#pragma once

#include "console.hpp"

#include <mshconv/batch.hpp>

#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdio>

namespace msh::cli {

class ProgressLine {
  public:
    explicit ProgressLine(bool forced)
        : show_(spdlog::get_level() <= spdlog::level::warn && (forced || stderr_is_terminal())),
          overwrite_(stderr_is_terminal()), start_(Clock::now()) {}

    // mshconv::batch makes one call at a time.
    void operator()(const mshconv::BatchItem& r) {
        ++done_;
        if (r.status == mshconv::ItemStatus::Failed) {
            ++failed_;
            clear_line();
            // Format errors already name the file (and entry).
            if (r.message.starts_with(r.input))
                spdlog::error("{}", r.message);
            else
                spdlog::error("{}: {}", r.input, r.message);
        } else if (r.status == mshconv::ItemStatus::Converted) {
            spdlog::debug("{} -> {} ({:.3f} s)", r.input, r.output, r.seconds);
        } else {
            spdlog::debug("{}: skipped ({})", r.input, r.message);
        }
        // Long jobs only, at most a few times a second.
        if (!show_ || since(start_) < 1.0 || since(last_) < (overwrite_ ? 0.2 : 2)) return;
        last_ = Clock::now();
        std::fprintf(stderr, "%sbatch: %zu done, %zu failed, %.0f s  %s%s",
                     overwrite_ ? "\r\033[K" : "", done_, failed_, since(start_), r.input.c_str(),
                     overwrite_ ? "" : "\n");
        drawn_ = overwrite_;
    }

    void clear_line() {
        if (drawn_) std::fputs("\r\033[K", stderr);
        drawn_ = false;
    }

  private:
    using Clock = std::chrono::steady_clock;
    static double since(Clock::time_point t) {
        return std::chrono::duration<double>(Clock::now() - t).count();
    }

    bool show_, overwrite_;
    bool drawn_ = false;
    Clock::time_point start_, last_{};
    size_t done_ = 0, failed_ = 0;
};

} // namespace msh::cli
