#include "formats/object_registry.hpp"

#include "formats/names.hpp"

#include <algorithm>
#include <cstring>

namespace msh::registry {

namespace {

std::string field(const uint8_t* p) {
    const auto* end = std::find(p, p + kFieldSize, uint8_t(0));
    return std::string(reinterpret_cast<const char*>(p), size_t(end - p));
}

bool ends_with_ci(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() &&
           lower_ascii(s.substr(s.size() - suffix.size())) == lower_ascii(suffix);
}

} // namespace

std::string Slot::archive() const {
    return field(raw.data());
}
std::string Slot::member() const {
    return field(raw.data() + kFieldSize);
}

Slot Slot::make(const std::string& archive, const std::string& member) {
    Slot s;
    std::memcpy(s.raw.data(), archive.data(), std::min(archive.size(), kFieldSize - 1));
    std::memcpy(s.raw.data() + kFieldSize, member.data(), std::min(member.size(), kFieldSize - 1));
    return s;
}

std::vector<Slot> read_slots(ByteView payload, const std::string& where) {
    if (payload.size() % kSlotSize != 0)
        throw FormatError(where, payload.size() - payload.size() % kSlotSize,
                          "registry record of " + std::to_string(payload.size()) +
                              " bytes is not a whole number of 64-byte slots");
    std::vector<Slot> slots(payload.size() / kSlotSize);
    for (size_t i = 0; i < slots.size(); ++i)
        std::memcpy(slots[i].raw.data(), payload.data() + i * kSlotSize, kSlotSize);
    return slots;
}

Bytes write_slots(const std::vector<Slot>& slots) {
    Bytes out;
    out.reserve(slots.size() * kSlotSize);
    for (const Slot& s : slots) out.insert(out.end(), s.raw.begin(), s.raw.end());
    return out;
}

Registry::Registry(ByteView bytes, const std::string& where)
    : Registry(nres::read(bytes, ReadMode::Strict, where), where) {}

Registry::Registry(nres::Archive archive, const std::string& where)
    : archive_(std::move(archive)), where_(where) {
    for (const nres::Entry& e : archive_.entries)
        slots_.push_back(read_slots(e.data.bytes(), where + ":" + e.display_name()));
}

const std::vector<Slot>* Registry::find(const std::string& key) const {
    const std::optional<size_t> i = archive_.find(key);
    return i ? &slots_[*i] : nullptr;
}

bool Registry::find_model(const std::string& key, ModelRef& out, int depth,
                          std::string* why) const {
    const auto fail = [&](const std::string& text) {
        if (why) *why = text;
        return false;
    };
    if (depth > kMaxDepth)
        return fail("parent records nest deeper than 32 from '" + out.chain[0] + "'");
    for (const std::string& seen : out.chain)
        if (lower_ascii(seen) == lower_ascii(key))
            return fail("parent records form a cycle at '" + key + "'");
    const std::vector<Slot>* slots = find(key);
    if (!slots) return fail("no record '" + key + "' in " + where_);
    out.chain.push_back(key);
    for (const Slot& s : *slots)
        if (ends_with_ci(s.member(), ".msh")) {
            out.archive = s.archive();
            out.member = s.member();
            for (const Slot& w : *slots)
                if (ends_with_ci(w.member(), ".wea")) out.wear = w.member();
            return true;
        }
    for (const Slot& s : *slots)
        if (lower_ascii(s.archive()) == "objects.rlb" && !s.member().empty())
            if (find_model(s.member(), out, depth + 1, why)) return true;
    if (why && why->empty()) *why = "record '" + key + "' names no .msh model";
    out.chain.pop_back();
    return false;
}

std::optional<ModelRef> Registry::model(const std::string& key, std::string* why) const {
    ModelRef ref;
    std::string reason;
    if (find_model(key, ref, 0, &reason)) return ref;
    if (why) *why = reason;
    return std::nullopt;
}

} // namespace msh::registry
