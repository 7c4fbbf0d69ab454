// NRes container (spec nres.md): header, data region, 64-byte directory at the end.
// The archive keeps every byte it was read from: entry fields as stored, the 36 raw name bytes,
// and a physical layout of payloads, canonical pads and verbatim gaps, so that an unchanged
// archive is re-emitted byte for byte and an edited one changes only what the edit defines.
#pragma once

#include "bytes.hpp"
#include "diagnostics.hpp"
#include "payload.hpp"

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace msh::nres {

constexpr uint32_t kVersion = 0x100;
constexpr size_t kHeaderSize = 16;
constexpr size_t kEntrySize = 64;
constexpr size_t kNameSize = 36;

constexpr uint32_t fourcc(const char (&s)[5]) {
    return uint32_t(uint8_t(s[0])) | uint32_t(uint8_t(s[1])) << 8 | uint32_t(uint8_t(s[2])) << 16 |
           uint32_t(uint8_t(s[3])) << 24;
}

// The case folding of the sort index (nres.md §5). The two folds order names differently only
// where one of `[ \ ] ^ _` or a backtick meets a letter at the first differing byte.
enum class NameFold {
    Lower, // A..Z -> a..z (MSVC _strcmpi): reproduces all 120 retail archives' tables; new
           // archives use it (nres.md §5)
    Upper, // a..z -> A..Z: one project's later reading, never checked against real archives
};
const char* fold_name(NameFold fold); // "upper" | "lower"

// Which folds a directory's stored order satisfies: the engine's binary search finds every entry
// only under a fold whose order the directory follows.
enum class FoldEvidence {
    Both,    // no name pair tells the folds apart (or fewer than two entries)
    Upper,   // consistent with the upper fold only
    Lower,   // consistent with the lower fold only
    Neither, // not in name order under either fold (or not a permutation)
};
const char* evidence_name(FoldEvidence e); // "either" | "upper" | "lower" | "neither"

struct Entry {
    uint32_t type = 0;
    uint32_t attr1 = 0;
    uint32_t attr2 = 0;
    uint32_t attr3 = 0;
    std::array<uint8_t, kNameSize> raw_name{};
    uint32_t sort_index = 0;
    uint32_t data_offset = 0; // as read; writers recompute it
    Payload data;             // owned, or a view into the buffer the archive was read from

    std::string name() const;         // the bytes before the first NUL (CP1251)
    std::string display_name() const; // the same as UTF-8 (addresses, JSON, messages)
    // A freshly written name field: zero fill, at most 35 bytes (the engine's rule).
    void set_name(std::string_view name);
};

// One piece of the data region [16, directory) in physical order.
struct Segment {
    enum class Kind { Payload, Pad, Gap };
    Kind kind = Kind::Gap;
    uint32_t entry = 0; // Payload: directory index of the entry
    uint32_t original_offset = 0;
    Bytes gap; // Gap: the bytes, kept verbatim
};

struct Archive {
    std::vector<Entry> entries;  // directory order
    std::vector<Segment> layout; // physical order; entries missing from it are appended on write
    Bytes trailing;              // bytes after the directory that totalSize does not cover
    // Set by the tolerant reader for files whose payloads overlap: they can only be re-emitted
    // verbatim, so `original` is kept and the writer refuses changed payloads.
    bool verbatim_only = false;
    Bytes original;
    // The fold the sort index is recomputed with after an edit and by the canonical writer: the
    // one the archive's own order satisfies when read (lower where both or neither do).
    NameFold fold = NameFold::Lower;
    FoldEvidence fold_evidence = FoldEvidence::Both; // as read; Both for an archive built in code

    // Case-insensitive lookup (MSVC _strcmpi folding); first match in directory order.
    std::optional<size_t> find(std::string_view name) const;
    std::optional<size_t> find_type(uint32_t type) const;
    // Adds an entry at the end of the directory and of the data region; recomputes sort indices.
    size_t append(Entry e);
    void remove(size_t index);
    void recompute_sort_index();
};

// Case-insensitive comparison under `fold`: ASCII letters folded, other bytes unchanged, compared
// unsigned, a prefix sorts first. Equality does not depend on the fold.
int compare_names(std::string_view a, std::string_view b, NameFold fold = NameFold::Lower);
// The stable name order (nres.md §5): entry i of the result is the directory index of the i-th
// name.
std::vector<uint32_t> sorted_permutation(const std::vector<Entry>& entries,
                                         NameFold fold = NameFold::Lower);
// Which folds the stored sort indices follow (a binary search under such a fold finds every name).
FoldEvidence stored_fold(const std::vector<Entry>& entries);
// Binary search over the stored sort indices as the engine does it: the directory index, or none.
std::optional<size_t> binary_find(const Archive& archive, std::string_view name, NameFold fold);

bool looks_like_nres(ByteView bytes);

// An archive that ends before the end its header names (a cut download, a full disk), told apart
// from one whose header merely misstates its size (the tolerant reader finds that directory at
// the file's end): what survives of the directory. Every reader refuses such a file as truncated;
// `info` shows the rows it still has.
struct Truncation {
    uint64_t have = 0;             // bytes in the file
    uint64_t need = 0;             // bytes the header names (totalSize)
    uint32_t count = 0;            // directory rows the header names
    uint64_t directory_offset = 0; // where the directory starts (totalSize - 64 * count)
    std::vector<Entry> readable;   // the rows that lie wholly inside the file, payloads included
};
std::optional<Truncation> truncation(ByteView bytes);
// "truncated: the file has H bytes, its header says the archive is N bytes (M missing): ..."
std::string describe(const Truncation& truncation);

// `where` names the file (or nested entry) in diagnostics. With a `keeper` (what keeps `bytes`
// alive: Payload::keeper()) the entries are views into `bytes`, else copies.
Archive read(ByteView bytes, DiagnosticSink& sink, const std::string& where,
             const std::shared_ptr<const void>& keeper = nullptr);
Archive read(ByteView bytes, ReadMode mode, const std::string& where,
             const std::shared_ptr<const void>& keeper = nullptr);
// A lookup view of a large library: the header and directory checked as read() does, and only
// the entries `keep` accepts, in directory order, with their payloads (the others' bytes are never
// touched, so a mapped file reads only those pages; an entry whose payload lies outside the file is
// shown to `keep` but never kept). No layout: not an archive to write back.
Archive read_entries(ByteView bytes, const std::function<bool(const Entry&)>& keep,
                     DiagnosticSink& sink, const std::string& where,
                     const std::shared_ptr<const void>& keeper = nullptr);

// Lossless writer (nres.md §9): original physical order, gaps verbatim, pads regenerated,
// entry fields and sort indices as stored.
Bytes write(const Archive& archive);
// write()'s bytes as pieces in file order: the writer's own bytes (header, padding, gaps,
// directory) in buffers of their own, the payloads as views of the archive's entries (valid while
// the archive is). A large archive goes to a file without being assembled in memory first.
struct Pieces {
    std::vector<std::unique_ptr<Bytes>> owned;
    std::vector<ByteView> pieces;
    size_t size() const {
        size_t n = 0;
        for (const ByteView p : pieces) n += p.size();
        return n;
    }
};
Pieces write_pieces(const Archive& archive);
// Canonical writer: directory order from offset 16, zero padding, fresh name fields and
// recomputed sort indices; gaps and trailing bytes dropped.
Bytes write_canonical(const Archive& archive);

} // namespace msh::nres
