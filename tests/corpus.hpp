// The generated corpus, built once per test run and shared by the suites that need it.
#pragma once

#include "samples/generator.hpp"

#include <filesystem>

#include <unistd.h>

namespace msh::test {

inline const std::vector<samples::GeneratedFile>& corpus() {
    static const std::vector<samples::GeneratedFile> files = samples::generate_corpus({});
    return files;
}

// The corpus written to a temporary folder (for CLI tests), removed at exit.
inline const std::filesystem::path& corpus_dir() {
    struct Dir {
        std::filesystem::path path;
        Dir() {
            path = std::filesystem::temp_directory_path() /
                   ("mshconv-test-corpus-" + std::to_string(::getpid()));
            samples::write_corpus(path, {});
        }
        ~Dir() {
            std::error_code ec;
            std::filesystem::remove_all(path, ec);
        }
    };
    static Dir dir;
    return dir.path;
}

} // namespace msh::test
