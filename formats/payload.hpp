// The bytes of an archive entry or an addressed file: owned, or a read-only view into a buffer
// (a mapped file, a shared read) that the payload keeps alive. A model read out of a mapped
// archive then holds no copy of its resources, and a game library's entries stay in the page
// cache instead of being copied to the heap once per reader (issue 14's memory figures).
// Copies of a view share its buffer; copies of owned bytes copy them (as a byte vector would).
// Nothing is ever written through a view: edit() first makes the bytes the payload's own.
#pragma once

#include "bytes.hpp"

#include <initializer_list>
#include <memory>
#include <utility>

namespace msh {

class Payload {
  public:
    Payload() = default;
    Payload(Bytes bytes) : owned_(std::move(bytes)) {} // NOLINT: owned bytes convert implicitly
    Payload(std::initializer_list<uint8_t> bytes) : owned_(bytes) {}
    // `view` lies inside a buffer that `keeper` keeps alive (null: `view` is copied).
    Payload(ByteView view, std::shared_ptr<const void> keeper) {
        if (keeper)
            keeper_ = std::move(keeper), view_ = view;
        else
            owned_.assign(view.begin(), view.end());
    }

    // Readers take a ByteView: it converts as any contiguous range does.
    ByteView bytes() const { return keeper_ ? view_ : ByteView(owned_); }
    const uint8_t* data() const { return bytes().data(); }
    size_t size() const { return bytes().size(); }
    bool empty() const { return size() == 0; }
    const uint8_t* begin() const { return data(); }
    const uint8_t* end() const { return data() + size(); }
    uint8_t operator[](size_t i) const { return data()[i]; }

    // What keeps the viewed buffer alive (null for owned bytes): a view of part of this payload
    // that outlives it shares it.
    const std::shared_ptr<const void>& keeper() const { return keeper_; }
    bool is_view() const { return keeper_ != nullptr; }

    // The bytes to change: a view is copied into owned bytes first.
    Bytes& edit() {
        if (keeper_) {
            owned_.assign(view_.begin(), view_.end());
            keeper_.reset();
            view_ = {};
        }
        return owned_;
    }
    // A copy as a byte vector (the owned bytes moved out of an rvalue).
    Bytes to_bytes() const& { return Bytes(begin(), end()); }
    Bytes to_bytes() && {
        if (keeper_) return Bytes(begin(), end());
        return std::move(owned_);
    }
    friend bool operator==(const Payload& a, const Payload& b) {
        return equal(a.bytes(), b.bytes());
    }
    friend bool operator==(const Payload& a, const Bytes& b) { return equal(a.bytes(), b); }

  private:
    static bool equal(ByteView a, ByteView b) {
        return a.size() == b.size() &&
               (a.empty() || std::memcmp(a.data(), b.data(), a.size()) == 0);
    }
    Bytes owned_;
    std::shared_ptr<const void> keeper_; // non-null: the payload is view_, inside what it keeps
    ByteView view_;
};

} // namespace msh
