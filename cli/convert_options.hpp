// The command line's side of the conversions: options as parsed by Boost.Program_options
// turned into mshconv::ConvertOptions, and the jobs' messages printed (warnings and detail through
// spdlog, a change report on stdout unless --quiet).
#pragma once

#include "options.hpp"

#include <mshconv/convert.hpp>

namespace msh::cli {

// Every conversion option present in `vm` (convert's, batch's and preview's share the names).
mshconv::ConvertOptions convert_options(const po::variables_map& vm);

// `--reading NAME=VARIANT` (repeatable): the contested readings (formats/readings.hpp).
void add_reading_option(po::options_description& desc);

// Prints a job's message as the command line does.
void print_message(mshconv::MessageLevel level, const std::string& text);

} // namespace msh::cli
