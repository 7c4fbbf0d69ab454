#include "nres.hpp"

#include "cp1251.hpp"

#include <algorithm>
#include <functional>
#include <numeric>

namespace msh::nres {

namespace {

uint8_t fold_byte(uint8_t c, NameFold fold) {
    if (fold == NameFold::Lower) return (c >= 'A' && c <= 'Z') ? uint8_t(c - 'A' + 'a') : c;
    return (c >= 'a' && c <= 'z') ? uint8_t(c - 'a' + 'A') : c;
}

std::string entry_label(size_t i, const Entry& e) {
    return "entry " + std::to_string(i) + " '" + e.name() + "'";
}

bool all_zero(ByteView b) {
    return std::all_of(b.begin(), b.end(), [](uint8_t c) { return c == 0; });
}

struct Range {
    uint64_t offset;
    uint64_t size;
    uint32_t entry;
};

// Describes [16, dir_off) as payloads, canonical pads and gaps (nres.md §8).
void build_layout(Archive& ar, ByteView bytes, uint64_t dir_off, const std::vector<bool>& usable,
                  DiagnosticSink& sink, const std::string& where) {
    std::vector<Range> ranges;
    for (uint32_t i = 0; i < ar.entries.size(); ++i)
        if (usable[i]) ranges.push_back({ar.entries[i].data_offset, ar.entries[i].data.size(), i});
    std::stable_sort(ranges.begin(), ranges.end(), [](const Range& a, const Range& b) {
        return a.offset != b.offset ? a.offset < b.offset : a.size < b.size;
    });

    uint64_t cursor = kHeaderSize;
    bool after_payload = false;
    auto fill = [&](uint64_t to) {
        if (to <= cursor) return;
        if (after_payload) {
            uint64_t pad_end = std::min(align8(cursor), to);
            ByteView pad = bytes.subspan(cursor, pad_end - cursor);
            if (pad_end == align8(cursor) && all_zero(pad)) {
                if (pad_end > cursor)
                    ar.layout.push_back({Segment::Kind::Pad, 0, uint32_t(cursor), {}});
                cursor = pad_end;
            } else {
                sink.warn(where, cursor, "padding after a payload is not canonical zero bytes");
            }
        }
        if (to > cursor) {
            ByteView gap = bytes.subspan(cursor, to - cursor);
            ar.layout.push_back(
                {Segment::Kind::Gap, 0, uint32_t(cursor), Bytes(gap.begin(), gap.end())});
            sink.warn(where, cursor,
                      std::to_string(to - cursor) + " bytes not referenced by any entry");
            cursor = to;
        }
    };
    for (const Range& r : ranges) {
        if (r.offset < cursor) {
            sink.strict_error(where + ": " + entry_label(r.entry, ar.entries[r.entry]), r.offset,
                              "payload overlaps the previous payload (ends at " +
                                  std::to_string(cursor) + ")");
            ar.verbatim_only = true;
            continue;
        }
        fill(r.offset);
        if (r.offset % 8 != 0)
            sink.warn(where + ": " + entry_label(r.entry, ar.entries[r.entry]), r.offset,
                      "payload is not 8-byte aligned");
        ar.layout.push_back({Segment::Kind::Payload, r.entry, uint32_t(r.offset), {}});
        cursor = r.offset + r.size;
        after_payload = true;
    }
    fill(dir_off);
}

} // namespace

std::string Entry::name() const {
    auto end = std::find(raw_name.begin(), raw_name.end(), uint8_t(0));
    return std::string(raw_name.begin(), end);
}

std::string Entry::display_name() const {
    return cp1251_to_utf8(name());
}

void Entry::set_name(std::string_view name) {
    raw_name.fill(0);
    std::copy_n(name.begin(), std::min(name.size(), kNameSize - 1), raw_name.begin());
}

const char* fold_name(NameFold fold) {
    return fold == NameFold::Upper ? "upper" : "lower";
}

const char* evidence_name(FoldEvidence e) {
    switch (e) {
    case FoldEvidence::Both:
        return "either";
    case FoldEvidence::Upper:
        return "upper";
    case FoldEvidence::Lower:
        return "lower";
    case FoldEvidence::Neither:
        return "neither";
    }
    return "neither";
}

int compare_names(std::string_view a, std::string_view b, NameFold fold) {
    size_t n = std::min(a.size(), b.size());
    for (size_t i = 0; i < n; ++i) {
        uint8_t ca = fold_byte(uint8_t(a[i]), fold), cb = fold_byte(uint8_t(b[i]), fold);
        if (ca != cb) return ca < cb ? -1 : 1;
    }
    return a.size() == b.size() ? 0 : (a.size() < b.size() ? -1 : 1);
}

std::vector<uint32_t> sorted_permutation(const std::vector<Entry>& entries, NameFold fold) {
    std::vector<std::string> names;
    names.reserve(entries.size());
    for (const Entry& e : entries) names.push_back(e.name());
    std::vector<uint32_t> perm(entries.size());
    std::iota(perm.begin(), perm.end(), 0u);
    std::stable_sort(perm.begin(), perm.end(), [&](uint32_t a, uint32_t b) {
        return compare_names(names[a], names[b], fold) < 0;
    });
    return perm;
}

FoldEvidence stored_fold(const std::vector<Entry>& entries) {
    const size_t n = entries.size();
    std::vector<bool> seen(n, false);
    for (const Entry& e : entries) {
        if (e.sort_index >= n || seen[e.sort_index]) return FoldEvidence::Neither;
        seen[e.sort_index] = true;
    }
    bool upper = true, lower = true;
    for (size_t i = 1; i < n && (upper || lower); ++i) {
        const std::string a = entries[entries[i - 1].sort_index].name();
        const std::string b = entries[entries[i].sort_index].name();
        upper = upper && compare_names(a, b, NameFold::Upper) <= 0;
        lower = lower && compare_names(a, b, NameFold::Lower) <= 0;
    }
    if (upper && lower) return FoldEvidence::Both;
    if (upper) return FoldEvidence::Upper;
    if (lower) return FoldEvidence::Lower;
    return FoldEvidence::Neither;
}

std::optional<size_t> binary_find(const Archive& ar, std::string_view name, NameFold fold) {
    size_t lo = 0, hi = ar.entries.size();
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        const uint32_t at = ar.entries[mid].sort_index;
        if (at >= ar.entries.size()) return std::nullopt;
        const int c = compare_names(name, ar.entries[at].name(), fold);
        if (c == 0) return at;
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return std::nullopt;
}

std::optional<size_t> Archive::find(std::string_view name) const {
    for (size_t i = 0; i < entries.size(); ++i)
        if (compare_names(entries[i].name(), name) == 0) return i;
    // A name typed (or written to JSON) as UTF-8 finds its CP1251 entry.
    if (std::any_of(name.begin(), name.end(), [](char c) { return uint8_t(c) >= 0x80; }))
        if (const auto raw = utf8_to_cp1251(name); raw && *raw != name) return find(*raw);
    return std::nullopt;
}

std::optional<size_t> Archive::find_type(uint32_t type) const {
    for (size_t i = 0; i < entries.size(); ++i)
        if (entries[i].type == type) return i;
    return std::nullopt;
}

void Archive::recompute_sort_index() {
    std::vector<uint32_t> perm = sorted_permutation(entries, fold);
    for (size_t i = 0; i < entries.size(); ++i) entries[i].sort_index = perm[i];
}

size_t Archive::append(Entry e) {
    entries.push_back(std::move(e));
    recompute_sort_index();
    return entries.size() - 1;
}

void Archive::remove(size_t index) {
    entries.erase(entries.begin() + std::ptrdiff_t(index));
    std::vector<Segment> kept;
    bool dropped_payload = false;
    for (Segment& s : layout) {
        if (s.kind == Segment::Kind::Payload) {
            dropped_payload = s.entry == index;
            if (dropped_payload) continue;
            if (s.entry > index) --s.entry;
        } else if (s.kind == Segment::Kind::Pad && dropped_payload) {
            continue; // the pad belonged to the removed payload
        }
        kept.push_back(std::move(s));
    }
    layout = std::move(kept);
    recompute_sort_index();
}

bool looks_like_nres(ByteView bytes) {
    return bytes.size() >= 4 && bytes[0] == 'N' && bytes[1] == 'R' && bytes[2] == 'e' &&
           bytes[3] == 's';
}

namespace {

// Whether a directory of `count` rows ending at `end` reads as one: every payload inside the
// data region before it and every name NUL-terminated (what a cut file's bytes never pass).
bool directory_reads_at(ByteView bytes, uint64_t end, uint32_t count) {
    const uint64_t dir_size = uint64_t(count) * kEntrySize;
    if (dir_size > end || end - dir_size < kHeaderSize) return false;
    const uint64_t dir_off = end - dir_size;
    for (uint32_t i = 0; i < count; ++i) {
        const uint8_t* p = bytes.data() + dir_off + uint64_t(i) * kEntrySize;
        const uint32_t size = load<uint32_t>(p + 12), offset = load<uint32_t>(p + 56);
        if (offset < kHeaderSize || !in_range(offset, size, dir_off)) return false;
        if (std::find(p + 20, p + 20 + kNameSize, 0) == p + 20 + kNameSize) return false;
    }
    return true;
}

std::string with_thousands(uint64_t n) {
    std::string digits = std::to_string(n), out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

} // namespace

std::optional<Truncation> truncation(ByteView bytes) {
    if (bytes.size() < kHeaderSize || !looks_like_nres(bytes)) return std::nullopt;
    const int32_t count = load<int32_t>(bytes, 8);
    const uint64_t total = load<uint32_t>(bytes, 12);
    if (count < 0 || total <= bytes.size()) return std::nullopt;
    if (directory_reads_at(bytes, bytes.size(), uint32_t(count))) return std::nullopt;
    Truncation t;
    t.have = bytes.size();
    t.need = total;
    t.count = uint32_t(count);
    const uint64_t dir_size = uint64_t(t.count) * kEntrySize;
    if (dir_size > total || total - dir_size < kHeaderSize) return t; // no directory to place
    t.directory_offset = total - dir_size;
    for (uint32_t i = 0; i < t.count; ++i) {
        const uint64_t at = t.directory_offset + uint64_t(i) * kEntrySize;
        if (!in_range(at, kEntrySize, t.have)) break;
        const uint8_t* p = bytes.data() + at;
        Entry e;
        e.type = load<uint32_t>(p + 0);
        e.attr1 = load<uint32_t>(p + 4);
        e.attr2 = load<uint32_t>(p + 8);
        const uint32_t size = load<uint32_t>(p + 12);
        e.attr3 = load<uint32_t>(p + 16);
        std::copy_n(p + 20, kNameSize, e.raw_name.begin());
        e.data_offset = load<uint32_t>(p + 56);
        e.sort_index = load<uint32_t>(p + 60);
        if (e.data_offset >= kHeaderSize && in_range(e.data_offset, size, t.directory_offset))
            e.data = Payload(Bytes(bytes.begin() + std::ptrdiff_t(e.data_offset),
                                   bytes.begin() + std::ptrdiff_t(e.data_offset + size)));
        t.readable.push_back(std::move(e));
    }
    return t;
}

std::string describe(const Truncation& t) {
    std::string text = "truncated: the file has " + with_thousands(t.have) +
                       " bytes, its header says the archive is " + with_thousands(t.need) +
                       " bytes (" + with_thousands(t.need - t.have) + " missing)";
    if (t.directory_offset == 0)
        return text + "; its directory of " + std::to_string(t.count) + " entries cannot be placed";
    if (t.readable.empty())
        return text + "; the file ends before its directory of " + std::to_string(t.count) +
               " entries (at byte " + with_thousands(t.directory_offset) + ")";
    return text + "; " + std::to_string(t.count - t.readable.size()) + " of its " +
           std::to_string(t.count) + " directory entries are cut off";
}

namespace {

using KeepEntry = std::function<bool(const Entry&)>;
using Keeper = std::shared_ptr<const void>;

// read(), or with `keep` read_entries(): the header and the whole directory are checked either way.
Archive read_archive(ByteView bytes, DiagnosticSink& sink, const std::string& where,
                     const KeepEntry* keep, const Keeper& keeper) {
    if (bytes.size() < kHeaderSize)
        sink.fatal(where, 0,
                   "file is " + std::to_string(bytes.size()) +
                       " bytes, shorter than the 16-byte NRes header");
    if (!looks_like_nres(bytes)) sink.fatal(where, 0, "bad magic (expected 'NRes')");
    uint32_t version = load<uint32_t>(bytes, 4);
    if (version != kVersion)
        sink.fatal(
            where, 4, "unsupported NRes version 0x" + [&] {
                char buf[16];
                snprintf(buf, sizeof buf, "%x", version);
                return std::string(buf);
            }());
    int32_t count = load<int32_t>(bytes, 8);
    uint64_t total = load<uint32_t>(bytes, 12);
    if (count < 0) sink.fatal(where, 8, "negative entry count " + std::to_string(count));

    if (const std::optional<Truncation> cut = truncation(bytes))
        sink.fatal(where, bytes.size(), describe(*cut));
    uint64_t end = bytes.size();
    Archive ar;
    if (total != bytes.size()) {
        if (sink.mode() == ReadMode::Strict)
            sink.fatal(where, 12,
                       "header totalSize " + std::to_string(total) +
                           " differs from the file size " + std::to_string(bytes.size()));
        sink.strict_error(where, 12,
                          "header totalSize " + std::to_string(total) +
                              " differs from the file size " + std::to_string(bytes.size()));
        if (total < bytes.size() && total >= kHeaderSize) end = total;
    }
    uint64_t dir_size = uint64_t(count) * kEntrySize;
    if (dir_size > end || end - dir_size < kHeaderSize)
        sink.fatal(where, 8,
                   "directory of " + std::to_string(count) + " entries does not fit in " +
                       std::to_string(end) + " bytes");
    uint64_t dir_off = end - dir_size;
    ar.trailing.assign(bytes.begin() + std::ptrdiff_t(end), bytes.end());

    ar.entries.resize(size_t(count));
    std::vector<bool> usable(size_t(count), true);
    for (size_t i = 0; i < size_t(count); ++i) {
        const uint8_t* p = bytes.data() + dir_off + i * kEntrySize;
        uint64_t at = dir_off + i * kEntrySize;
        Entry& e = ar.entries[i];
        e.type = load<uint32_t>(p + 0);
        e.attr1 = load<uint32_t>(p + 4);
        e.attr2 = load<uint32_t>(p + 8);
        uint32_t size = load<uint32_t>(p + 12);
        e.attr3 = load<uint32_t>(p + 16);
        std::copy_n(p + 20, kNameSize, e.raw_name.begin());
        e.data_offset = load<uint32_t>(p + 56);
        e.sort_index = load<uint32_t>(p + 60);
        std::string label = where + ": " + entry_label(i, e);
        if (std::find(e.raw_name.begin(), e.raw_name.end(), 0) == e.raw_name.end())
            sink.strict_error(label, at + 20, "name field has no NUL terminator");
        // `keep` sees every entry, also one whose payload lies outside (a sniffer wants its type).
        const bool kept = !keep || (*keep)(e);
        if (e.data_offset < kHeaderSize || !in_range(e.data_offset, size, dir_off)) {
            usable[i] = false;
            sink.error(label, at + 56,
                       "payload [" + std::to_string(e.data_offset) + ", +" + std::to_string(size) +
                           ") lies outside the data region [16, " + std::to_string(dir_off) + ")");
            ar.verbatim_only = true;
            continue;
        }
        if (!kept) {
            usable[i] = false; // dropped below: its payload is never touched
            continue;
        }
        e.data = Payload(bytes.subspan(e.data_offset, size), keeper); // a view when kept alive
    }
    if (keep) {
        Archive subset;
        for (size_t i = 0; i < ar.entries.size(); ++i)
            if (usable[i]) subset.entries.push_back(std::move(ar.entries[i]));
        return subset;
    }

    // Sort index: a permutation of 0..N-1, ideally the recomputed table.
    std::vector<bool> seen(size_t(count), false);
    bool permutation = true;
    for (const Entry& e : ar.entries) {
        if (e.sort_index >= uint32_t(count) || seen[e.sort_index]) {
            permutation = false;
            break;
        }
        seen[e.sort_index] = true;
    }
    if (!permutation)
        sink.strict_error(where, dir_off + 60, "sort indices are not a permutation of 0..N-1");
    // The fold the engine's binary search needs; a rewrite keeps the one the order follows.
    ar.fold_evidence = stored_fold(ar.entries);
    ar.fold = ar.fold_evidence == FoldEvidence::Upper ? NameFold::Upper : NameFold::Lower;
    if (permutation && ar.fold_evidence == FoldEvidence::Neither)
        sink.warn(where, dir_off + 60,
                  "sort indices follow the name order under neither case fold (the engine's "
                  "binary search may miss entries; nres.md §5)");

    build_layout(ar, bytes, dir_off, usable, sink, where);
    if (ar.verbatim_only) ar.original.assign(bytes.begin(), bytes.end());
    return ar;
}

} // namespace

Archive read(ByteView bytes, DiagnosticSink& sink, const std::string& where, const Keeper& keeper) {
    return read_archive(bytes, sink, where, nullptr, keeper);
}

Archive read_entries(ByteView bytes, const std::function<bool(const Entry&)>& keep,
                     DiagnosticSink& sink, const std::string& where, const Keeper& keeper) {
    return read_archive(bytes, sink, where, &keep, keeper);
}

Archive read(ByteView bytes, ReadMode mode, const std::string& where, const Keeper& keeper) {
    DiagnosticSink sink(mode);
    Archive ar = read(bytes, sink, where, keeper);
    if (mode == ReadMode::Strict) sink.throw_if_errors();
    return ar;
}

namespace {

void put_directory(ByteWriter& w, const Archive& ar, const std::vector<uint32_t>& offsets,
                   bool fresh_names, const std::vector<uint32_t>* sort_index) {
    for (size_t i = 0; i < ar.entries.size(); ++i) {
        const Entry& e = ar.entries[i];
        w.put(e.type);
        w.put(e.attr1);
        w.put(e.attr2);
        w.put(uint32_t(e.data.size()));
        w.put(e.attr3);
        if (fresh_names) {
            Entry copy;
            copy.set_name(e.name());
            w.put_bytes(copy.raw_name);
        } else {
            w.put_bytes(e.raw_name);
        }
        w.put(offsets[i]);
        w.put(sort_index ? (*sort_index)[i] : e.sort_index);
    }
}

void check_size(uint64_t size) {
    if (size > UINT32_MAX)
        throw FormatError(
            "", 12, "archive would be larger than 4 GiB (" + std::to_string(size) + " bytes)");
}

} // namespace

namespace {

// Collects a file image as pieces: the writer's own bytes (header, padding, gaps, directory) in
// buffers of its own, the payloads as views.
class PieceWriter {
  public:
    size_t size() const { return size_; }
    template <class T> void put(T v) { current_.put(v), size_ += sizeof(T); }
    void put_zeros(size_t n) { current_.put_zeros(n), size_ += n; }
    void put_small(ByteView b) { current_.put_bytes(b), size_ += b.size(); }
    void put_view(ByteView b) {
        if (b.empty()) return;
        close_current();
        out_.pieces.push_back(b);
        size_ += b.size();
    }
    // Ends the header, which the first buffer then holds alone (patched at the end).
    void end_header() { close_current(); }
    void patch_header_u32(size_t at, uint32_t v) { store(out_.owned.front()->data() + at, v); }
    Pieces take() {
        close_current();
        return std::move(out_);
    }

  private:
    void close_current() {
        if (current_.size() == 0) return;
        out_.owned.push_back(std::make_unique<Bytes>(current_.take()));
        out_.pieces.push_back(*out_.owned.back());
        current_ = ByteWriter();
    }
    ByteWriter current_;
    Pieces out_;
    size_t size_ = 0;
};

// Overlapping payloads: only an unchanged archive can be re-emitted (as its original image).
void check_unchanged(const Archive& ar) {
    DiagnosticSink sink(ReadMode::Tolerant);
    const Archive again = read(ar.original, sink, "");
    const size_t n = std::max(ar.entries.size(), again.entries.size());
    for (size_t i = 0; i < n; ++i)
        if (i >= ar.entries.size() || i >= again.entries.size() ||
            again.entries[i].data != ar.entries[i].data)
            throw FormatError("entry " + std::to_string(i), 0,
                              "archive with overlapping payloads can only be copied unchanged");
}

} // namespace

Pieces write_pieces(const Archive& ar) {
    if (ar.verbatim_only) {
        check_unchanged(ar);
        Pieces p;
        p.pieces.push_back(ar.original); // a view, like the payloads of any other archive
        return p;
    }
    PieceWriter w;
    w.put_small(ByteView(reinterpret_cast<const uint8_t*>("NRes"), 4));
    w.put(kVersion);
    w.put(uint32_t(ar.entries.size()));
    w.put(uint32_t(0)); // totalSize, patched below
    w.end_header();
    std::vector<uint32_t> offsets(ar.entries.size(), 0);
    std::vector<bool> placed(ar.entries.size(), false);
    for (const Segment& s : ar.layout) {
        switch (s.kind) {
        case Segment::Kind::Payload: {
            if (s.entry >= ar.entries.size()) break;
            // Things before this payload changed size: keep it 8-byte aligned.
            if (w.size() != s.original_offset && w.size() % 8 != 0)
                w.put_zeros(align8(w.size()) - w.size());
            offsets[s.entry] = uint32_t(w.size());
            placed[s.entry] = true;
            w.put_view(ar.entries[s.entry].data);
            break;
        }
        case Segment::Kind::Pad:
            w.put_zeros(align8(w.size()) - w.size());
            break;
        case Segment::Kind::Gap:
            w.put_view(s.gap);
            break;
        }
    }
    for (size_t i = 0; i < ar.entries.size(); ++i) {
        if (placed[i]) continue;
        w.put_zeros(align8(w.size()) - w.size());
        offsets[i] = uint32_t(w.size());
        w.put_view(ar.entries[i].data);
        w.put_zeros(align8(w.size()) - w.size());
    }
    ByteWriter directory;
    put_directory(directory, ar, offsets, false, nullptr);
    w.put_small(directory.bytes());
    check_size(w.size());
    w.patch_header_u32(12, uint32_t(w.size()));
    w.put_view(ar.trailing);
    return w.take();
}

Bytes write(const Archive& ar) {
    if (ar.verbatim_only) {
        check_unchanged(ar);
        return ar.original;
    }
    const Pieces p = write_pieces(ar);
    Bytes out;
    out.reserve(p.size());
    for (const ByteView piece : p.pieces) out.insert(out.end(), piece.begin(), piece.end());
    return out;
}

Bytes write_canonical(const Archive& ar) {
    ByteWriter w;
    w.put_bytes(ByteView(reinterpret_cast<const uint8_t*>("NRes"), 4));
    w.put(kVersion);
    w.put(uint32_t(ar.entries.size()));
    w.put(uint32_t(0));
    std::vector<uint32_t> offsets(ar.entries.size());
    for (size_t i = 0; i < ar.entries.size(); ++i) {
        offsets[i] = uint32_t(w.size());
        w.put_bytes(ar.entries[i].data);
        w.put_zeros(align8(w.size()) - w.size());
    }
    std::vector<uint32_t> perm = sorted_permutation(ar.entries, ar.fold);
    put_directory(w, ar, offsets, true, &perm);
    check_size(w.size());
    w.patch(12, uint32_t(w.size()));
    return w.take();
}

} // namespace msh::nres
