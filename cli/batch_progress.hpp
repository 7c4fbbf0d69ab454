// batch's display: each failure as it happens, a status line with the count, the share done and
// the time left (rewritten in place on a terminal; with --progress a plain line every 10 s
// elsewhere), and at the end the warnings folded (the same warning of many items once, with its
// count). ProgressLine is the OnItem callback the command hands to mshconv::batch.
#pragma once

#include "console.hpp"
#include "log.hpp"

#include <mshconv/batch.hpp>

#include <chrono>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace msh::cli {

// "12 s", "3:05", "1:02:09".
inline std::string clock_text(double seconds) {
    const long s = long(seconds + 0.5);
    char text[32];
    if (s < 60)
        std::snprintf(text, sizeof text, "%ld s", s);
    else if (s < 3600)
        std::snprintf(text, sizeof text, "%ld:%02ld", s / 60, s % 60);
    else
        std::snprintf(text, sizeof text, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
    return text;
}

class ProgressLine {
  public:
    // `plain`: --progress, a plain line now and then also when stderr is not a terminal. No
    // status line with --quiet, nor with --verbose (every item is listed then).
    explicit ProgressLine(bool plain)
        : terminal_(stderr_is_terminal()),
          show_(log_shows(LogLevel::Warn) && !log_shows(LogLevel::Debug) && (terminal_ || plain)),
          start_(Clock::now()) {}

    // mshconv::batch makes one call at a time.
    void operator()(const mshconv::BatchItem& r) {
        if (r.status == mshconv::ItemStatus::Failed) {
            ++failed_;
            clear_line();
            // Format errors already name the file (and entry).
            if (r.message.starts_with(r.input))
                log_error(r.message);
            else
                log_error(r.input + ": " + r.message);
        } else if (r.status == mshconv::ItemStatus::Converted) {
            if (log_shows(LogLevel::Debug)) {
                char seconds[32];
                std::snprintf(seconds, sizeof seconds, "%.3f", r.seconds);
                log_debug(r.input + " -> " + r.output + " (" + seconds + " s)");
            }
        } else {
            log_debug(r.input + ": skipped (" + r.message + ")");
        }
        // Long runs only; on a terminal a few times a second, elsewhere every 10 s.
        if (!show_ || since(start_) < 1.0 || since(last_) < (terminal_ ? 0.2 : 10)) return;
        last_ = Clock::now();
        const std::string line = status(r);
        if (terminal_) {
            std::fprintf(stderr, "\r\033[K%s", line.c_str());
            drawn_ = true;
        } else {
            std::fprintf(stderr, "%s\n", line.c_str());
        }
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

    // "batch: 120/480 (25%), 1 failed, 0:42, about 2:06 left  static.rlb:TANK.msh"
    std::string status(const mshconv::BatchItem& r) const {
        const double elapsed = since(start_);
        const size_t total = std::max(r.total, r.done);
        std::string line = "batch: " + std::to_string(r.done) + "/" + std::to_string(total) + " (" +
                           std::to_string(total ? r.done * 100 / total : 100) + "%)";
        if (failed_) line += ", " + std::to_string(failed_) + " failed";
        line += ", " + clock_text(elapsed);
        if (r.done < total)
            line += ", about " + clock_text(elapsed * double(total - r.done) / double(r.done)) +
                    " left";
        if (terminal_) line += "  " + tail(r.input, 40);
        return line;
    }

    // The last `width` bytes of `text` from a character's start, "..." before them when cut
    // (the status line stays one terminal row).
    static std::string tail(const std::string& text, size_t width) {
        if (text.size() <= width) return text;
        size_t from = text.size() - width;
        while (from < text.size() && (static_cast<unsigned char>(text[from]) & 0xC0) == 0x80)
            ++from;
        return "..." + text.substr(from);
    }

    bool terminal_, show_;
    bool drawn_ = false;
    Clock::time_point start_, last_{};
    size_t failed_ = 0;
};

// The warnings of a run, folded: the same text of several items (after the item's address,
// which most warnings start with) is one line with its count and the first item.
class FoldedWarnings {
  public:
    // A warning of the item `input` ("" for one of no item); in the order of the items.
    void add(const std::string& text, const std::string& input) {
        const std::string prefix = input + ": ";
        const bool named = !input.empty() && text.starts_with(prefix);
        const std::string key = named ? text.substr(prefix.size()) : text;
        auto [it, added] = folds_.try_emplace(key, Fold{text, named ? input : "", 0});
        ++it->second.count;
        if (added) order_.push_back(key);
    }

    // `warning: TEXT`, or `warning (xN): TEXT (FIRST and N-1 more)`.
    void print() const {
        if (!log_shows(LogLevel::Warn)) return;
        for (const std::string& key : order_) {
            const Fold& f = folds_.at(key);
            if (f.count == 1)
                log_warn(f.first_text);
            else if (f.first_input.empty())
                std::fprintf(stderr, "warning (x%zu): %s\n", f.count, key.c_str());
            else
                std::fprintf(stderr, "warning (x%zu): %s (%s and %zu more)\n", f.count, key.c_str(),
                             f.first_input.c_str(), f.count - 1);
        }
    }

  private:
    struct Fold {
        std::string first_text, first_input;
        size_t count = 0;
    };
    std::map<std::string, Fold> folds_;
    std::vector<std::string> order_;
};

} // namespace msh::cli
