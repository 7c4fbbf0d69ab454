// The command line and the console as the commands see them on every system: arguments in UTF-8,
// output bytes written as they are (UTF-8, `\n` line ends), whether stderr is a terminal.
#pragma once

#include <string>
#include <vector>

namespace msh::cli {

// The arguments after the program's name, in UTF-8 (on Windows read as UTF-16 from the system,
// not in the ANSI code page `argv` holds, which lacks most of a Cyrillic name's letters).
std::vector<std::string> utf8_arguments(int argc, char** argv);
// Windows: the console shows UTF-8, and stdout and stderr write `\n` as it is (not `\r\n`), so
// that a command prints the same bytes as on Linux. Elsewhere nothing to do.
void prepare_console();
bool stderr_is_terminal();

} // namespace msh::cli
