// mshconv::convert: picks the direction from IN's content (NRes model, Land.msh, Texm) or
// extension (.gltf, .glb, .obj, .png, a format Assimp reads) and OUT's extension, then hands over
// to one file per direction.
#include "convert.hpp"
#include "enum_names.hpp"

#include "formats/assimp_read.hpp"
#include "formats/diagnostics.hpp"
#include "formats/file_io.hpp"
#include "formats/nres.hpp"
#include "formats/png.hpp"
#include "formats/recording_io.hpp"
#include "formats/sniff.hpp"
#include "formats/texm.hpp"

#include <cctype>
#include <thread>

#include <algorithm>

namespace msh::conversion {

namespace fs = std::filesystem;

namespace {

// `convert static.rlb out.glb`: the archive holds many things; say what and how to get at them.
std::string archive_hint(const Loaded& in, const std::string& out_spec) {
    const nres::Archive ar =
        nres::read(in.bytes, ReadMode::Tolerant, in.address.display(), in.bytes.keeper());
    std::vector<std::string> models, textures;
    for (const nres::Entry& e : ar.entries) {
        const ContentKind k = sniff(e.data, {e.name(), e.type});
        if (k == ContentKind::Model) models.push_back(e.display_name());
        if (k == ContentKind::Texm) textures.push_back(e.display_name());
    }
    const std::string where = in.address.display();
    std::string text = where + " is an NRes archive of " + std::to_string(ar.entries.size()) +
                       " entries (" + std::to_string(models.size()) + " models, " +
                       std::to_string(textures.size()) +
                       " textures); convert converts one thing: name an entry";
    const std::vector<std::string>& pick = models.empty() ? textures : models;
    if (!pick.empty())
        text += ", e.g. `mshconv convert " + where + ":" + pick.front() + " " + out_spec + "`";
    return text + ", or convert them all with `mshconv batch " + where + " -o DIR --to " +
           (models.empty() ? "png" : "glb") + "`";
}

// Inputs are never overwritten and outputs never collide: OUT, --report and an export's sidecar
// must differ from IN (the whole file, archive or not), from an import's sidecar and from one
// another. An existing archive as OUT needs its entry named: a whole archive is never replaced
// by one entry's content.
// `found`: an import's sidecar (null for an export).
void check_output_paths(const Job& job, const Address& in, const Address& out,
                        const ImportSidecar* found) {
    const bool import = found != nullptr;
    std::vector<std::pair<std::string, fs::path>> inputs{{"IN", in.file}},
        outputs{{"OUT", out.file}};
    (import ? inputs : outputs)
        .emplace_back("the sidecar", import ? found->path : export_sidecar_path(job, out.file));
    if (!job.options.report.empty()) outputs.emplace_back("--report", job.options.report);
    if (on_disk(&job.io))
        for (const auto& [what, path] : outputs) refuse_read_only_output(path);
    for (size_t i = 0; i < outputs.size(); ++i) {
        for (const auto& [what, path] : inputs)
            if (job.io.same_file(outputs[i].second, path))
                throw UsageError(outputs[i].first + " (" + outputs[i].second.string() + ") is " +
                                 what + "; inputs are never overwritten");
        for (size_t j = i + 1; j < outputs.size(); ++j)
            if (job.io.same_file(outputs[i].second, outputs[j].second))
                throw UsageError(outputs[i].first + " and " + outputs[j].first +
                                 " are the same file (" + outputs[i].second.string() + ")");
    }
    if (import && out.entries.empty() && job.io.is_file(out.file)) {
        const Payload existing = read_payload(job.io, out.file);
        if (sniff(existing, {out.file.filename().string(), std::nullopt}) ==
            ContentKind::NResArchive) {
            const nres::Archive ar = nres::read(existing, ReadMode::Tolerant, out.file.string());
            throw UsageError(out.file.string() + " is an NRes archive of " +
                             std::to_string(ar.entries.size()) +
                             " entries; name the entry to replace (" + out.file.string() +
                             ":ENTRY): a whole archive is never replaced by one entry");
        }
    }
}

// Threads for a map's draped overlay: the option, else all cores (the output is the same).
unsigned drape_threads(const ConvertOptions& o) {
    if (!o.threads) return std::max(1u, std::thread::hardware_concurrency());
    if (*o.threads < 1) throw UsageError("-j must be at least 1");
    return *o.threads;
}

// What `convert` does with `in_spec`; the kind of input it was.
mshconv::AssetKind dispatch(const Job& job, const std::string& in_spec, const std::string& out_spec,
                            bool& import_out) {
    const Address in = parse_address(job.io, in_spec);
    const std::string in_ext = lower_ascii(
        fs::path(in.entries.empty() ? in.file : fs::path(in.entries.back())).extension().string());
    // FBX, COLLADA, ... (what Assimp reads) import as new models like a glTF without sidecar.
    const bool foreign = in.entries.empty() && assimp_read::handles(in.file.filename().string());
    const bool import = foreign || (in.entries.empty() && (in_ext == ".gltf" || in_ext == ".glb" ||
                                                           in_ext == ".obj" || in_ext == ".png"));
    import_out = import;
    // An import's sidecar, looked up once (a renamed export's takes a read of its record).
    std::optional<ImportSidecar> found;
    if (import) found = find_import_sidecar(job, in.file);
    check_output_paths(job, in, parse_address(job.io, out_spec), found ? &*found : nullptr);
    // A .gltf/.glb whose sidecar has "kind": "level" is a mission's level.
    if (in.entries.empty() && (in_ext == ".gltf" || in_ext == ".glb" || in_ext == ".obj"))
        if (const auto sidecar = level_sidecar(job, *found)) {
            if (job.options.new_model)
                throw UsageError("--new-model: " + in.file.string() +
                                 " is a level export (its sidecar says kind level), never a model");
            import_level(job, in, out_spec, *sidecar, *found);
            return mshconv::AssetKind::Level;
        }
    if (import && in.entries.empty())
        refuse_tma_without_level_sidecar(in.file, out_spec, job, *found);
    // A .gltf/.glb/.obj whose sidecar has "kind": "terrain" is a map.
    if (in.entries.empty() && (in_ext == ".gltf" || in_ext == ".glb" || in_ext == ".obj"))
        if (const auto sidecar = terrain_sidecar(job, *found)) {
            if (job.options.new_model)
                throw UsageError("--new-model: " + in.file.string() +
                                 " is a map export (its sidecar says kind terrain), never a model");
            import_terrain(job, in, out_spec, *sidecar, *found);
            return mshconv::AssetKind::Terrain;
        }
    if (foreign ||
        (in.entries.empty() && (in_ext == ".gltf" || in_ext == ".glb" || in_ext == ".obj"))) {
        import_model(job, in, out_spec, *found);
        return mshconv::AssetKind::Model;
    }
    if (in.entries.empty() && in_ext == ".png") {
        import_texture(job, in.file, out_spec);
        return mshconv::AssetKind::Texture;
    }

    Loaded loaded = load(job.io, in);
    const std::string leaf = in.entries.empty() ? in.file.filename().string() : in.entries.back();
    const ContentKind kind = sniff(loaded.bytes, {leaf, std::nullopt});
    switch (kind) {
    case ContentKind::Terrain:
        export_terrain(job, loaded, fs::path(out_spec), nullptr, drape_threads(job.options));
        return mshconv::AssetKind::Terrain;
    case ContentKind::Model:
        export_model(job, loaded, fs::path(out_spec));
        return mshconv::AssetKind::Model;
    case ContentKind::Mission:
        export_level(job, loaded, fs::path(out_spec));
        return mshconv::AssetKind::Level;
    case ContentKind::Texm:
        if (lower_ascii(fs::path(out_spec).extension().string()) == ".png") {
            export_texture(job, loaded, fs::path(out_spec));
            return mshconv::AssetKind::Texture;
        }
        break;
    case ContentKind::NResArchive:
        // A .msh whose container is too damaged to show its resources: the reader says why.
        if (lower_ascii(leaf) == "land.msh") {
            export_terrain(job, loaded, fs::path(out_spec), nullptr, drape_threads(job.options));
            return mshconv::AssetKind::Terrain;
        }
        if (lower_ascii(fs::path(leaf).extension().string()) == ".msh") {
            export_model(job, loaded, fs::path(out_spec));
            return mshconv::AssetKind::Model;
        }
        throw UsageError(archive_hint(loaded, out_spec));
    case ContentKind::DamagedNRes: // the container's own error says what is wrong and where
        nres::read(loaded.bytes, ReadMode::Tolerant, loaded.address.display(),
                   loaded.bytes.keeper());
        break;
    default:
        // A file named .texm or .msh that its reader cannot read: the reader says why.
        if (lower_ascii(fs::path(leaf).extension().string()) == ".texm")
            texm::read(loaded.bytes, ReadMode::Strict, loaded.address.display());
        if (lower_ascii(fs::path(leaf).extension().string()) == ".msh")
            nres::read(loaded.bytes, ReadMode::Tolerant, loaded.address.display(),
                       loaded.bytes.keeper());
        break;
    }
    throw FormatError(loaded.address.display(), Location::whole(),
                      std::string("cannot convert this input (") + to_string(kind) +
                          "): expected an MSH model, a Land.msh or a Texm texture (file or "
                          "archive entry; a texture converts to .png) or a .gltf/.glb/.obj/.png "
                          "file");
}

} // namespace

} // namespace msh::conversion

namespace mshconv {

const char* to_string(AssetKind kind) {
    return msh::conversion::name_of(msh::conversion::kAssetKindNames, kind);
}

ConvertResult convert(const ConvertRequest& request, Io& io, const OnMessage& on_message) {
    msh::RecordingIo recording(io);
    const msh::conversion::Job job{request.options, recording, on_message};
    ConvertResult result;
    result.kind = msh::conversion::locating_errors(io, {request.input, request.output}, [&] {
        return msh::conversion::dispatch(job, request.input, request.output, result.import);
    });
    result.written = std::move(recording.written);
    return result;
}

} // namespace mshconv
