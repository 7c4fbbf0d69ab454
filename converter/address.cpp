#include "address.hpp"

#include "formats/file_io.hpp"
#include "formats/nres.hpp"

#include "convert.hpp"

namespace msh::cli {

namespace fs = std::filesystem;

std::string Address::display() const {
    std::string s = file.string();
    for (const std::string& e : entries) s += ":" + e;
    return s;
}

Address parse_address(const std::string& spec) {
    Address a;
    std::error_code ec;
    if (fs::is_regular_file(spec, ec)) {
        a.file = spec;
        return a;
    }
    size_t cut = std::string::npos;
    for (size_t p = spec.find(':'); p != std::string::npos; p = spec.find(':', p + 1))
        if (fs::is_regular_file(spec.substr(0, p), ec)) cut = p;
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

Loaded load(const Address& address) {
    Loaded out{address, read_file(address.file)};
    std::string where = address.file.string();
    for (const std::string& name : address.entries) {
        nres::Archive ar = nres::read(out.bytes, ReadMode::Tolerant, where);
        auto i = ar.find(name);
        if (!i) throw FormatError(where, 0, "no entry named '" + name + "'");
        out.bytes = std::move(ar.entries[*i].data);
        where += ":" + name;
    }
    return out;
}

void store(const Address& address, ByteView bytes) {
    if (address.entries.empty()) {
        write_file_atomic(address.file, bytes);
        return;
    }
    // Descend, keeping every archive on the way, then replace and re-emit bottom-up.
    std::vector<nres::Archive> chain;
    std::vector<size_t> index;
    Bytes current = read_file(address.file);
    std::string where = address.file.string();
    for (const std::string& name : address.entries) {
        chain.push_back(nres::read(current, ReadMode::Strict, where));
        auto i = chain.back().find(name);
        if (!i) throw FormatError(where, 0, "no entry named '" + name + "' to replace");
        index.push_back(*i);
        current = chain.back().entries[*i].data;
        where += ":" + name;
    }
    Bytes payload(bytes.begin(), bytes.end());
    for (size_t level = chain.size(); level-- > 0;) {
        chain[level].entries[index[level]].data = std::move(payload);
        payload = nres::write(chain[level]);
    }
    write_file_atomic(address.file, payload);
}

std::optional<Sibling> find_sibling_in(const nres::Archive& archive, const Address& archive_address,
                                       const std::string& leaf) {
    const auto i = archive.find(leaf);
    if (!i) return std::nullopt;
    Address a = archive_address;
    a.entries.push_back(archive.entries[*i].name());
    return Sibling{a.display(), archive.entries[*i].data};
}

std::optional<Sibling> find_sibling(const Address& address, const std::string& leaf) {
    if (!address.entries.empty()) {
        Address parent = address;
        parent.entries.pop_back();
        const Loaded archive = load(parent);
        return find_sibling_in(nres::read(archive.bytes, ReadMode::Tolerant, parent.display()),
                               parent, leaf);
    }
    const fs::path dir =
        address.file.parent_path().empty() ? fs::path(".") : address.file.parent_path();
    const std::string wanted = lower_ascii(leaf);
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec))
        if (e.is_regular_file() && lower_ascii(e.path().filename().string()) == wanted)
            return Sibling{e.path().string(), read_file(e.path())};
    return std::nullopt;
}

Kind classify(ByteView bytes) {
    if (!nres::looks_like_nres(bytes)) return Kind::Other;
    try {
        nres::Archive ar = nres::read(bytes, ReadMode::Tolerant, "");
        // Terrain (Land.msh) shares types 1..5 but has face records (type 21): not a model.
        if (ar.find_type(1) && ar.find_type(2) && ar.find_type(3) && !ar.find_type(21))
            return Kind::Model;
    } catch (const FormatError&) {
        return Kind::Other;
    }
    return Kind::Archive;
}

} // namespace msh::cli
