// The command line's messages on stderr: `warning: TEXT`, `error: TEXT` (coloured on a terminal),
// `info` and `debug` with --verbose. spdlog does the work behind this one header: its own headers
// cost seconds of every compile that includes them.
#pragma once

#include <string>

namespace msh::cli {

enum class LogLevel { Debug, Info, Warn, Error };

// The level from which messages are shown (warn by default, debug with --verbose, error with
// --quiet); the first call also sets up the logger.
void show_log_from(LogLevel level);
// Whether a message of `level` is shown.
bool log_shows(LogLevel level);

void log_debug(const std::string& text);
void log_info(const std::string& text);
void log_warn(const std::string& text);
void log_error(const std::string& text);

} // namespace msh::cli
