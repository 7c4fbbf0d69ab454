// A bounds-checked little-endian cursor for the count-driven loose files (data.tma, unit .dat):
// every read checks the bytes left first, and a field that runs past the end is one fatal error
// naming the field and its byte offset. Counts are checked against the bytes left (at least
// `min_record` bytes per record) before anything is allocated for them.
#pragma once

#include "bytes.hpp"
#include "diagnostics.hpp"
#include "vec3.hpp"

#include <string>

namespace msh {

class RecordCursor {
  public:
    RecordCursor(ByteView bytes, DiagnosticSink& sink, std::string where)
        : bytes_(bytes), sink_(sink), where_(std::move(where)) {}

    uint64_t at() const { return at_; }
    uint64_t left() const { return bytes_.size() - at_; }
    const std::string& where() const { return where_; }

    uint32_t u32(const char* what) {
        need(4, what);
        const uint32_t v = load<uint32_t>(bytes_, size_t(at_));
        at_ += 4;
        return v;
    }
    int32_t i32(const char* what) { return int32_t(u32(what)); }
    float f32(const char* what) {
        need(4, what);
        const float v = load<float>(bytes_, size_t(at_));
        at_ += 4;
        return v;
    }
    Vec3 vec3(const char* what) {
        need(12, what);
        Vec3 v{load<float>(bytes_, size_t(at_)), load<float>(bytes_, size_t(at_) + 4),
               load<float>(bytes_, size_t(at_) + 8)};
        at_ += 12;
        return v;
    }
    // A u32 count of records of at least `min_record` bytes each that must fit in what is left.
    uint32_t count(const char* what, uint64_t min_record) {
        const uint64_t start = at_;
        const uint32_t n = u32(what);
        if (min_record > 0 && n > left() / min_record)
            sink_.fatal(where_, start,
                        std::string(what) + " " + std::to_string(n) + " does not fit in the " +
                            std::to_string(left()) + " bytes left");
        return n;
    }
    // An LpString: u32 length, then that many bytes (CP1251, no NUL).
    std::string lp_string(const char* what) {
        const uint64_t start = at_;
        const uint32_t n = u32(what);
        if (n > left())
            sink_.fatal(where_, start,
                        std::string(what) + ": length " + std::to_string(n) +
                            " runs past the end (" + std::to_string(left()) + " bytes left)");
        std::string s(reinterpret_cast<const char*>(bytes_.data()) + at_, n);
        at_ += n;
        return s;
    }
    ByteView take(uint64_t n, const char* what) {
        need(n, what);
        ByteView v = bytes_.subspan(size_t(at_), size_t(n));
        at_ += n;
        return v;
    }
    void strict_error(uint64_t offset, const std::string& message) {
        sink_.strict_error(where_, offset, message);
    }

  private:
    void need(uint64_t n, const char* what) {
        if (n > left())
            sink_.fatal(where_, at_,
                        std::string(what) + " runs past the end of the file (" +
                            std::to_string(left()) + " of " + std::to_string(n) + " bytes left)");
    }

    ByteView bytes_;
    DiagnosticSink& sink_;
    std::string where_;
    uint64_t at_ = 0;
};

} // namespace msh
