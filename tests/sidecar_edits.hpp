// Sidecar files as a person edits them in the tests: read and written as JSON, and a raw block
// changed with its size and hash written as an editor must.
#pragma once

#include "formats/file_io.hpp"
#include "sidecar/base64.hpp"
#include "sidecar/model_sidecar.hpp"
#include "sidecar/payload_hash.hpp"

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

} // namespace msh::test
