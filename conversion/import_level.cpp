// convert, level: an edited level export (.gltf / .glb + its sidecar, kind "level") -> data.tma.
// Starts from the sidecar's copy of data.tma and changes only the transform floats of the objects
// that moved (conversion/level.hpp); the change report names each.
#include "address.hpp"
#include "convert.hpp"
#include "level.hpp"

#include "formats/names.hpp"
#include "sidecar/json_at.hpp"

#include <nlohmann/json.hpp>

namespace msh::conversion {

namespace fs = std::filesystem;

std::optional<sidecar::LevelSidecar> level_sidecar(const Job& job, const ImportSidecar& found) {
    if (!found.found) return std::nullopt;
    const Payload text = read_payload(job.io, found.path);
    return sidecar::read_level_sidecar(text, found.path.string());
}

void refuse_tma_without_level_sidecar(const fs::path& input, const std::string& out_spec,
                                      const Job& job, const ImportSidecar& found) {
    if (lower_ascii(fs::path(out_spec).extension().string()) != ".tma") return;
    if (!found.found)
        throw UsageError(input.string() + ": a data.tma is written from a level export and its " +
                         "sidecar (kind level); " + sidecar_search_text(input, found) +
                         " and found none");
    sidecar::ParsedJson parsed; // broken text: where it breaks
    parsed.parse(read_payload(job.io, found.path), found.path.string());
    throw FormatError(found.path.string(), Location::whole(),
                      "not a level sidecar (its kind is not \"level\"): a data.tma is written "
                      "from a level export");
}

namespace {

LevelImport imported(const Job& job, const fs::path& input, const sidecar::LevelSidecar& sc,
                     const fs::path& sidecar_path) {
    const std::string ext = lower_ascii(input.extension().string());
    if (ext != ".gltf" && ext != ".glb" && ext != ".obj")
        throw UsageError("a level imports from .gltf, .glb or .obj: " + input.string());
    const Payload document = read_payload(job.io, input);
    const LevelDocument doc =
        ext == ".obj"
            ? read_level_obj(
                  std::string_view(reinterpret_cast<const char*>(document.data()), document.size()),
                  input.string())
            : read_level_document(document, ext == ".glb", input.string());
    return rebuild_level(doc, sc, {input.string(), sidecar_path.string(), job.options.force});
}

} // namespace

LevelImport import_level_files(const Job& job, const fs::path& input,
                               const fs::path& sidecar_path) {
    const Payload text = read_payload(job.io, sidecar_path);
    const std::optional<sidecar::LevelSidecar> sc =
        sidecar::read_level_sidecar(text, sidecar_path.string());
    if (!sc) throw FormatError(sidecar_path.string(), Location::whole(), "not a level sidecar");
    return imported(job, input, *sc, sidecar_path);
}

void import_level(const Job& job, const Address& in, const std::string& out_spec,
                  const sidecar::LevelSidecar& sc, const ImportSidecar& found) {
    const ConvertOptions& o = job.options;
    const Address out = parse_address(job.io, out_spec);
    if (!out.entries.empty())
        throw UsageError("a level import writes a loose data.tma, not an archive entry: " +
                         out_spec);
    if (o.skin || o.msft_lod || o.lod || o.group)
        throw UsageError("--skin, --msft-lod, --lod and --group are model export options");
    if (found.how == SidecarFound::ByExtras || found.how == SidecarFound::ByPairingToken)
        job.report(in.file.string() + ": sidecar " + found.path.string() + " (" +
                   to_string(found.how) + ")");

    const LevelImport r = imported(job, in.file, sc, found.path);
    write_files(job.io, {{out.file, r.mission}});
    if (!o.report.empty()) {
        nlohmann::json changes = nlohmann::json::array();
        for (const LevelChange& c : r.changes)
            changes.push_back(
                {{"record", c.record},
                 {"name", c.name},
                 {"position",
                  {{"before", {c.before_position.x, c.before_position.y, c.before_position.z}},
                   {"after", {c.after_position.x, c.after_position.y, c.after_position.z}}}},
                 {"heading", {{"before", c.before_heading}, {"after", c.after_heading}}},
                 {"scale", {{"before", c.before_scale}, {"after", c.after_scale}}}});
        nlohmann::json report = {
            {"input", recorded_path(in.file)},      {"output", recorded_path(out.file)},
            {"sidecar", recorded_path(found.path)}, {"pairing", r.pairing},
            {"unchanged", r.changes.empty()},       {"changed_objects", std::move(changes)}};
        const std::string text = report.dump(2) + "\n";
        write_files(job.io, {{o.report, ByteView(reinterpret_cast<const uint8_t*>(text.data()),
                                                 text.size())}});
    }
    job.report(in.file.string() + " -> " + out.file.string() + ": " +
               (r.changes.empty() ? std::string("unchanged, original bytes kept")
                                  : std::to_string(r.changes.size()) + " objects changed"));
    for (const LevelChange& c : r.changes)
        job.report(printed(
            "  %s (record %zu): position (%g, %g, %g) -> (%g, %g, %g), heading %g -> "
            "%g, scale %g -> %g",
            c.name.c_str(), c.record, double(c.before_position.x), double(c.before_position.y),
            double(c.before_position.z), double(c.after_position.x), double(c.after_position.y),
            double(c.after_position.z), double(c.before_heading), double(c.after_heading),
            double(c.before_scale), double(c.after_scale)));
}

} // namespace msh::conversion
