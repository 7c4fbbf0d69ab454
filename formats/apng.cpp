#include "apng.hpp"

#include <stdexcept>

#include <zlib.h>

#include <cstring>
#include <string>

namespace msh::apng {

namespace {

void put32(Bytes& out, uint32_t v) {
    for (int shift = 24; shift >= 0; shift -= 8) out.push_back(uint8_t(v >> shift));
}

void put16(Bytes& out, uint16_t v) {
    out.push_back(uint8_t(v >> 8));
    out.push_back(uint8_t(v));
}

uint32_t get32(const uint8_t* p) {
    return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3];
}

void chunk(Bytes& out, const char type[4], const Bytes& data) {
    put32(out, uint32_t(data.size()));
    const size_t start = out.size();
    out.insert(out.end(), type, type + 4);
    out.insert(out.end(), data.begin(), data.end());
    uLong crc = crc32(0, nullptr, 0);
    crc = crc32(crc, out.data() + start, uInt(out.size() - start));
    put32(out, uint32_t(crc));
}

struct Parsed {
    Bytes ihdr;
    std::vector<Bytes> idat;
};

// The IHDR and IDAT chunks of a PNG libpng just wrote.
Parsed parse(const Bytes& png) {
    Parsed p;
    size_t at = 8;
    while (at + 12 <= png.size()) {
        const uint32_t len = get32(&png[at]);
        if (at + 12 + size_t(len) > png.size()) break;
        const std::string type(reinterpret_cast<const char*>(&png[at + 4]), 4);
        const Bytes data(png.begin() + long(at + 8), png.begin() + long(at + 8 + len));
        if (type == "IHDR") p.ihdr = data;
        if (type == "IDAT") p.idat.push_back(data);
        at += 12 + size_t(len);
    }
    return p;
}

} // namespace

Bytes encode(const std::vector<texm::Image>& frames, uint16_t delay_num, uint16_t delay_den,
             const png::EncodeOptions& options) {
    if (frames.empty()) throw std::invalid_argument("APNG: no frames");
    const uint32_t w = frames[0].width, h = frames[0].height;
    Bytes out = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    uint32_t sequence = 0;
    for (size_t f = 0; f < frames.size(); ++f) {
        if (frames[f].width != w || frames[f].height != h)
            throw std::invalid_argument("APNG: frame " + std::to_string(f) + " is not " +
                                        std::to_string(w) + "x" + std::to_string(h));
        // Every frame RGBA, so that all share the IHDR of the first.
        const Parsed p = parse(png::encode(w, h, png::ColorType::RGBA, frames[f].rgba, options));
        if (f == 0) {
            chunk(out, "IHDR", p.ihdr);
            Bytes actl;
            put32(actl, uint32_t(frames.size()));
            put32(actl, 0); // loop forever
            chunk(out, "acTL", actl);
        }
        Bytes fctl;
        put32(fctl, sequence++);
        put32(fctl, w);
        put32(fctl, h);
        put32(fctl, 0);
        put32(fctl, 0);
        put16(fctl, delay_num);
        put16(fctl, delay_den);
        fctl.push_back(0); // dispose: none
        fctl.push_back(0); // blend: source
        chunk(out, "fcTL", fctl);
        for (const Bytes& data : p.idat) {
            if (f == 0) {
                chunk(out, "IDAT", data);
            } else {
                Bytes fdat;
                put32(fdat, sequence++);
                fdat.insert(fdat.end(), data.begin(), data.end());
                chunk(out, "fdAT", fdat);
            }
        }
    }
    chunk(out, "IEND", {});
    return out;
}

} // namespace msh::apng
