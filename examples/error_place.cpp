// Where a conversion broke, as fields: mshconv::Error names the file, the archive entries, the
// resource, and the byte offset (binary formats), the line (text) or the JSON pointer (glTF,
// sidecars), so a tool can point at the place without parsing the message.
//   error_place IN OUT
#include <mshconv/convert.hpp>
#include <mshconv/error.hpp>

#include <cstdio>
#include <string>

int main(int argc, char** argv) {
    if (argc != 3) return std::fprintf(stderr, "usage: error_place IN OUT\n"), 2;
    try {
        const mshconv::ConvertResult r = mshconv::convert({argv[1], argv[2]});
        std::printf("converted a %s\n", mshconv::to_string(r.kind));
        return 0;
    } catch (const mshconv::Error& e) {
        const mshconv::ErrorPlace& at = e.place();
        std::printf("file: %s\n", at.file.c_str());
        for (const std::string& entry : at.entries) std::printf("entry: %s\n", entry.c_str());
        if (!at.resource.empty()) std::printf("resource: %s\n", at.resource.c_str());
        if (at.offset) std::printf("offset: %llu\n", static_cast<unsigned long long>(*at.offset));
        if (at.line) std::printf("line: %llu\n", static_cast<unsigned long long>(*at.line));
        if (at.pointer) std::printf("pointer: %s\n", at.pointer->c_str());
        std::printf("message: %s\n", e.message().c_str());
        return 1;
    } catch (const mshconv::UsageError& e) {
        std::fprintf(stderr, "usage error: %s\n", e.what());
        return 2;
    }
}
