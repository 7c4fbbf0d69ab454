// Sidecar files as a person edits them in the tests: read and written as JSON, and a raw block
// changed with its size and hash written as an editor must.
#pragma once

#include "formats/file_io.hpp"
#include "sidecar/base64.hpp"
#include "sidecar/json_at.hpp"
#include "sidecar/model_sidecar.hpp"
#include "sidecar/payload_hash.hpp"
#include "sidecar/terrain_sidecar_read.hpp"
#include "sidecar/texture_sidecar.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

namespace msh::test {

inline nlohmann::json read_json(const std::filesystem::path& p) {
    const Bytes b = read_file(p);
    return nlohmann::json::parse(b.begin(), b.end());
}

inline void write_json(const std::filesystem::path& p, const nlohmann::json& doc) {
    const std::string text = doc.dump(1);
    write_file_atomic(p, Bytes(text.begin(), text.end()));
}

// A model sidecar's document, as a person editing its text sees it.
inline nlohmann::json sidecar_json(const sidecar::ModelSidecar& s) {
    return nlohmann::json::parse(sidecar::model_sidecar_text(s));
}

// A block of the sidecar with one byte changed, its size and hash written as an editor must.
inline void edit_block(nlohmann::json& block, size_t at, uint8_t value) {
    Bytes bytes = sidecar::from_base64(block["base64"].get<std::string>());
    BOOST_REQUIRE(at < bytes.size());
    bytes[at] = value;
    block["base64"] = sidecar::to_base64(bytes);
    block["size"] = bytes.size();
    block["xxh3_64"] = sidecar::hex64(sidecar::payload_hash(bytes));
}

// A sidecar document a test built or edited, read as the file of its text would be.
inline Bytes text_of(const nlohmann::json& doc) {
    const std::string text = doc.dump(1);
    return Bytes(text.begin(), text.end());
}
inline sidecar::TextureSidecar read_texture_doc(const nlohmann::json& doc,
                                                const std::string& where) {
    return sidecar::read_texture_sidecar(text_of(doc), where);
}
inline sidecar::ModelSidecar read_model_doc(const nlohmann::json& doc, const std::string& where) {
    return sidecar::read_model_sidecar(text_of(doc), where);
}
// Whatever its "kind" says (read_terrain_sidecar leaves another kind to its reader).
inline sidecar::TerrainSidecar read_terrain_text(ByteView text, const std::string& where) {
    sidecar::ParsedJson parsed;
    parsed.parse(text, where);
    return sidecar::parse_terrain_sidecar(sidecar::JsonAt(parsed.root(), "", where));
}
inline sidecar::TerrainSidecar read_terrain_doc(const nlohmann::json& doc,
                                                const std::string& where) {
    return read_terrain_text(text_of(doc), where);
}

} // namespace msh::test
