#include "batch_mirror.hpp"

#include "sidecar/json_at.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace msh::conversion {

namespace fs = std::filesystem;
using nlohmann::json;

void write_mirror(mshconv::Io& io, const fs::path& out, const std::vector<MirrorRecord>& records,
                  const std::vector<Result>& results, const Shard& shard) {
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
    const std::string name = shard.whole() ? std::string(kMirrorFile)
                                           : "_batch." + std::to_string(shard.index) + "-of-" +
                                                 std::to_string(shard.count) + ".json";
    write_files(
        io, {{out / name, ByteView(reinterpret_cast<const uint8_t*>(text.data()), text.size())}});
}

namespace {

void read_one(mshconv::Io& io, const fs::path& file, std::vector<MirrorRecord>& records) {
    const std::string where = file.string();
    sidecar::ParsedJson doc;
    doc.parse(io.read(file).bytes, where);
    const sidecar::JsonAt at(doc.root(), "", where);
    if (!at.is_object() || !at.has("schema") || !at["schema"].is_text(kMirrorSchema))
        at.fail(std::string("not a ") + kMirrorSchema + " manifest");
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
}

} // namespace

std::optional<std::vector<MirrorRecord>> read_mirror(mshconv::Io& io, const fs::path& in) {
    std::vector<fs::path> files;
    for (const std::string& name : io.list(in)) {
        if (name == kMirrorFile ||
            (name.rfind("_batch.", 0) == 0 && name.find("-of-") != std::string::npos &&
             name.size() > 5 && name.substr(name.size() - 5) == ".json"))
            files.push_back(in / name);
    }
    if (files.empty()) return std::nullopt;
    std::sort(files.begin(), files.end());
    std::vector<MirrorRecord> records;
    for (const fs::path& f : files) read_one(io, f, records);
    return records;
}

} // namespace msh::conversion
