// The `_nres.json` manifest of an unpacked archive (`nres extract`, `batch`): everything of the
// archive except the payloads — raw names, types, attributes, sort indices, physical layout,
// gaps, trailing bytes — so that the archive is rebuilt byte for byte from the folder
// (`nres pack`, `batch --to nres`). Schema "mshconv-nres/1":
//   {"schema", "source", "entries": [{"file"|"converted", "name", "raw_name", "type", "attr1",
//    "attr2", "attr3", "sort_index"}], "layout": [{"payload", "offset"} | {"pad"} | {"gap"}],
//    "trailing"}
// An entry's payload is the raw file "file", or (written by batch) "converted": {"kind":
// "texture", "png", "sidecar"} | {"kind": "model", "file", "sidecar"} | {"kind": "archive",
// "folder"} — a PNG, a glTF/GLB/OBJ or a nested unpacked archive to convert back.
#pragma once

#include "formats/cp1251.hpp"

#include "formats/nres.hpp"

#include "sidecar/json_at.hpp"

#include <mshconv/io.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <set>
#include <string>
#include <vector>

namespace msh::conversion::manifest {

constexpr const char* kFileName = "_nres.json";
constexpr const char* kSchema = "mshconv-nres/1";

// File names for the entries of one folder: the entry name (CP1251 -> UTF-8) with path
// separators and control bytes replaced by '_', unique case-insensitively (entries may share a
// name: `NAME~1`). The manifest's own name is never handed out.
class FileNames {
  public:
    FileNames();
    // A free name based on `wanted` (index names the entry when `wanted` is unusable), claimed.
    std::string claim_for_entry(const std::string& entry_name, size_t index);
    // `stem` + each of `suffixes` all free? Then claims them and returns true.
    bool claim_all(const std::string& stem, const std::vector<std::string>& suffixes);
    // The first of `stem`, `stem~1`, `stem~2`, ... for which every suffix is free, claimed.
    std::string claim_stem(const std::string& stem, const std::vector<std::string>& suffixes);

  private:
    std::set<std::string> taken_; // lower-case
};

// The manifest of `archive`; entries[i] gets the fields of `payloads[i]` ({"file": ...} or
// {"converted": ...}) besides its directory facts.
nlohmann::json make(const nres::Archive& archive, const std::string& source,
                    const std::vector<nlohmann::json>& payloads);

// A manifest as read back (RapidJSON, in place), named by its path in every error.
class Manifest {
  public:
    // `dir`/_nres.json read through `io`: throws with the path on a missing or non-JSON file.
    Manifest(const std::filesystem::path& dir, mshconv::Io& io);
    // The manifest text `text`, named `where` in errors.
    Manifest(ByteView text, std::string where);
    Manifest(const Manifest&) = delete;
    Manifest& operator=(const Manifest&) = delete;

    sidecar::JsonAt root() const { return sidecar::JsonAt(parsed_.root(), "", where_); }
    // Entry `index`'s object (parse() checked that it is there).
    sidecar::JsonAt entry(size_t index) const { return root()["entries"][index]; }

  private:
    std::string where_;
    sidecar::ParsedJson parsed_;
};

// The archive the manifest describes, with empty payloads (the caller fills `data` of every
// entry from the entry's "file" or "converted" object, which parse() checked: one of them, a
// string or an object with a string "kind"). Throws FormatError naming the manifest and the
// field's JSON pointer on a manifest that is not mshconv-nres/1 or is inconsistent.
nres::Archive parse(const Manifest& manifest);

// How entry `entry` is stored: "raw" (a "file") or its "converted" kind ("texture", "model",
// "map", "archive").
std::string entry_kind(const sidecar::JsonAt& entry);

// The file a member of an entry names (e.g. `entry["converted"]["png"]`), confined to `folder`
// (no absolute path, `..` or symlink leaving it). FormatError at the member's JSON pointer
// otherwise.
std::filesystem::path entry_file(const sidecar::JsonAt& name, const std::filesystem::path& folder,
                                 mshconv::Io* io = nullptr);

} // namespace msh::conversion::manifest
