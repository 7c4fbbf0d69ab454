#include "formats/assembly.hpp"

#include <algorithm>
#include <cstring>

namespace msh::assembly {

const char* to_string(PartClass c) {
    switch (c) {
    case PartClass::Chassis:
        return "chassis";
    case PartClass::Turret:
        return "turret";
    case PartClass::Armour:
        return "armour";
    case PartClass::Internal:
        return "internal";
    case PartClass::Gun:
        return "gun";
    case PartClass::Ammo:
        return "ammo";
    }
    return "unknown";
}

std::string part_class_name(uint32_t c) {
    return c <= 5 ? to_string(PartClass(c)) : "class" + std::to_string(c);
}

std::string text(const Name32& raw) {
    const auto end = std::find(raw.begin(), raw.end(), uint8_t(0));
    return std::string(raw.begin(), end);
}

Name32 name32(const std::string& s) {
    Name32 n{};
    std::memcpy(n.data(), s.data(), std::min(s.size(), kNameSize - 1));
    return n;
}

namespace {

// The subtree at `i` (depth-first): returns the index after it, or -1 when the counts run past
// the records or a count is negative. Iterative: a crafted file's chain of single children must
// not run the call stack out (its depth is bounded only by the record count).
int64_t walk(const std::vector<Component>& cs, size_t i, int parent, std::vector<int>& parents) {
    struct Open {
        size_t index;
        int32_t left; // children still to read
    };
    if (i >= cs.size() || cs[i].child_count < 0) return -1;
    parents[i] = parent;
    std::vector<Open> open{{i, cs[i].child_count}};
    size_t next = i + 1;
    while (!open.empty()) {
        if (open.back().left == 0) {
            open.pop_back();
            continue;
        }
        --open.back().left;
        if (next >= cs.size() || cs[next].child_count < 0) return -1;
        parents[next] = int(open.back().index);
        open.push_back({next, cs[next].child_count});
        ++next;
    }
    return int64_t(next);
}

} // namespace

std::vector<int> Assembly::parents() const {
    std::vector<int> parents(components.size(), -1);
    size_t at = 0;
    while (at < components.size()) {
        const int64_t after = walk(components, at, -1, parents);
        if (after < 0) break;
        at = size_t(after);
    }
    return parents;
}

Assembly read(ByteView bytes, DiagnosticSink& sink, const std::string& where) {
    if (bytes.size() < kHeaderSize)
        sink.fatal(where, 0,
                   "shorter than the 8-byte header (" + std::to_string(bytes.size()) + " bytes)");
    if ((bytes.size() - kHeaderSize) % kComponentSize != 0)
        sink.fatal(
            where, bytes.size(),
            "size " + std::to_string(bytes.size()) + " is not 8 + 112 x the component count (" +
                std::to_string((bytes.size() - kHeaderSize) % kComponentSize) + " bytes over)");
    Assembly a;
    a.magic = load<uint32_t>(bytes, 0);
    a.class_word = load<uint32_t>(bytes, 4);
    if (a.magic != kMagic) sink.strict_error(where, 0, "magic is not 0x0000F0F1");
    const size_t n = (bytes.size() - kHeaderSize) / kComponentSize;
    for (size_t i = 0; i < n; ++i) {
        const uint8_t* p = bytes.data() + kHeaderSize + i * kComponentSize;
        Component c;
        std::memcpy(c.archive.data(), p, kNameSize);
        std::memcpy(c.record.data(), p + 0x20, kNameSize);
        c.flags = load<uint32_t>(p + 0x40);
        c.attach = load<int32_t>(p + 0x44);
        std::memcpy(c.description.data(), p + 0x48, kNameSize);
        c.part_class = load<uint32_t>(p + 0x68);
        c.child_count = load<int32_t>(p + 0x6C);
        a.components.push_back(c);
    }
    if (a.components.empty()) sink.strict_error(where, kHeaderSize, "no components");
    std::vector<int> parents(n, -1);
    const int64_t end = n ? walk(a.components, 0, -1, parents) : 0;
    if (end != int64_t(n))
        sink.strict_error(where, kHeaderSize,
                          end < 0 ? "the child counts run past the last component"
                                  : "the tree rooted at the first component ends at component " +
                                        std::to_string(end) + " of " + std::to_string(n));
    return a;
}

Assembly read(ByteView bytes, ReadMode mode, const std::string& where) {
    DiagnosticSink sink(mode);
    Assembly a = read(bytes, sink, where);
    sink.throw_if_errors();
    return a;
}

Bytes write(const Assembly& a) {
    ByteWriter w;
    w.put(a.magic);
    w.put(a.class_word);
    for (const Component& c : a.components) {
        w.put_bytes(c.archive);
        w.put_bytes(c.record);
        w.put(c.flags);
        w.put(c.attach);
        w.put_bytes(c.description);
        w.put(c.part_class);
        w.put(c.child_count);
    }
    return w.take();
}

bool looks_like_assembly(ByteView bytes) {
    return bytes.size() >= kHeaderSize + kComponentSize &&
           (bytes.size() - kHeaderSize) % kComponentSize == 0 && load<uint32_t>(bytes, 0) == kMagic;
}

} // namespace msh::assembly
