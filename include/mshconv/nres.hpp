// The archive tools behind `mshconv nres`: an NRes archive's directory; its entries unpacked into
// a folder with `_nres.json`, which holds everything else (raw names, attributes, sort indices,
// physical layout, gaps); and such a folder packed back into the original archive, byte for
// byte. Public header: standard library only.
//
//   for (const mshconv::NresEntry& e : mshconv::nres_list("static.rlb"))
//       std::printf("%s %llu\n", e.name.c_str(), (unsigned long long)e.size);
#pragma once

#include <mshconv/error.hpp>
#include <mshconv/io.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace mshconv {

// One row of an archive's directory, in directory order.
struct NresEntry {
    std::string name; // as text (CP1251 read as UTF-8 where it converts; else escaped)
    std::string type; // the resource type: its FourCC when printable, else the number
    std::uint32_t type_code = 0;
    std::uint64_t size = 0;
    std::uint32_t offset = 0; // of the payload in the archive
    std::uint32_t attr1 = 0, attr2 = 0, attr3 = 0;
    std::uint32_t sort_index = 0;
};

// The directory of `input` (a path or ARCHIVE:ENTRY), read tolerantly. Throws mshconv::Error
// when it is not an archive or cannot be read.
std::vector<NresEntry> nres_list(const std::string& input, Io& io = disk());

// Every payload of `input` as a file in `folder`, plus `_nres.json`: all of them written, or
// none. Returns the number of entries. Throws UsageError when `folder` is a file or the input
// archive would be overwritten, mshconv::Error when the archive cannot be unpacked.
std::size_t nres_extract(const std::string& input, const Path& folder, Io& io = disk());

struct NresPacked {
    std::size_t entries = 0;
    std::uint64_t bytes = 0; // the archive's size
};

// The archive `nres_extract` read, rebuilt from `folder` into `output`. Throws UsageError when
// `output` is one of the pack's inputs, mshconv::Error on a damaged manifest (at its JSON pointer)
// or a payload that cannot be read.
NresPacked nres_pack(const Path& folder, const Path& output, Io& io = disk());

} // namespace mshconv
