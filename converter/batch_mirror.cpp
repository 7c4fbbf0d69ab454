#include "batch_mirror.hpp"

#include "formats/file_io.hpp"
#include "sidecar/json_at.hpp"

#include <nlohmann/json.hpp>

namespace msh::cli {

namespace fs = std::filesystem;
using nlohmann::json;

void write_mirror(const fs::path& out, const std::vector<MirrorRecord>& records,
                  const std::vector<Result>& results) {
    json files = json::array();
    for (const MirrorRecord& r : records) {
        if (r.result < results.size() && results[r.result].status != Status::Converted) continue;
        json f = {{"path", r.path}, {"kind", r.kind}};
        if (!r.output.empty()) f["output"] = r.output;
        if (!r.sidecar.empty()) f["sidecar"] = r.sidecar;
        files.push_back(std::move(f));
    }
    const std::string text = json{{"schema", kMirrorSchema}, {"files", files}}.dump(
                                 1, ' ', false, json::error_handler_t::replace) +
                             "\n";
    write_file_atomic(out / kMirrorFile, Bytes(text.begin(), text.end()));
}

std::optional<std::vector<MirrorRecord>> read_mirror(const fs::path& in) {
    const fs::path file = in / kMirrorFile;
    std::error_code ec;
    if (!fs::is_regular_file(file, ec)) return std::nullopt;
    const std::string where = file.string();
    const json doc = sidecar::parse_json(read_file(file), where);
    const sidecar::JsonAt at(doc, "", where);
    if (!doc.is_object() || !doc.contains("schema") || doc["schema"] != kMirrorSchema)
        at.fail(std::string("not a ") + kMirrorSchema + " manifest");
    std::vector<MirrorRecord> records;
    const sidecar::JsonAt files = at["files"];
    for (size_t i = 0; i < files.size(); ++i) {
        const sidecar::JsonAt f = files[i];
        MirrorRecord r;
        r.path = f["path"].as<std::string>();
        r.kind = f["kind"].as<std::string>();
        if (f.has("output")) r.output = f["output"].as<std::string>();
        if (f.has("sidecar")) r.sidecar = f["sidecar"].as<std::string>();
        if (r.kind != "map_part" && r.output.empty()) f["output"].fail("missing");
        records.push_back(std::move(r));
    }
    return records;
}

} // namespace msh::cli
