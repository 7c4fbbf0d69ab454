// `static.rlb:TANK.msh` addressing: a file, then zero or more archive entry names (nested
// archives by repeating ':'). Entry lookup is case-insensitive, as in the engine.
#pragma once

#include "formats/bytes.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace msh::cli {

struct Address {
    std::filesystem::path file;
    std::vector<std::string> entries;
    std::string display() const;
};

// Splits at ':' after the longest prefix that names an existing file (so paths with ':' work).
Address parse_address(const std::string& spec);

struct Loaded {
    Address address;
    Bytes bytes; // the addressed payload (the whole file when there are no entries)
};

// Reads the file and descends into the named entries; throws with file and entry named.
Loaded load(const Address& address);

// Writes `bytes` to the address: a standalone file, or the named (nested) entry of an existing
// archive, which is rewritten losslessly (every other entry, gap and field kept) and atomically.
void store(const Address& address, ByteView bytes);

enum class Kind { Model, Archive, Other };
// Model = NRes image with integer resource types 1, 2 and 3; Archive = any other NRes image.
Kind classify(ByteView bytes);

} // namespace msh::cli
