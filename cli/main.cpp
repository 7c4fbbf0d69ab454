// mshconv: converter between Parkan: Iron Strategy assets and glTF / OBJ / PNG.
#include "allocator.hpp"
#include "commands.hpp"
#include "console.hpp"
#include "log.hpp"
#include "options.hpp"

#include "formats/diagnostics.hpp"
#include "formats/file_io.hpp"

#include <boost/program_options/errors.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

namespace {

constexpr const char* kUsage = R"(usage: mshconv COMMAND [options]

commands:
  convert IN OUT [options]         one thing, the direction from IN's content and OUT's name:
                                   model/Land.msh -> .gltf/.glb/.obj (+ sidecar), Texm -> .png,
                                   .gltf/.glb/.obj -> .msh or archive entry, .png -> Texm
  batch IN... -o DIR --to FMT[,FMT] [options]
                                   whole folders/archives: models and maps to glb|gltf|obj,
                                   textures to png; --to nres rebuilds archives from the output;
                                   --to preview draws a gallery
  preview IN OUT.png [options]     a thumbnail of a model, map, texture or glTF/OBJ (CPU, no
                                   display), --metadata its facts and cameras
  view IN [-o PAGE.html] [--no-open] [options]
                                   an interactive 3D view of a model or map (a texture's mip
                                   levels) as one HTML page, opened in the default browser
  info IN [--json]                 what is inside an archive, model, map, WEAR or texture
  validate IN [--strict] [--json]  diagnostics; exit 1 when invalid
  nres list IN                     archive directory
  nres extract IN -o DIR           entries as files plus a manifest (_nres.json)
  nres pack DIR -o OUT             rebuild an archive from an extracted folder
  samples OUTDIR [--seed N] [--stress | --scale game|F]
                                   the synthetic corpus (--stress: only the stress map; --scale:
                                   one the size of the game, or the fraction F of that)
  survey GAME_DIR [--json R.json] [--sheet DIR]
                                   counts, hashes and the contested readings of a game folder
  --version                        this build's version and its libraries' versions (also:
                                   mshconv version)

IN may name an archive entry: static.rlb:TANK.msh (nested entries by repeating ':').
Global: --verbose (detail), --quiet (errors only). Run 'mshconv COMMAND --help' for options.
)";

using Command = int (*)(const msh::cli::Args&);

const std::vector<std::pair<std::string, Command>> kCommands = {
    {"convert", msh::cli::run_convert}, {"batch", msh::cli::run_batch},
    {"preview", msh::cli::run_preview}, {"view", msh::cli::run_view},
    {"info", msh::cli::run_info},       {"validate", msh::cli::run_validate},
    {"nres", msh::cli::run_nres},       {"samples", msh::cli::run_samples},
    {"survey", msh::cli::run_survey}};

std::string unknown_command(const std::string& typed) {
    std::vector<std::string> known = {"version", "--version", "--help"};
    for (const auto& command : kCommands) known.push_back(command.first);
    const std::vector<std::string> closest = msh::cli::closest_words(typed, known);
    return "unknown command '" + typed + "'" +
           (closest.empty() ? " (mshconv --help lists the commands)"
                            : msh::cli::did_you_mean(closest));
}

} // namespace

int main(int argc, char** argv) {
    msh::cli::show_log_from(msh::cli::LogLevel::Warn);

    msh::cli::prepare_console();
    msh::cli::Args args;
    for (std::string& a : msh::cli::utf8_arguments(argc, argv)) {
        if (a == "--verbose" || a == "-v")
            msh::cli::show_log_from(msh::cli::LogLevel::Debug);
        else if (a == "--quiet" || a == "-q")
            msh::cli::show_log_from(msh::cli::LogLevel::Error);
        else
            args.push_back(std::move(a));
    }
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        std::fputs(kUsage, args.empty() ? stderr : stdout);
        return args.empty() ? 2 : 0;
    }
    if (args[0] == "--version" || args[0] == "version") return msh::cli::run_version(args);
    std::string command = args[0];
    args.erase(args.begin());
    msh::cli::configure_allocator();
    // A test hook: the file write after N more writes fails as a full disk would (the tests'
    // check that every command leaves no partial output).
    if (const char* n = std::getenv("MSHCONV_TEST_FAIL_WRITE_AFTER"))
        msh::inject_write_failure(std::atoi(n));
    const auto found = std::find_if(kCommands.begin(), kCommands.end(),
                                    [&](const auto& c) { return c.first == command; });
    if (found == kCommands.end()) {
        msh::cli::log_error(unknown_command(command));
        return 2;
    }
    try {
        return found->second(args);
    } catch (const msh::cli::UsageError& e) {
        msh::cli::log_error(std::string(e.what()) + " (mshconv " + command +
                            " --help lists the options)");
        return 2;
    } catch (const boost::program_options::error& e) {
        msh::cli::log_error(e.what());
        return 2;
    } catch (const msh::FormatError& e) {
        msh::cli::log_error(e.what());
        return 1;
    } catch (const std::exception& e) {
        msh::cli::log_error(e.what());
        return 1;
    }
}
