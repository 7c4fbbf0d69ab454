#include "written_file.hpp"

#include "readable_writer.hpp"

#include "formats/file_io.hpp"

#include <algorithm>
#include <cctype>

namespace msh::sidecar {

namespace {

std::string hash_at(const JsonAt& at) {
    std::string hex = at.as<std::string>();
    const bool valid = hex.size() == 16 && std::all_of(hex.begin(), hex.end(), [](char c) {
                           return std::isxdigit(static_cast<unsigned char>(c)) &&
                                  !std::isupper(static_cast<unsigned char>(c));
                       });
    if (!valid) at.fail("expected 16 lower-case hex digits");
    return hex;
}

} // namespace

void write_written_file(ReadableJson& w, const WrittenFile& written) {
    w.begin_object();
    if (!written.buffer.empty()) {
        w.member("buffer", written.buffer);
        w.member("buffer_xxh3_64", written.buffer_xxh3_64);
    }
    w.member("xxh3_64", written.xxh3_64);
    w.end_object();
}

WrittenFile read_written_file(const JsonAt& at) {
    WrittenFile w;
    w.xxh3_64 = hash_at(at["xxh3_64"]);
    if (at.has("buffer")) {
        w.buffer = at["buffer"].as<std::string>();
        // A name beside the file; where it leads is checked again when it is opened.
        if (!is_plain_file_name(w.buffer))
            at["buffer"].fail("expected a file name beside the glTF file");
        w.buffer_xxh3_64 = hash_at(at["buffer_xxh3_64"]);
    }
    return w;
}

} // namespace msh::sidecar
