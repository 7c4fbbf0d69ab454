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

// The archive the manifest describes, with empty payloads (the caller fills `data` of every
// entry from the entry's "file" or "converted" object). Throws FormatError naming `where` and
// the field's JSON pointer on a manifest that is not mshconv-nres/1 or is inconsistent.
nres::Archive parse(const nlohmann::json& manifest, const std::string& where);

// The file that member `key` of entry `entry` names (`key` a JSON pointer below the entry, e.g.
// "file" or "converted/png"), confined to `folder` (no absolute path, `..` or symlink leaving it).
// FormatError naming `where` and the member's JSON pointer otherwise.
std::filesystem::path entry_file(const nlohmann::json& manifest, size_t entry,
                                 const std::string& key, const std::filesystem::path& folder,
                                 const std::string& where, mshconv::Io* io = nullptr);

// Reads and parses `dir`/_nres.json through `io` (throws with the path on a missing or non-JSON
// file).
nlohmann::json load(const std::filesystem::path& dir, mshconv::Io& io = mshconv::disk());

} // namespace msh::conversion::manifest
