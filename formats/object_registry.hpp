// The prototype registry `objects.rlb` (docs/formats/level.md §3.1): an NRes whose entry names
// are logical keys (a mission's scenery names them, a unit .dat's components too) and whose
// payloads are runs of 64-byte slots, each `archive[32]` + `member[32]`, NUL-padded. A slot names
// a member of another archive (`static.rlb` / `s_tree_0_06.msh`, its `.wea` beside it) or, with
// the archive `objects.rlb`, a parent record (a building's FORT record names its prototype).
//
// Lossless: a slot keeps its 64 raw bytes (the bytes after each NUL included); the archive is
// written back by the NRes writer.
#pragma once

#include "bytes.hpp"
#include "diagnostics.hpp"
#include "nres.hpp"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace msh::registry {

inline constexpr size_t kSlotSize = 64;
inline constexpr size_t kFieldSize = 32;
inline constexpr int kMaxDepth = 32; // parent prototypes followed at most this deep

struct Slot {
    std::array<uint8_t, kSlotSize> raw{};
    std::string archive() const; // the bytes before the first NUL of each half
    std::string member() const;
    static Slot make(const std::string& archive, const std::string& member); // NUL-filled
};

// The slots of one record's payload. Throws FormatError (resource `where`, offset inside the
// payload) when the size is not a whole number of slots.
std::vector<Slot> read_slots(ByteView payload, const std::string& where);
Bytes write_slots(const std::vector<Slot>& slots);

// Where a key's model is: the archive and the MSH member, found through parent records.
struct ModelRef {
    std::string archive;            // as the slot names it, e.g. "static.rlb"
    std::string member;             // e.g. "s_tree_0_06.msh"
    std::string wear;               // the slot naming the WEAR beside it ("" when none)
    std::vector<std::string> chain; // the keys followed, the first one asked for
};

class Registry {
  public:
    // Reads objects.rlb (strict NRes) and every record's slots.
    Registry(ByteView bytes, const std::string& where);
    explicit Registry(nres::Archive archive, const std::string& where);

    const nres::Archive& archive() const { return archive_; }
    size_t size() const { return slots_.size(); }
    // The record's slots (ASCII case-insensitive key), none when the key is not there.
    const std::vector<Slot>* find(const std::string& key) const;
    // The first slot whose member ends in `.msh`, in the record or, when it has none, in the
    // parent records its `objects.rlb` slots name (depth-first, at most kMaxDepth deep, cycles
    // refused). nullopt with `why` set when the key is missing or leads to no model.
    std::optional<ModelRef> model(const std::string& key, std::string* why = nullptr) const;

  private:
    bool find_model(const std::string& key, ModelRef& out, int depth, std::string* why) const;
    nres::Archive archive_;
    std::vector<std::vector<Slot>> slots_; // by directory index
    std::string where_;
};

} // namespace msh::registry
