// `static.rlb:TANK.msh` addressing: a file, then zero or more archive entry names (nested
// archives by repeating ':'). Entry lookup is case-insensitive, as in the engine.
#pragma once

#include <mshconv/io.hpp>

#include "formats/bytes.hpp"
#include "formats/diagnostics.hpp"
#include "formats/nres.hpp"

#include <filesystem>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace msh::conversion {

using mshconv::Io;

struct Address {
    std::filesystem::path file;
    std::vector<std::string> entries;
    std::string display() const;
    // As display(), with `/` between folders on every system: what a report file records.
    std::string recorded() const;
    // The file's name without its folders, then the entries: what outputs record
    // (sidecar/portable_address.hpp).
    std::string portable() const;
};

// A path as a report file records it: `/` between folders on every system (Windows takes both), so
// that a report reads the same wherever it was written.
std::string recorded_path(const std::filesystem::path& path);

// Splits at ':' after the longest prefix that names an existing file (so paths with ':' work).
Address parse_address(Io& io, const std::string& spec);

// A FormatError's place (mshconv::Error) with the request's file and entries named apart: the
// first of `specs` (ARCHIVE:ENTRY as requested) whose address the resource starts with, else the
// file of `io` the resource starts with (a sidecar, a game library).
void locate_error(FormatError& error, Io& io, std::initializer_list<std::string_view> specs);

// `work()`, whose FormatError leaves with its place located (locate_error).
template <class Work>
auto locating_errors(Io& io, std::initializer_list<std::string_view> specs, Work&& work) {
    try {
        return work();
    } catch (FormatError& e) {
        locate_error(e, io, specs);
        throw;
    }
}

struct Loaded {
    Address address;
    // The addressed payload (the whole file when there are no entries): a view into the mapped
    // file, which it keeps mapped (readers given bytes.keeper() view it too, copying nothing).
    Payload bytes;
};

// Maps the file and descends into the named entries; throws with file and entry named.
Loaded load(Io& io, const Address& address);

// Writes `bytes` to the address: a standalone file, or the named (nested) entry of an existing
// archive, which is rewritten losslessly (every other entry, gap and field kept) and atomically.
void store(Io& io, const Address& address, ByteView bytes);
// The file image of the archive `archive` (a file, or nested entries: the innermost is edited)
// with `entries` put into it: an entry of the same name (case-insensitive) takes the new payload
// and keeps its type and attributes, a new one is appended. Nothing is written.
Bytes archive_with_entries(Io& io, const Address& archive, std::vector<nres::Entry> entries);
// The innermost archive `address` names (a file, or nested entries), read strictly.
nres::Archive innermost_archive(Io& io, const Address& address);
// A new member `name` (UTF-8; stored as CP1251) of `archive`: the type and attributes of a member
// with the same extension (nres.md §4.3: a new entry copies a comparable one), else MESH (0, 0, 0)
// for `.msh` and WEAR (0, 0, 1) for `.wea` as the game's archives hold them.
nres::Entry new_member(const nres::Archive& archive, const std::string& name, Bytes data,
                       const std::string& extension);

// A file that belongs to another one (a model's .wea, a level's Land.map), with its address.
struct Sibling {
    std::string address;
    Payload bytes;
};

// `leaf` next to `address`: in the same archive when it is an archive entry, else in the same
// folder. Case-insensitive, as in the engine.
std::optional<Sibling> find_sibling(Io& io, const Address& address, const std::string& leaf);
// `leaf` in an archive already read (whose address is `archive_address`).
std::optional<Sibling> find_sibling_in(const nres::Archive& archive, const Address& archive_address,
                                       const std::string& leaf);

} // namespace msh::conversion
