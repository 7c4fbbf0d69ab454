// Small helpers the test suites share: running commands, quoting paths, scratch folders.
#pragma once

#include "test_paths.hpp"

#include <cstdio>
#include <filesystem>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace msh::test {

struct Run {
    int code = -1;
    std::string out; // stdout and stderr together
};

// Runs a shell command and captures its output and exit code.
inline Run run(const std::string& cmd) {
    Run r;
    FILE* p = popen((cmd + " 2>&1").c_str(), "r");
    if (!p) return r;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
    int status = pclose(p);
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

// Runs the mshconv binary under test.
inline Run mshconv(const std::string& args) {
    return run(std::string(MSHCONV_BINARY) + " " + args);
}

// A path quoted for the shell.
inline std::string q(const std::filesystem::path& p) {
    return "'" + p.string() + "'";
}

// This process's scratch folder (removed when the test module ends: tests/test_main.cpp).
inline std::filesystem::path scratch_root() {
    return std::filesystem::temp_directory_path() / ("mshconv-test-" + std::to_string(::getpid()));
}

// A path in this process's scratch folder (its parent created).
inline std::filesystem::path scratch(const std::string& name) {
    std::filesystem::path p = scratch_root() / name;
    std::filesystem::create_directories(p.parent_path());
    return p;
}

} // namespace msh::test
