// Which sidecar a `convert` writes and reads. A model or map exported to .glb and to .obj under one
// stem must not share one sidecar file (issue 13): the second export of another format writes
// `<stem>.<format>.sidecar.json` when `<stem>.sidecar.json` records the other format, and an
// import prefers `<stem>.<format>.sidecar.json` when it is there.
#include "convert.hpp"

#include "sidecar/json_scan.hpp"

#include <nlohmann/json.hpp>

namespace msh::jobs {

using pipeline::lower_ascii;

namespace fs = std::filesystem;

namespace {

// The `export.format` a sidecar records ("" when it cannot be read: then it is not ours to keep).
std::string recorded_format(Io& io, const fs::path& sidecar) {
    try {
        const mshconv::FileBytes file = io.read(sidecar);
        const std::string_view text(reinterpret_cast<const char*>(file.bytes.data()),
                                    file.bytes.size());
        // Only the `export` member is read: a big sidecar is not scanned past it.
        if (const auto record_text = sidecar::json_scan::find_member(text, "export")) {
            const nlohmann::json record = nlohmann::json::parse(*record_text);
            if (record.is_object() && record.contains("format") && record["format"].is_string())
                return record["format"].get<std::string>();
        }
    } catch (const std::exception&) {
    }
    return "";
}

std::string format_of(const fs::path& file) {
    std::string ext = lower_ascii(file.extension().string());
    return ext.empty() ? ext : ext.substr(1);
}

fs::path with_format(const fs::path& file) {
    return file.parent_path() / (file.stem().string() + "." + format_of(file) + ".sidecar.json");
}

} // namespace

fs::path export_sidecar_path(const Job& job, const fs::path& out) {
    if (!job.options.sidecar.empty()) return job.options.sidecar;
    const fs::path shared =
        out.parent_path() / pipeline::default_sidecar_name(out.filename().string());
    if (job.io.is_file(shared)) {
        const std::string other = recorded_format(job.io, shared);
        if (!other.empty() && other != format_of(out)) return with_format(out);
    }
    return shared;
}

fs::path import_sidecar_path(const Job& job, const fs::path& in) {
    if (!job.options.sidecar.empty()) return job.options.sidecar;
    if (const fs::path own = with_format(in); job.io.is_file(own)) return own;
    return in.parent_path() / (in.stem().string() + ".sidecar.json");
}

} // namespace msh::jobs
