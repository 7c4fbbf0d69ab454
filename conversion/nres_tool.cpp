// The archive tools behind include/mshconv/nres.hpp: list, extract into a folder with
// `_nres.json` (nres_manifest.hpp), and pack such a folder back byte for byte, through an Io.
#include "address.hpp"
#include "job.hpp"
#include "nres_manifest.hpp"
#include "summary.hpp"

#include <mshconv/nres.hpp>

#include "formats/diagnostics.hpp"
#include "formats/nres.hpp"

#include <nlohmann/json.hpp>

namespace msh::conversion {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::vector<mshconv::NresEntry> list_of(Io& io, const std::string& input) {
    const Loaded in = load(io, parse_address(io, input));
    const nres::Archive ar =
        nres::read(in.bytes, ReadMode::Tolerant, in.address.display(), in.bytes.keeper());
    std::vector<mshconv::NresEntry> rows;
    for (const nres::Entry& e : ar.entries)
        rows.push_back({e.display_name(), type_label(e.type), e.type, e.data.size(), e.data_offset,
                        e.attr1, e.attr2, e.attr3, e.sort_index});
    return rows;
}

size_t extract(Io& io, const std::string& input, const fs::path& dir) {
    if (io.is_file(dir))
        throw UsageError("nres extract: -o " + dir.string() +
                         " is a file; extract into a folder (new, or one of its own)");
    const Loaded in = load(io, parse_address(io, input));
    DiagnosticSink sink(ReadMode::Tolerant);
    const nres::Archive ar = nres::read(in.bytes, sink, in.address.display(), in.bytes.keeper());
    if (ar.verbatim_only) {
        // The first entry at fault, where its directory row says so.
        for (const Diagnostic& d : sink.diagnostics())
            if (d.severity == Severity::Error)
                throw FormatError(d.resource, d.offset,
                                  d.message + "; the archive can be copied but not unpacked");
        throw FormatError(in.address.display(), Location::whole(),
                          "payloads overlap or lie outside the data region; the archive can be "
                          "copied but not unpacked");
    }
    // One set: every payload and the manifest appear, or none (a full disk leaves nothing), and
    // no file of it may be the archive being read.
    std::vector<PathBytes> files;
    auto add = [&](const fs::path& target, ByteView bytes) {
        if (io.same_file(target, in.address.file))
            throw UsageError("nres extract: " + target.string() +
                             " is the input archive; extract into another folder");
        files.push_back({target, bytes});
    };
    manifest::FileNames names;
    std::vector<json> payloads;
    for (size_t i = 0; i < ar.entries.size(); ++i) {
        const nres::Entry& e = ar.entries[i];
        const std::string file = names.claim_for_entry(e.name(), i);
        add(dir / file, e.data);
        payloads.push_back({{"file", file}});
    }
    // Written last: a folder with a manifest is complete.
    const std::string text = manifest::make(ar, in.address.display(), payloads)
                                 .dump(1, ' ', false, json::error_handler_t::replace);
    add(dir / manifest::kFileName,
        ByteView(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
    write_files(io, files);
    return ar.entries.size();
}

mshconv::NresPacked pack(Io& io, const fs::path& dir, const fs::path& out) {
    // The output must not be one of the pack's inputs: the manifest or a payload it names.
    auto refuse_input = [&](const fs::path& input) {
        if (io.same_file(out, input))
            throw UsageError("nres pack: -o " + out.string() + " is an input of the pack (" +
                             input.string() + "); write the archive elsewhere");
    };
    refuse_input(dir / manifest::kFileName);
    const manifest::Manifest m(dir, io);
    nres::Archive ar = manifest::parse(m);
    for (size_t i = 0; i < ar.entries.size(); ++i) {
        const sidecar::JsonAt entry = m.entry(i);
        if (entry.has("converted"))
            entry.fail("converted by `mshconv batch`; rebuild the archive with "
                       "`mshconv batch DIR --to nres -o OUT`");
        // The manifest names files inside its folder only.
        const fs::path file = manifest::entry_file(entry["file"], dir, &io);
        refuse_input(file);
        try {
            ar.entries[i].data = read_bytes(io, file);
        } catch (const FormatError&) {
            throw;
        } catch (const std::exception& e) {
            entry["file"].fail(e.what());
        }
    }
    const Bytes bytes = nres::write(ar);
    write_files(io, {{out, bytes}});
    return {ar.entries.size(), bytes.size()};
}

} // namespace

} // namespace msh::conversion

std::vector<mshconv::NresEntry> mshconv::nres_list(const std::string& input, Io& io) {
    return msh::conversion::locating_errors(io, {input},
                                            [&] { return msh::conversion::list_of(io, input); });
}

std::size_t mshconv::nres_extract(const std::string& input, const Path& folder, Io& io) {
    return msh::conversion::locating_errors(
        io, {input}, [&] { return msh::conversion::extract(io, input, folder); });
}

mshconv::NresPacked mshconv::nres_pack(const Path& folder, const Path& output, Io& io) {
    return msh::conversion::locating_errors(
        io, {}, [&] { return msh::conversion::pack(io, folder, output); });
}
