// Shared option parsing for the commands (Boost.Program_options).
#pragma once

#include "commands.hpp"

#include <boost/program_options.hpp>

#include <iostream>

namespace msh::cli {

namespace po = boost::program_options;

// Parses `args`; returns false (and prints help) when --help was given.
inline bool parse_options(const Args& args, const std::string& usage, po::options_description& desc,
                          const po::positional_options_description& positional,
                          po::variables_map& vm) {
    desc.add_options()("help,h", "show this help");
    po::store(po::command_line_parser(args).options(desc).positional(positional).run(), vm);
    if (vm.count("help")) {
        std::cout << "usage: mshconv " << usage << "\n" << desc;
        return false;
    }
    po::notify(vm);
    return true;
}

} // namespace msh::cli
