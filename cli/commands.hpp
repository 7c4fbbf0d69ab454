// One function per CLI command; each parses its own options and returns the exit code
// (0 success, 1 invalid input or failed conversion, 2 usage error).
#pragma once

#include <mshconv/convert.hpp>

#include <stdexcept>
#include <string>
#include <vector>

namespace msh::cli {

using Args = std::vector<std::string>;

int run_convert(const Args& args);
int run_info(const Args& args);
int run_validate(const Args& args);
int run_nres(const Args& args);
int run_samples(const Args& args);
int run_batch(const Args& args);
int run_preview(const Args& args);
int run_view(const Args& args);
int run_version(const Args& args);
int run_survey(const Args& args);

// Thrown for command-line mistakes (exit code 2); the library's own.
using UsageError = mshconv::UsageError;

} // namespace msh::cli
