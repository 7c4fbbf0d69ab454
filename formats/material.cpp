#include "material.hpp"

#include <algorithm>

namespace msh::material {

size_t header_size(uint32_t version) {
    if (version < 2) return 4;
    if (version == 2) return 6;
    if (version == 3) return 10;
    return 14;
}

std::string Phase::texture_name() const {
    auto end = std::find(raw_name.begin(), raw_name.end(), uint8_t(0));
    return std::string(raw_name.begin(), end);
}

void Phase::set_texture_name(std::string_view name) {
    if (name.size() >= kTextureNameSize)
        throw FormatError("MAT0 phase", 0,
                          "texture name '" + std::string(name) + "' is longer than 15 bytes");
    raw_name.fill(0);
    std::copy(name.begin(), name.end(), raw_name.begin());
}

Attr1 decode_attr1(uint32_t v) {
    Attr1 a;
    a.texture_load_flag = v & 1;
    a.opaque_upload = (v >> 1) & 1;
    a.mode = (v >> 2) & 0xF;
    a.flag_b = (v >> 6) & 1;
    a.other_bits = v & ~uint32_t(0x7F);
    return a;
}

uint32_t encode_attr1(const Attr1& a) {
    return (a.other_bits & ~uint32_t(0x7F)) | uint32_t(a.texture_load_flag) |
           uint32_t(a.opaque_upload) << 1 | (a.mode & 0xF) << 2 | uint32_t(a.flag_b) << 6;
}

Material read(ByteView p, uint32_t version, DiagnosticSink& sink, const std::string& where) {
    Material m;
    m.version = version;
    m.raw.assign(p.begin(), p.end());
    auto give_up = [&](uint64_t offset, const std::string& message) {
        sink.strict_error(where, offset,
                          message +
                              (sink.mode() == ReadMode::Tolerant ? " (copied through raw)" : ""));
        m.raw_only = true;
        return m;
    };
    if (version > kMaxVersion)
        return give_up(0, "unsupported MAT0 version " + std::to_string(version) +
                              " (attr2; expected 0..6)");
    size_t hs = header_size(version);
    if (p.size() < hs)
        return give_up(0, "MAT0 payload is " + std::to_string(p.size()) +
                              " bytes, shorter than the " + std::to_string(hs) +
                              "-byte header of version " + std::to_string(version));
    uint16_t phases = load<uint16_t>(p, 0);
    uint16_t anims = load<uint16_t>(p, 2);
    if (version >= 2) m.meta_a = p[4], m.meta_b = p[5];
    if (version >= 3) m.meta_c = load<uint32_t>(p, 6);
    if (version >= 4) m.meta_d = load<uint32_t>(p, 10);
    if (anims > kMaxAnimBlocks)
        return give_up(2, "Too many animations for material. (" + std::to_string(anims) +
                              " blocks, limit 19)");
    uint64_t at = hs;
    if (!in_range(at, uint64_t(phases) * kPhaseSize, p.size()))
        return give_up(at, std::to_string(phases) + " phases of 34 bytes do not fit in " +
                               std::to_string(p.size()) + " bytes");
    m.phases.resize(phases);
    for (Phase& ph : m.phases) {
        std::copy_n(p.data() + at, kPhaseParams, ph.params.begin());
        std::copy_n(p.data() + at + kPhaseParams, kTextureNameSize, ph.raw_name.begin());
        at += kPhaseSize;
    }
    m.anims.resize(anims);
    for (size_t b = 0; b < anims; ++b) {
        AnimBlock& blk = m.anims[b];
        if (!in_range(at, 6, p.size()))
            return give_up(at, "animation block " + std::to_string(b) + " header is truncated");
        blk.header = load<uint32_t>(p, size_t(at));
        uint16_t keys = load<uint16_t>(p, size_t(at + 4));
        at += 6;
        if (!in_range(at, uint64_t(keys) * 6, p.size()))
            return give_up(at, "animation block " + std::to_string(b) + ": " +
                                   std::to_string(keys) + " keys do not fit in the payload");
        blk.keys.resize(keys);
        for (AnimKey& k : blk.keys) {
            k.k0 = load<uint16_t>(p, size_t(at));
            k.k1 = load<uint16_t>(p, size_t(at + 2));
            k.k2 = load<uint16_t>(p, size_t(at + 4));
            at += 6;
        }
        if (blk.mode() > 3)
            sink.warn(where, at,
                      "animation block " + std::to_string(b) + " has unknown mode " +
                          std::to_string(blk.mode()) + " (kept)");
    }
    if (at != p.size())
        return give_up(at, std::to_string(p.size() - at) +
                               " trailing bytes after the last animation block");
    for (size_t b = 0; b < m.anims.size(); ++b)
        for (const AnimKey& k : m.anims[b].keys)
            if (k.k0 >= m.phases.size()) {
                sink.warn(where, 0,
                          "animation block " + std::to_string(b) + " refers to phase " +
                              std::to_string(k.k0) + " of " + std::to_string(m.phases.size()) +
                              " (kept)");
                break;
            }
    return m;
}

Material read(ByteView payload, uint32_t version, ReadMode mode, const std::string& where) {
    DiagnosticSink sink(mode);
    Material m = read(payload, version, sink, where);
    if (mode == ReadMode::Strict) sink.throw_if_errors();
    return m;
}

Bytes write(const Material& m) {
    if (m.raw_only) return m.raw;
    if (m.version > kMaxVersion)
        throw FormatError("MAT0", 0, "cannot write MAT0 version " + std::to_string(m.version));
    if (m.phases.size() > UINT16_MAX) throw FormatError("MAT0", 0, "too many phases");
    if (m.anims.size() > kMaxAnimBlocks)
        throw FormatError("MAT0", 2,
                          "Too many animations for material. (" + std::to_string(m.anims.size()) +
                              ")");
    size_t total = header_size(m.version) + m.phases.size() * kPhaseSize;
    for (const AnimBlock& blk : m.anims) total += 6 + blk.keys.size() * 6;
    ByteWriter w;
    w.bytes().reserve(total);
    w.put(uint16_t(m.phases.size()));
    w.put(uint16_t(m.anims.size()));
    if (m.version >= 2) w.put(m.meta_a), w.put(m.meta_b);
    if (m.version >= 3) w.put(m.meta_c);
    if (m.version >= 4) w.put(m.meta_d);
    for (const Phase& ph : m.phases) {
        w.put_bytes(ph.params);
        w.put_bytes(ph.raw_name);
    }
    for (const AnimBlock& blk : m.anims) {
        if (blk.keys.size() > UINT16_MAX)
            throw FormatError("MAT0", w.size(), "too many animation keys");
        w.put(blk.header);
        w.put(uint16_t(blk.keys.size()));
        for (const AnimKey& k : blk.keys) {
            w.put(k.k0);
            w.put(k.k1);
            w.put(k.k2);
        }
    }
    return w.take();
}

// ---- texture names and palettes ------------------------------------------------------------

PaletteRef palette_slot(std::string_view name) {
    PaletteRef r;
    size_t limit = std::min<size_t>(name.size(), 17);
    size_t dot = name.substr(0, limit).find('.');
    if (dot == std::string_view::npos) return r;
    r.valid_name = true;
    auto at = [&](size_t i) -> int { return i < name.size() ? int(uint8_t(name[i])) : 0; };
    int c1 = at(dot + 1), c2 = c1 ? at(dot + 2) : 0;
    int upper = (c1 >= 'a' && c1 <= 'z') ? c1 - 'a' + 'A' : c1;
    r.slot = (upper - 'A') * 11 + (c2 ? c2 - '0' + 1 : 0);
    if (r.slot < 0) r.slot = -1;
    return r;
}

std::string palette_file_name(int slot) {
    if (slot < 0 || slot >= kPaletteSlots)
        throw FormatError("palette", 0,
                          "palette slot " + std::to_string(slot) + " is outside 0..285");
    std::string s(1, char('A' + slot / 11));
    if (slot % 11) s += char('0' + slot % 11 - 1);
    return s + ".PAL";
}

bool writable_texture_name(std::string_view name) {
    PaletteRef r = palette_slot(name);
    return r.valid_name && r.slot < kPaletteSlots && name.size() < kTextureNameSize;
}

// ---- lookups -------------------------------------------------------------------------------

std::optional<size_t> find_resource(const nres::Archive& lib, uint32_t type,
                                    std::string_view name) {
    for (size_t i = 0; i < lib.entries.size(); ++i)
        if (lib.entries[i].type == type && nres::compare_names(lib.entries[i].name(), name) == 0)
            return i;
    return std::nullopt;
}

Lookup find_material(const nres::Archive& lib, std::string_view name) {
    if (auto i = find_resource(lib, kType, name)) return {i, LookupRule::Exact};
    if (auto i = find_resource(lib, kType, "DEFAULT")) return {i, LookupRule::Default};
    for (size_t i = 0; i < lib.entries.size(); ++i)
        if (lib.entries[i].type == kType) return {i, LookupRule::FirstEntry};
    return {};
}

} // namespace msh::material
