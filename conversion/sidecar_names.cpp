// Which sidecar a `convert` writes and reads. A model or map exported to .glb and to .obj under one
// stem must not share one sidecar file: the second export of another format writes
// `<stem>.<format>.sidecar.json` when `<stem>.sidecar.json` records the other format, and an
// import prefers `<stem>.<format>.sidecar.json` when it is there. A renamed export finds its
// sidecar through its own record: the name its glTF extras give, or the pairing token it carries
// (docs/import.md, "Which sidecar an import reads").
#include "convert.hpp"

#include "formats/file_io.hpp"
#include "formats/gltf.hpp"
#include "formats/obj.hpp"
#include "sidecar/json_at.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace msh::conversion {

namespace fs = std::filesystem;

namespace {

std::string format_of(const fs::path& file) {
    std::string ext = lower_ascii(file.extension().string());
    return ext.empty() ? ext : ext.substr(1);
}

fs::path with_format(const fs::path& file) {
    return file.parent_path() / (file.stem().string() + "." + format_of(file) + ".sidecar.json");
}

// A string member of a sidecar's `export` record ("" when it cannot be read: then the sidecar is
// not ours to keep or to pair with).
std::string export_field(Io& io, const fs::path& sidecar, const char* field) {
    try {
        const Payload file = read_payload(io, sidecar);
        sidecar::ParsedJson parsed;
        if (!parsed.try_parse(file)) return "";
        const sidecar::JsonAt doc(parsed.root(), "", sidecar.string());
        if (doc.has("export") && doc["export"].has(field) && doc["export"][field].is_string())
            return doc["export"][field].as<std::string>();
    } catch (const std::exception&) {
    }
    return "";
}

std::string recorded_format(Io& io, const fs::path& sidecar) {
    return export_field(io, sidecar, "format");
}

ExportRecord record_of(Io& io, const fs::path& file) {
    ExportRecord record;
    const std::string ext = format_of(file);
    if (ext != "obj" && ext != "gltf" && ext != "glb") return record; // no record to read
    try {
        const Payload bytes = read_payload(io, file);
        if (ext == "obj") {
            record.pair = obj::pairing_comment(
                std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
            return record;
        }
        const nlohmann::json doc =
            nlohmann::json::parse(gltf::json_text(bytes, ext == "glb").value_or(""));
        const size_t scene = doc.value("scene", size_t(0));
        const nlohmann::json& ours = doc.at("scenes").at(scene).at("extras").at("mshconv");
        auto text = [&](const char* key) {
            return ours.contains(key) && ours[key].is_string() ? ours[key].get<std::string>()
                                                               : std::string();
        };
        record.sidecar = text("sidecar");
        record.kind = text("kind");
        record.source = text("source");
        record.pair = text("pair");
    } catch (const std::exception&) {
        // No record (another tool's file, or extras dropped): nothing to find the sidecar by.
    }
    return record;
}

} // namespace

fs::path export_sidecar_path(const Job& job, const fs::path& out) {
    if (!job.options.sidecar.empty()) return job.options.sidecar;
    const fs::path shared = out.parent_path() / default_sidecar_name(out.filename().string());
    if (job.io.is_file(shared)) {
        const std::string other = recorded_format(job.io, shared);
        if (!other.empty() && other != format_of(out)) return with_format(out);
    }
    return shared;
}

const char* to_string(SidecarFound how) {
    switch (how) {
    case SidecarFound::Named:
        return "named by --sidecar";
    case SidecarFound::Beside:
        return "beside it";
    case SidecarFound::ByExtras:
        return "named by its glTF extras";
    case SidecarFound::ByPairingToken:
        return "found by its pairing token";
    }
    return "";
}

ImportSidecar find_import_sidecar(const Job& job, const fs::path& in) {
    ImportSidecar found;
    if (!job.options.sidecar.empty()) {
        found.path = job.options.sidecar;
        found.found = job.io.is_file(found.path);
        found.how = SidecarFound::Named;
        return found;
    }
    const fs::path beside = in.parent_path() / (in.stem().string() + ".sidecar.json");
    for (const fs::path& p : {with_format(in), beside})
        if (job.io.is_file(p)) return {p, true, SidecarFound::Beside, {}};
    // A renamed export: the file's own record leads to its sidecar.
    found.path = beside;
    found.record = record_of(job.io, in);
    const ExportRecord& record = found.record;
    auto pairs = [&](const fs::path& p) {
        return record.pair.empty() || export_field(job.io, p, "pair") == record.pair;
    };
    if (is_plain_file_name(record.sidecar)) {
        const fs::path named = in.parent_path() / record.sidecar;
        if (job.io.is_file(named) && pairs(named))
            return {named, true, SidecarFound::ByExtras, record};
    }
    if (record.pair.empty() || !on_disk(&job.io)) return found;
    std::vector<fs::path> candidates;
    std::error_code ec;
    const fs::path folder = in.parent_path().empty() ? fs::path(".") : in.parent_path();
    for (const fs::directory_entry& e : fs::directory_iterator(folder, ec)) {
        const std::string name = e.path().filename().string();
        if (name.size() > 13 && lower_ascii(name).ends_with(".sidecar.json") &&
            e.is_regular_file(ec))
            candidates.push_back(in.parent_path() / name);
    }
    std::sort(candidates.begin(), candidates.end()); // the same answer on every system
    // One of the file's own format first (two formats' exports with one token may share one).
    std::optional<fs::path> other_format;
    for (const fs::path& p : candidates)
        if (export_field(job.io, p, "pair") == record.pair) {
            if (recorded_format(job.io, p) == format_of(in))
                return {p, true, SidecarFound::ByPairingToken, record};
            if (!other_format) other_format = p;
        }
    if (other_format) return {*other_format, true, SidecarFound::ByPairingToken, record};
    return found;
}

std::string sidecar_search_text(const fs::path& in, const ImportSidecar& found) {
    std::string text =
        "looked for " + with_format(in).filename().string() + ", " + found.path.filename().string();
    if (is_plain_file_name(found.record.sidecar))
        text += ", " + found.record.sidecar + " named by its glTF extras";
    text += found.record.pair.empty()
                ? std::string(" (the file carries no pairing token)")
                : ", and any *.sidecar.json with its pairing token " + found.record.pair;
    const std::string folder = in.parent_path().string();
    return text + (folder.empty() ? " in the current folder" : " in " + folder);
}

} // namespace msh::conversion
