#include "address.hpp"

#include "game_files.hpp"

#include "formats/cp1251.hpp"
#include "formats/nres.hpp"

#include "job.hpp"

#include "outputs.hpp"

#include <algorithm>

namespace msh::conversion {

namespace fs = std::filesystem;

std::string Address::display() const {
    std::string s = file.string();
    for (const std::string& e : entries) s += ":" + e;
    return s;
}

std::string Address::recorded() const {
    std::string s = recorded_path(file);
    for (const std::string& e : entries) s += ":" + e;
    return s;
}

std::string recorded_path(const fs::path& path) {
    return path.generic_string();
}

std::string Address::portable() const {
    std::string s = file.filename().string();
    for (const std::string& e : entries) s += ":" + e;
    return s;
}

void locate_error(FormatError& error, Io& io, std::initializer_list<std::string_view> specs) {
    for (std::string_view spec : specs) {
        if (spec.empty()) continue;
        const Address a = parse_address(io, std::string(spec));
        error.locate(a.file.string(), a.entries);
        if (!error.place().file.empty()) return;
    }
    const std::string& resource = error.resource();
    const std::string file = resource.substr(0, resource.find(": "));
    if (!file.empty() && io.is_file(file)) error.locate(file, {});
}

Address parse_address(Io& io, const std::string& spec) {
    Address a;
    if (io.is_file(spec)) {
        a.file = spec;
        return a;
    }
    size_t cut = std::string::npos;
    for (size_t p = spec.find(':'); p != std::string::npos; p = spec.find(':', p + 1))
        if (io.is_file(spec.substr(0, p))) cut = p;
    if (cut == std::string::npos) {
        a.file = spec;
        return a;
    }
    a.file = spec.substr(0, cut);
    std::string rest = spec.substr(cut + 1);
    size_t start = 0;
    for (size_t p = rest.find(':');; p = rest.find(':', start)) {
        a.entries.push_back(rest.substr(start, p - start));
        if (p == std::string::npos) break;
        start = p + 1;
    }
    return a;
}

namespace {

// "no entry named X" plus the closest names (case-insensitive edit distance), so a typo is
// one look away; an archive with no close name lists how many entries it has.
std::string missing_entry(const nres::Archive& ar, const std::string& name, const char* what) {
    const std::string wanted = lower_ascii(name);
    std::vector<std::pair<size_t, std::string>> closest;
    const bool without_extension = fs::path(wanted).extension().empty();
    for (const nres::Entry& e : ar.entries) {
        const std::string candidate = lower_ascii(e.display_name());
        size_t d = edit_distance(wanted, candidate);
        // `House_01` for `House_01.msh`: the name without its extension counts as close.
        if (without_extension)
            d = std::min(d, edit_distance(wanted, fs::path(candidate).stem().string()));
        if (d <= std::max<size_t>(2, wanted.size() / 3)) closest.emplace_back(d, e.display_name());
    }
    std::stable_sort(closest.begin(), closest.end(),
                     [](const auto& x, const auto& y) { return x.first < y.first; });
    std::string text = "no entry named '" + name + "'" + what;
    if (closest.empty())
        return text + " (the archive has " + std::to_string(ar.entries.size()) +
               " entries; `mshconv nres list` shows them)";
    text += "; closest:";
    for (size_t k = 0; k < closest.size() && k < 3; ++k)
        text += (k ? ", " : " ") + closest[k].second;
    return text;
}

// The entry Archive::find(name) gives, reading only its payload (a model and its WEAR out of a
// megabyte archive); nullopt when there is none.
std::optional<nres::Entry> entry_named(const Payload& archive, const std::string& name,
                                       const std::string& where) {
    const std::optional<std::string> raw = utf8_to_cp1251(name); // find() also tries CP1251
    DiagnosticSink sink(ReadMode::Tolerant);
    nres::Archive named = nres::read_entries(
        archive,
        [&](const nres::Entry& e) {
            return nres::compare_names(e.name(), name) == 0 ||
                   (raw && nres::compare_names(e.name(), *raw) == 0);
        },
        sink, where, archive.keeper());
    const auto i = named.find(name);
    if (!i) return std::nullopt;
    return std::move(named.entries[*i]);
}

} // namespace

Loaded load(Io& io, const Address& address) {
    Loaded out{address, read_payload(io, address.file)};
    std::string where = address.file.string();
    for (const std::string& name : address.entries) {
        std::optional<nres::Entry> e = entry_named(out.bytes, name, where);
        if (!e)
            throw FormatError(
                where, Location::whole(),
                missing_entry(nres::read(out.bytes, ReadMode::Tolerant, where), name, ""));
        out.bytes = std::move(e->data); // a view into the same mapping
        where += ":" + name;
    }
    return out;
}

namespace {

// The file image of the archive `address` names (a file, or nested entries), with `edit` applied
// to its innermost archive; the archives around it are rewritten losslessly.
template <class Edit> Bytes edited_archive(Io& io, const Address& address, Edit&& edit) {
    std::vector<nres::Archive> chain;
    std::vector<size_t> index;
    const Payload current = read_payload(io, address.file);
    std::string where = address.file.string();
    chain.push_back(nres::read(current, ReadMode::Strict, where));
    for (const std::string& name : address.entries) {
        auto i = chain.back().find(name);
        if (!i) throw FormatError(where, Location::whole(), missing_entry(chain.back(), name, ""));
        index.push_back(*i);
        where += ":" + name;
        chain.push_back(nres::read(chain.back().entries[*i].data, ReadMode::Strict, where));
    }
    edit(chain.back(), where);
    Bytes payload = nres::write(chain.back());
    for (size_t level = index.size(); level-- > 0;) {
        chain[level].entries[index[level]].data = std::move(payload);
        payload = nres::write(chain[level]);
    }
    return payload;
}

} // namespace

void store(Io& io, const Address& address, ByteView bytes) {
    if (address.entries.empty()) {
        write_files(io, {{address.file, bytes}});
        return;
    }
    Address archive = address;
    const std::string leaf = archive.entries.back();
    archive.entries.pop_back();
    const Bytes image =
        edited_archive(io, archive, [&](nres::Archive& ar, const std::string& where) {
            const auto i = ar.find(leaf);
            if (!i)
                throw FormatError(where, Location::whole(), missing_entry(ar, leaf, " to replace"));
            ar.entries[*i].data.edit().assign(bytes.begin(), bytes.end());
        });
    write_files(io, {{address.file, image}});
}

Bytes archive_with_entries(Io& io, const Address& archive, std::vector<nres::Entry> entries) {
    return edited_archive(io, archive, [&](nres::Archive& ar, const std::string&) {
        for (nres::Entry& e : entries) {
            if (const auto i = ar.find(e.name()))
                ar.entries[*i].data = std::move(e.data);
            else
                ar.append(std::move(e));
        }
    });
}

nres::Archive innermost_archive(Io& io, const Address& address) {
    const Loaded l = load(io, address);
    return nres::read(l.bytes, ReadMode::Strict, address.display(), l.bytes.keeper());
}

nres::Entry new_member(const nres::Archive& archive, const std::string& name, Bytes data,
                       const std::string& extension) {
    nres::Entry out;
    bool like = false;
    for (const nres::Entry& e : archive.entries)
        if (lower_ascii(fs::path(e.name()).extension().string()) == extension) {
            out = e;
            like = true;
            break;
        }
    if (!like) {
        out.type = nres::fourcc(extension == ".wea" ? "WEAR" : "MESH");
        out.attr3 = extension == ".wea" ? 1 : 0;
    }
    out.set_name(utf8_to_cp1251(name).value_or(name));
    out.data = std::move(data);
    return out;
}

std::optional<Sibling> find_sibling_in(const nres::Archive& archive, const Address& archive_address,
                                       const std::string& leaf) {
    const auto i = archive.find(leaf);
    if (!i) return std::nullopt;
    Address a = archive_address;
    a.entries.push_back(archive.entries[*i].display_name());
    return Sibling{a.display(), archive.entries[*i].data};
}

std::optional<Sibling> find_sibling(Io& io, const Address& address, const std::string& leaf) {
    if (!address.entries.empty()) {
        Address parent = address;
        parent.entries.pop_back();
        std::optional<nres::Entry> e = entry_named(load(io, parent).bytes, leaf, parent.display());
        if (!e) return std::nullopt;
        parent.entries.push_back(e->display_name());
        return Sibling{parent.display(), std::move(e->data)};
    }
    if (const auto p = find_file_ci(address.file.parent_path(), leaf, io))
        return Sibling{p->string(), load(io, Address{*p, {}}).bytes};
    return std::nullopt;
}

} // namespace msh::conversion

mshconv::Path mshconv::address_file(const std::string& address, Io& io) {
    return msh::conversion::parse_address(io, address).file;
}
