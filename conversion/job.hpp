// What every conversion job runs with: its options, the Io it reads and writes through, and where
// its messages go. The jobs are the library behind include/mshconv/convert.hpp; the command line
// turns its arguments into ConvertOptions and prints the messages.
#pragma once

#include <mshconv/convert.hpp>
#include <mshconv/io.hpp>

#include "formats/bytes.hpp"
#include "formats/payload.hpp"
#include "outputs.hpp"

#include <filesystem>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace msh::conversion {

using mshconv::ConvertOptions;
using mshconv::Io;
using mshconv::UsageError;

struct Job {
    const ConvertOptions& options;
    Io& io;
    mshconv::OnMessage on_message;

    void debug(const std::string& text) const { say(mshconv::MessageLevel::Debug, text); }
    void info(const std::string& text) const { say(mshconv::MessageLevel::Info, text); }
    void warn(const std::string& text) const { say(mshconv::MessageLevel::Warning, text); }
    // A line of the change report an import prints.
    void report(const std::string& text) const { say(mshconv::MessageLevel::Report, text); }

  private:
    void say(mshconv::MessageLevel level, const std::string& text) const {
        if (on_message) on_message(level, text);
    }
};

// The warnings a job gave, for its report (a job may warn from several threads).
class KeptWarnings {
  public:
    void add(const std::string& text) {
        const std::lock_guard lock(mutex_);
        texts_.push_back(text);
    }
    std::vector<std::string> texts() const {
        const std::lock_guard lock(mutex_);
        return texts_;
    }

  private:
    mutable std::mutex mutex_;
    std::vector<std::string> texts_;
};

// `job` whose warnings are also added to `kept`; `kept` outlives the returned job.
Job keeping_warnings(const Job& job, KeptWarnings& kept);

// GCC checks the arguments as C99 printf (MinGW's own printf lacks %zu); clang knows only printf.
#if defined(__clang__)
#define MSHCONV_PRINTF_CHECK __attribute__((format(printf, 1, 2)))
#else
#define MSHCONV_PRINTF_CHECK __attribute__((format(gnu_printf, 1, 2)))
#endif
// printf into a string: the lines of a change report.
std::string printed(const char* format, ...) MSHCONV_PRINTF_CHECK;

// A whole file through `io`, kept alive by its owner (a mapping on disk): no copy.
Payload read_payload(Io& io, const std::filesystem::path& path);
// A whole file through `io`, copied into owned bytes.
Bytes read_bytes(Io& io, const std::filesystem::path& path);

// Whole files named by their paths, as one set through `io` (write_outputs writes an
// export's files).
struct PathBytes {
    std::filesystem::path path;
    ByteView bytes;
};
void write_files(Io& io, const std::vector<PathBytes>& files);

} // namespace msh::conversion
