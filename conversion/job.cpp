#include "job.hpp"

#include <algorithm>
#include <cstdarg>
#include <cstdio>

namespace msh::conversion {

Job keeping_warnings(const Job& job, KeptWarnings& kept) {
    return {job.options, job.io,
            [&kept, next = job.on_message](mshconv::MessageLevel level, const std::string& text) {
                if (level == mshconv::MessageLevel::Warning) kept.add(text);
                if (next) next(level, text);
            }};
}

std::string printed(const char* format, ...) {
    va_list args;
    va_start(args, format);
    va_list again;
    va_copy(again, args);
    const int size = std::vsnprintf(nullptr, 0, format, args);
    va_end(args);
    std::string text(size_t(std::max(size, 0)), '\0');
    std::vsnprintf(text.data(), text.size() + 1, format, again);
    va_end(again);
    return text;
}

Payload read_payload(Io& io, const std::filesystem::path& path) {
    mshconv::FileBytes file = io.read(path);
    if (!file.owner) return Payload(Bytes(file.bytes.begin(), file.bytes.end()));
    return Payload(file.bytes, std::move(file.owner));
}

Bytes read_bytes(Io& io, const std::filesystem::path& path) {
    const mshconv::FileBytes file = io.read(path);
    return Bytes(file.bytes.begin(), file.bytes.end());
}

void write_files(Io& io, const std::vector<PathBytes>& files) {
    std::vector<mshconv::FileToWrite> set;
    for (const PathBytes& f : files) set.push_back({f.path, {f.bytes}});
    io.write_set(set);
}

} // namespace msh::conversion
