// The standard sample corpus shared by the suites that need it. Under ctest it is written once per
// run by the `corpus` fixture (`mshconv samples`, tests/corpus_fixture.py), which names its folder
// in MSHCONV_TEST_CORPUS: ROOT/corpus holds the files, ROOT/files.txt lists them in the order the
// generator made them. Without the variable (mshconv_tests run by hand) it is generated here.
#pragma once

#include "formats/file_io.hpp"
#include "samples/generator.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include <unistd.h>

namespace msh::test {

// The fixture's root, or empty when the corpus is generated in this process.
inline std::filesystem::path corpus_fixture() {
    const char* root = std::getenv("MSHCONV_TEST_CORPUS");
    return root && *root ? std::filesystem::path(root) : std::filesystem::path();
}

// The corpus as generate_corpus({}) returns it: from the fixture's folder, in files.txt's order.
inline const std::vector<samples::GeneratedFile>& corpus() {
    static const std::vector<samples::GeneratedFile> files = [] {
        const std::filesystem::path root = corpus_fixture();
        if (root.empty()) return samples::generate_corpus({});
        std::vector<samples::GeneratedFile> read;
        std::ifstream listing(root / "files.txt");
        for (std::string line; std::getline(listing, line);) {
            const size_t gap = line.find("  "); // sha256sum's "DIGEST  PATH"
            if (gap == std::string::npos) continue;
            const std::string name = line.substr(gap + 2);
            read.push_back({name, read_file(root / "corpus" / name)});
        }
        if (read.empty())
            throw std::runtime_error("MSHCONV_TEST_CORPUS: no files listed in " +
                                     (root / "files.txt").string());
        return read;
    }();
    return files;
}

// The corpus as a folder (for CLI tests): the fixture's, or written to a temporary folder removed
// at exit. Tests read it only (the fixture's cleanup fails when one changed it).
inline const std::filesystem::path& corpus_dir() {
    struct Dir {
        std::filesystem::path path;
        bool owned = false;
        Dir() {
            if (const std::filesystem::path root = corpus_fixture(); !root.empty()) {
                path = root / "corpus";
                if (!std::filesystem::is_directory(path))
                    throw std::runtime_error("MSHCONV_TEST_CORPUS: no folder " + path.string());
                return;
            }
            path = std::filesystem::temp_directory_path() /
                   ("mshconv-test-corpus-" + std::to_string(::getpid()));
            samples::write_corpus(path, {});
            owned = true;
        }
        ~Dir() {
            std::error_code ec;
            if (owned) std::filesystem::remove_all(path, ec);
        }
    };
    static Dir dir;
    return dir.path;
}

} // namespace msh::test
