#include "corpus.hpp"

#include "formats/nres.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>

// The file's own names: the test program compiles in unity batches (CMakeLists.txt).
namespace nres_tests {

using namespace msh;

namespace {

struct RawEntry {
    uint32_t type;
    std::string name;
    uint32_t offset;
    uint32_t size;
    uint32_t sort_index;
};

// Assembles an archive by hand: `region` is the data region from offset 16, then the directory.
Bytes assemble(const Bytes& region, const std::vector<RawEntry>& entries,
               int32_t count_override = -1) {
    ByteWriter w;
    w.put_bytes(ByteView(reinterpret_cast<const uint8_t*>("NRes"), 4));
    w.put(uint32_t(0x100));
    w.put(int32_t(count_override >= 0 ? count_override : int32_t(entries.size())));
    w.put(uint32_t(0));
    w.put_bytes(region);
    for (const RawEntry& e : entries) {
        w.put(e.type);
        w.put(uint32_t(7));
        w.put(uint32_t(8));
        w.put(e.size);
        w.put(uint32_t(9));
        nres::Entry tmp;
        tmp.set_name(e.name);
        w.put_bytes(tmp.raw_name);
        w.put(e.offset);
        w.put(e.sort_index);
    }
    w.patch(12, uint32_t(w.size()));
    return w.take();
}

Bytes bytes_of(std::initializer_list<int> v) {
    Bytes b;
    for (int c : v) b.push_back(uint8_t(c));
    return b;
}

nres::Archive small_archive() {
    nres::Archive ar;
    const char* names[] = {"b", "A", "c"};
    for (int i = 0; i < 3; ++i) {
        nres::Entry e;
        e.type = nres::fourcc("Texm");
        e.set_name(names[i]);
        e.data.edit().assign(size_t(5 + i * 4), uint8_t(0x30 + i));
        ar.entries.push_back(e);
    }
    return ar;
}

} // namespace

BOOST_AUTO_TEST_SUITE(nres_container)

BOOST_AUTO_TEST_CASE(name_comparison_folds_to_lower_case) {
    BOOST_TEST(nres::compare_names("A_B", "AAB") < 0); // '_' (0x5F) < 'a' (0x61)
    BOOST_TEST(nres::compare_names("A_B", "AAB", nres::NameFold::Upper) > 0); // '_' > 'A'
    BOOST_TEST(nres::compare_names("abc", "ABC", nres::NameFold::Upper) == 0);
    BOOST_TEST(nres::compare_names("abc", "ABC") == 0);
    BOOST_TEST(nres::compare_names("ab", "abc") < 0); // a prefix sorts first
    BOOST_TEST(nres::compare_names("Z", "a") > 0);
    BOOST_TEST(nres::compare_names("\xE0", "a") > 0); // bytes compare unsigned
}

BOOST_AUTO_TEST_CASE(sort_index_is_the_sorted_permutation) {
    nres::Archive ar = small_archive();
    ar.recompute_sort_index();
    BOOST_TEST(ar.entries[0].sort_index == 1u); // spec example: b, A, c -> [1, 0, 2]
    BOOST_TEST(ar.entries[1].sort_index == 0u);
    BOOST_TEST(ar.entries[2].sort_index == 2u);
}

BOOST_AUTO_TEST_CASE(sort_is_stable_for_equal_names) {
    nres::Archive ar;
    for (const char* n : {"x", "Same", "SAME", "a", "same"}) {
        nres::Entry e;
        e.set_name(n);
        ar.entries.push_back(e);
    }
    std::vector<uint32_t> perm = nres::sorted_permutation(ar.entries);
    BOOST_TEST(perm == (std::vector<uint32_t>{3, 1, 2, 4, 0}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(canonical_writer_layout) {
    Bytes b = nres::write_canonical(small_archive());
    // payload sizes 5, 9, 13 -> aligned 8, 16, 16; 16 + 40 + 3 * 64
    BOOST_TEST(b.size() == 16u + 40u + 192u);
    BOOST_TEST(load<uint32_t>(b, 12) == b.size());
    nres::Archive ar = nres::read(b, ReadMode::Strict, "t");
    BOOST_TEST(ar.entries[0].data_offset == 16u);
    BOOST_TEST(ar.entries[1].data_offset == 24u);
    BOOST_TEST(ar.entries[2].data_offset == 40u);
    BOOST_TEST(ar.entries[1].sort_index == 0u);
    BOOST_TEST(b[16 + 5] == 0); // zero padding
    BOOST_TEST((nres::write(ar) == b));
}

BOOST_AUTO_TEST_CASE(lossless_keeps_gaps_nonzero_padding_raw_names_and_physical_order) {
    // Physical order: entry 1 first, then entry 0; a non-zero unreferenced region before the first
    // payload; non-zero padding after entry 1; bytes after the NUL of a name; a valid permutation
    // that is not the sorted one.
    Bytes region = bytes_of(
        {0xDE, 0xAD, 0xBE, 0xEF, 0,    0, 0, 1, // gap at 16
         1,    2,    3,    0xAA, 0xBB, 0, 0, 0, // entry 1 (3 bytes) + odd padding
         9,    9,    9,    9,    9,    9, 9, 9, 9, 0, 0, 0, 0, 0, 0, 0}); // entry 0 (9 bytes)
    Bytes b = assemble(region, {{1, "zeta", 32, 9, 0}, {2, "alpha", 24, 3, 1}});
    size_t name_at = b.size() - 128 + 20;
    b[name_at + 10] = 'Q'; // after the NUL of "zeta"
    nres::Archive ar = nres::read(b, ReadMode::Tolerant, "t");
    BOOST_TEST(ar.entries[0].raw_name[10] == 'Q');
    BOOST_TEST(ar.entries[0].name() == "zeta");
    BOOST_TEST((nres::write(ar) == b));
    // An edit: entry 1 grows; the gap stays verbatim and entry 0 stays 8-aligned.
    ar.entries[1].data = bytes_of({5, 5, 5, 5, 5, 5, 5, 5, 5, 5});
    Bytes edited = nres::write(ar);
    nres::Archive again = nres::read(edited, ReadMode::Tolerant, "t");
    BOOST_TEST(again.entries[1].data_offset == 24u);
    BOOST_TEST(again.entries[0].data_offset % 8 == 0u);
    BOOST_TEST((again.entries[0].data == ar.entries[0].data));
    BOOST_TEST(edited[16] == 0xDE);
    BOOST_TEST(again.entries[0].sort_index == 0u); // kept as read: no names changed
    BOOST_TEST(again.entries[0].raw_name[10] == 'Q');
}

BOOST_AUTO_TEST_CASE(zero_size_entries_round_trip) {
    Bytes region = bytes_of({1, 2, 3, 4, 5, 6, 7, 8});
    Bytes b = assemble(region, {{1, "a", 16, 8, 0}, {19, "b", 24, 0, 1}});
    nres::Archive ar = nres::read(b, ReadMode::Strict, "t");
    BOOST_TEST(ar.entries[1].data.empty());
    BOOST_TEST((nres::write(ar) == b));
}

BOOST_AUTO_TEST_CASE(sort_index_kept_as_read_even_if_not_sorted) {
    Bytes b = nres::write_canonical(small_archive());
    size_t dir = b.size() - 192;
    store<uint32_t>(b.data() + dir + 60, 2);
    store<uint32_t>(b.data() + dir + 64 + 60, 1);
    store<uint32_t>(b.data() + dir + 128 + 60, 0);
    DiagnosticSink sink(ReadMode::Strict);
    nres::Archive ar = nres::read(b, sink, "t");
    BOOST_TEST(!sink.has_errors());
    BOOST_TEST(sink.warning_count() == 1u); // differs from the recomputed table
    BOOST_TEST((nres::write(ar) == b));
}

BOOST_AUTO_TEST_CASE(append_and_remove_recompute_the_sort_index) {
    nres::Archive ar = nres::read(nres::write_canonical(small_archive()), ReadMode::Strict, "t");
    nres::Entry e;
    e.set_name("0first");
    e.data = {1, 2, 3};
    ar.append(e);
    nres::Archive again = nres::read(nres::write(ar), ReadMode::Strict, "t");
    BOOST_TEST(again.entries.size() == 4u);
    BOOST_TEST(again.entries[0].sort_index == 3u);
    BOOST_TEST((again.entries[3].data == e.data));
    again.remove(1); // "A"
    nres::Archive third = nres::read(nres::write(again), ReadMode::Strict, "t");
    BOOST_TEST(third.entries.size() == 3u);
    BOOST_TEST(third.entries[1].name() == "c");
    BOOST_TEST(!third.find("A").has_value());
}

BOOST_AUTO_TEST_CASE(find_is_case_insensitive) {
    nres::Archive ar = small_archive();
    BOOST_TEST(*ar.find("a") == 1u);
    BOOST_TEST(*ar.find("C") == 2u);
    BOOST_TEST(!ar.find("d").has_value());
}

BOOST_AUTO_TEST_CASE(nested_image_round_trips_inside_outer_archive) {
    Bytes inner = nres::write_canonical(small_archive());
    nres::Archive outer;
    nres::Entry e;
    e.type = nres::fourcc("MESH");
    e.set_name("Inner.msh");
    e.data = inner;
    outer.entries.push_back(e);
    Bytes b = nres::write_canonical(outer);
    nres::Archive back = nres::read(b, ReadMode::Strict, "outer");
    BOOST_TEST(nres::looks_like_nres(back.entries[0].data));
    nres::Archive nested = nres::read(back.entries[0].data, ReadMode::Strict, "outer:Inner.msh");
    BOOST_TEST(nested.entries.size() == 3u);
    BOOST_TEST((nres::write(back) == b));
}

BOOST_AUTO_TEST_CASE(tolerant_reader_keeps_overlapping_archive_verbatim) {
    Bytes region = bytes_of({1, 2, 3, 4, 5, 6, 7, 8});
    Bytes b = assemble(region, {{1, "a", 16, 8, 0}, {2, "b", 20, 4, 1}});
    BOOST_CHECK_THROW(nres::read(b, ReadMode::Strict, "t"), FormatError);
    nres::Archive ar = nres::read(b, ReadMode::Tolerant, "t");
    BOOST_TEST(ar.verbatim_only);
    BOOST_TEST((nres::write(ar) == b));
    ar.entries[0].data.edit()[0] = 42;
    BOOST_CHECK_THROW(nres::write(ar), FormatError);
}

BOOST_AUTO_TEST_CASE(tolerant_reader_accepts_wrong_total_size) {
    Bytes b = nres::write_canonical(small_archive());
    b.push_back(0x55); // one trailing byte the header does not count
    BOOST_CHECK_THROW(nres::read(b, ReadMode::Strict, "t"), FormatError);
    DiagnosticSink sink(ReadMode::Tolerant);
    nres::Archive ar = nres::read(b, sink, "t");
    BOOST_TEST(ar.entries.size() == 3u);
    BOOST_TEST(sink.warning_count() >= 1u);
    BOOST_TEST((nres::write(ar) == b)); // trailing byte kept
}

// A library lookup reads only the entries it keeps: the same entries, in directory order, with the
// same payloads as a whole read; a damaged directory fails the same way.
BOOST_AUTO_TEST_CASE(read_entries_keeps_what_it_is_asked_for) {
    for (const samples::GeneratedFile& f : test::corpus()) {
        if (!f.relative_path.ends_with(".lib") && !f.relative_path.ends_with(".rlb")) continue;
        const nres::Archive whole = nres::read(f.bytes, ReadMode::Strict, f.relative_path);
        size_t k = 0;
        auto every_third = [&k](const nres::Entry&) { return k++ % 3 == 0; };
        DiagnosticSink sink(ReadMode::Tolerant);
        const nres::Archive some = nres::read_entries(f.bytes, every_third, sink, f.relative_path);
        BOOST_TEST(sink.diagnostics().empty());
        BOOST_TEST_REQUIRE(some.entries.size() == (whole.entries.size() + 2) / 3);
        for (size_t i = 0; i < some.entries.size(); ++i) {
            BOOST_TEST(some.entries[i].name() == whole.entries[3 * i].name());
            BOOST_TEST((some.entries[i].data == whole.entries[3 * i].data));
        }
        Bytes cut = f.bytes;
        cut.resize(cut.size() - 1); // the directory no longer fits where the header says
        DiagnosticSink strict(ReadMode::Strict);
        BOOST_CHECK_THROW(nres::read_entries(
                              cut, [](const nres::Entry&) { return true; }, strict, "cut"),
                          FormatError);
    }
}

// Entries read with a keeper are views into the buffer (no copy), keep it alive after every other
// owner has gone, write back to the same image, and are copied only when edited.
BOOST_AUTO_TEST_CASE(entries_read_with_a_keeper_view_the_buffer_they_keep_alive) {
    for (const samples::GeneratedFile& f : test::corpus()) {
        if (!f.relative_path.ends_with(".lib") && !f.relative_path.ends_with(".rlb")) continue;
        const nres::Archive copied = nres::read(f.bytes, ReadMode::Strict, f.relative_path);
        Payload image = [&] { // a view whose buffer only the payload keeps alive
            const auto shared_bytes = std::make_shared<const Bytes>(f.bytes);
            return Payload(*shared_bytes, shared_bytes);
        }();
        BOOST_TEST_REQUIRE(image.is_view());
        const uint8_t* buffer = image.data();
        nres::Archive viewed = nres::read(image, ReadMode::Strict, f.relative_path, image.keeper());
        image = Payload(); // the archive's entries are now the buffer's only owners
        BOOST_TEST_REQUIRE(viewed.entries.size() == copied.entries.size());
        for (size_t i = 0; i < viewed.entries.size(); ++i) {
            const Payload& d = viewed.entries[i].data;
            BOOST_TEST(d.is_view());
            BOOST_TEST(d.data() == buffer + viewed.entries[i].data_offset); // not a copy
            BOOST_TEST((d == copied.entries[i].data));
        }
        BOOST_TEST((nres::write(viewed) == f.bytes));
        BOOST_TEST_REQUIRE(!viewed.entries.empty());
        nres::Entry changed = viewed.entries[0];
        Bytes& own = changed.data.edit(); // a copy: the shared buffer stays as it was
        BOOST_TEST(!changed.data.is_view());
        BOOST_TEST_REQUIRE(!own.empty());
        own[0] = uint8_t(own[0] ^ 0xFF);
        BOOST_TEST((viewed.entries[0].data == copied.entries[0].data));
        BOOST_TEST(!(changed.data == copied.entries[0].data));
    }
    // Without a keeper the entries are copies.
    const Bytes b = nres::write_canonical(small_archive());
    const nres::Archive ar = nres::read(b, ReadMode::Strict, "t");
    for (const nres::Entry& e : ar.entries) BOOST_TEST(!e.data.is_view());
}

// The pieces writer gives write()'s bytes, with every payload a view of its entry (not a copy),
// for every corpus archive and for an archive only re-emitted verbatim.
BOOST_AUTO_TEST_CASE(pieces_join_to_the_written_image_and_view_the_payloads) {
    auto joined = [](const nres::Pieces& p) {
        Bytes out;
        for (const ByteView piece : p.pieces) out.insert(out.end(), piece.begin(), piece.end());
        return out;
    };
    for (const samples::GeneratedFile& f : test::corpus()) {
        if (!f.relative_path.ends_with(".lib") && !f.relative_path.ends_with(".rlb")) continue;
        const nres::Archive ar = nres::read(f.bytes, ReadMode::Strict, f.relative_path);
        const nres::Pieces p = nres::write_pieces(ar);
        BOOST_TEST((joined(p) == f.bytes));
        BOOST_TEST(p.size() == f.bytes.size());
        size_t viewed = 0;
        for (const ByteView piece : p.pieces)
            for (const nres::Entry& e : ar.entries)
                if (!e.data.empty() && piece.data() == e.data.data()) ++viewed;
        size_t non_empty = 0;
        for (const nres::Entry& e : ar.entries) non_empty += e.data.empty() ? 0 : 1;
        BOOST_TEST(viewed == non_empty);
    }
    const Bytes b =
        assemble(bytes_of({1, 2, 3, 4, 5, 6, 7, 8}), {{1, "a", 16, 8, 0}, {2, "b", 20, 4, 1}});
    const nres::Archive overlapping = nres::read(b, ReadMode::Tolerant, "t");
    const nres::Pieces verbatim = nres::write_pieces(overlapping);
    BOOST_TEST((joined(verbatim) == b));
    BOOST_TEST(verbatim.pieces.front().data() == overlapping.original.data()); // not copied
    nres::Archive changed = overlapping;
    changed.entries[0].data.edit()[0] ^= 0xFF;
    BOOST_CHECK_THROW(nres::write_pieces(changed), FormatError);
}

BOOST_AUTO_TEST_SUITE_END()

// The sort-index fold (nres.md §5): an archive keeps the fold its own order follows when it is
// rewritten or gets a new entry, a new archive uses the lower fold, and the engine's binary search
// finds every entry of what the tool writes.
namespace {

nres::Archive named(std::initializer_list<const char*> names) {
    nres::Archive ar;
    for (const char* n : names) {
        nres::Entry e;
        e.type = nres::fourcc("MESH");
        e.set_name(n);
        e.data.edit().assign(3, uint8_t('x'));
        ar.entries.push_back(e);
    }
    return ar;
}

void expect_all_found(const nres::Archive& ar, nres::NameFold fold) {
    for (size_t i = 0; i < ar.entries.size(); ++i) {
        const auto at = nres::binary_find(ar, ar.entries[i].name(), fold);
        BOOST_TEST((at && *at == i), ar.entries[i].name() << " under " << nres::fold_name(fold));
    }
}

} // namespace

BOOST_AUTO_TEST_CASE(archives_keep_the_fold_their_order_follows) {
    // '_' meets a letter: A_TANK sorts before ABOX under the lower fold, after it under the upper.
    for (const nres::NameFold fold : {nres::NameFold::Lower, nres::NameFold::Upper}) {
        BOOST_TEST_CONTEXT(nres::fold_name(fold)) {
            nres::Archive made = named({"ABOX.msh", "A_TANK.msh", "zed.wea", "[X].msh"});
            made.fold = fold;
            const nres::Archive ar =
                nres::read(nres::write_canonical(made), ReadMode::Strict, "t.rlb");
            BOOST_TEST(nres::evidence_name(ar.fold_evidence) == std::string(nres::fold_name(fold)));
            BOOST_TEST((ar.fold == fold));
            // A new entry keeps that fold, and a binary search under it finds every name.
            nres::Archive grown = ar;
            nres::Entry e;
            e.type = nres::fourcc("MESH");
            e.set_name("A^NEW.msh");
            e.data.edit().assign(2, uint8_t('y'));
            grown.append(e);
            const nres::Archive back = nres::read(nres::write(grown), ReadMode::Strict, "t.rlb");
            BOOST_TEST(nres::evidence_name(back.fold_evidence) ==
                       std::string(nres::fold_name(fold)));
            expect_all_found(back, fold);
            expect_all_found(nres::read(nres::write_canonical(back), ReadMode::Strict, "t.rlb"),
                             fold);
        }
    }
}

// The corpus's static.rlb (A_B.msh before aab.msh: only the lower fold fits) with a new entry and
// rebuilt canonically: still the lower fold, every entry found by the engine's lookup.
BOOST_AUTO_TEST_CASE(a_new_entry_in_static_rlb_keeps_its_fold) {
    const auto& files = test::corpus();
    const auto it = std::find_if(files.begin(), files.end(),
                                 [](const auto& f) { return f.relative_path == "static.rlb"; });
    BOOST_TEST_REQUIRE((it != files.end()));
    nres::Archive ar = nres::read(it->bytes, ReadMode::Strict, "static.rlb");
    BOOST_TEST(nres::evidence_name(ar.fold_evidence) == std::string("lower"));
    for (const char* added : {"A_NEW.msh", "A]NEW.msh", "ab_new.msh"}) {
        nres::Entry e;
        e.type = nres::fourcc("MESH");
        e.set_name(added);
        e.data.edit().assign(8, uint8_t(1));
        ar.append(e);
    }
    for (const Bytes& b : {nres::write(ar), nres::write_canonical(ar)}) {
        const nres::Archive back = nres::read(b, ReadMode::Strict, "static.rlb");
        BOOST_TEST(nres::evidence_name(back.fold_evidence) == std::string("lower"));
        expect_all_found(back, nres::NameFold::Lower);
    }
}

BOOST_AUTO_TEST_CASE(new_archives_use_the_lower_fold_and_neither_order_warns) {
    const nres::Archive ar = nres::read(nres::write_canonical(named({"ABOX.msh", "A_TANK.msh"})),
                                        ReadMode::Strict, "t.rlb");
    BOOST_TEST(nres::evidence_name(ar.fold_evidence) == std::string("lower"));
    expect_all_found(ar, nres::NameFold::Lower);
    // Names no fold tells apart: either.
    const nres::Archive plain =
        nres::read(nres::write_canonical(named({"b", "A", "c"})), ReadMode::Strict, "t.rlb");
    BOOST_TEST(nres::evidence_name(plain.fold_evidence) == std::string("either"));
    // An order no fold follows: a warning, and the lower fold for rewrites.
    nres::Archive bad = named({"b", "A", "c"});
    bad.entries[0].sort_index = 2;
    bad.entries[1].sort_index = 0;
    bad.entries[2].sort_index = 1;
    DiagnosticSink sink(ReadMode::Tolerant);
    const nres::Archive read_bad = nres::read(nres::write(bad), sink, "t.rlb");
    BOOST_TEST(nres::evidence_name(read_bad.fold_evidence) == std::string("neither"));
    BOOST_TEST((read_bad.fold == nres::NameFold::Lower));
    BOOST_TEST(sink.warning_count() >= 1u);
}

} // namespace nres_tests
