// Addresses as outputs record them: without the folders of their file, so that the same input
// gives the same bytes in any folder and on any machine, and a shared file names no one's home.
#pragma once

#include <string>
#include <string_view>

namespace msh::sidecar {

// `address` (a path, or `FILE:ENTRY[:ENTRY...]`) without the folders of its file:
// `/home/x/game/static.rlb:TANK.msh` -> `static.rlb:TANK.msh`, `C:\game\DATA\Land.msh` ->
// `Land.msh`. The file ends at the first ':' that is not a drive letter's, so entry names may
// hold '/' and '\'.
std::string portable_address(std::string_view address);

} // namespace msh::sidecar
