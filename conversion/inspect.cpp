// mshconv::info and mshconv::validate (include/mshconv/inspect.hpp): the descriptions and the
// readers' findings that `mshconv info` and `mshconv validate` print.
#include "address.hpp"
#include "enum_names.hpp"
#include "summary.hpp"

#include "formats/arealmap.hpp"
#include "formats/assembly.hpp"
#include "formats/cp1251.hpp"
#include "formats/material.hpp"
#include "formats/mission.hpp"
#include "formats/msh.hpp"
#include "formats/names.hpp"
#include "formats/object_registry.hpp"
#include "formats/sniff.hpp"
#include "formats/terrain.hpp"
#include "formats/texm.hpp"
#include "formats/wear.hpp"
#include "game_files.hpp"
#include "job.hpp"
#include "level_files.hpp"

#include <mshconv/inspect.hpp>

#include <nlohmann/json.hpp>

namespace msh::conversion {

namespace {

struct Tally {
    size_t models = 0, archives = 0, terrains = 0, areal_maps = 0, wears = 0, textures = 0,
           materials = 0, missions = 0, assemblies = 0, references = 0;
    // Archives (nested ones too) by the case fold their sort index follows (nres.md §5).
    std::map<std::string, size_t> sort_folds;
    std::string top_fold; // the input's own, when it is an archive
};

void validate_wear(ByteView bytes, const std::string& where, DiagnosticSink& sink, Tally& tally) {
    ++tally.wears;
    wear::read(bytes, sink, where);
}

void validate_material(const nres::Entry& e, const std::string& where, DiagnosticSink& sink,
                       Tally& tally) {
    ++tally.materials;
    try {
        material::read(e.data, e.attr2, sink, where); // attr2: the MAT0 version
    } catch (const FormatError& x) {
        sink.error(x);
    }
}

// A level file's references, when the game folder above it is found: each object's (or the
// assembly's) parts through objects.rlb to a model that is there; the mission's map.
void validate_references(Io& io, const std::filesystem::path& file, const std::string& where,
                         const mission::Mission* mission, ByteView dat, DiagnosticSink& sink,
                         Tally& tally) {
    const std::optional<std::filesystem::path> root = find_game_folder(io, file);
    if (!root) {
        sink.warn(where, Location::whole(),
                  "no objects.rlb in its folder or above: its references are not checked");
        return;
    }
    const std::optional<std::filesystem::path> rlb = find_file_ci(*root, "objects.rlb", io);
    const registry::Registry registry(read_payload(io, *rlb), rlb->string());
    LevelReferences references(io, *root, registry);
    if (!mission) {
        ++tally.references;
        const ObjectRefs refs = resolve_assembly(Bytes(dat.begin(), dat.end()), where, registry);
        std::string problem = refs.problem;
        for (const PartRef& p : refs.parts)
            if (problem.empty()) problem = references.missing_model(p.model);
        if (!problem.empty()) sink.error(where, 0, "a part does not resolve: " + problem);
        return;
    }
    for (size_t i = 0; i < mission->objects.size(); ++i) {
        const mission::PlacedObject& o = mission->objects[i];
        ++tally.references;
        if (const std::string problem = references.problem(o); !problem.empty())
            sink.error(where, o.offset,
                       "object " + std::to_string(i) + " (" + cp1251_to_utf8(o.path) +
                           ") does not resolve: " + problem);
    }
    ++tally.references;
    const std::string folder = mission::map_folder(mission->map_path);
    const std::optional<std::filesystem::path> dir = find_path_ci(io, *root, folder);
    if (!dir || !find_file_ci(*dir, "Land.msh", io))
        sink.error(FormatError(where, Location::whole(),
                               "its map " + cp1251_to_utf8(mission->map_path) +
                                   " has no Land.msh in " + (*root / folder).string()));
}

void validate_bytes(ByteView bytes, const std::string& where, DiagnosticSink& sink, Tally& tally) {
    try {
        switch (sniff(bytes, {where, std::nullopt})) {
        case ContentKind::Model:
            ++tally.models;
            read_model(bytes, sink, where);
            break;
        case ContentKind::Terrain:
            ++tally.terrains;
            terrain::read(bytes, sink, where);
            break;
        case ContentKind::ArealMap:
            ++tally.areal_maps;
            arealmap::read(bytes, sink, where);
            break;
        case ContentKind::NResArchive: {
            ++tally.archives;
            nres::Archive ar = nres::read(bytes, sink, where);
            const std::string fold = nres::evidence_name(ar.fold_evidence);
            ++tally.sort_folds[fold];
            if (tally.archives == 1) tally.top_fold = fold;
            for (const nres::Entry& e : ar.entries) {
                const std::string at = where + ":" + e.display_name();
                if (nres::looks_like_nres(e.data))
                    validate_bytes(e.data, at, sink, tally);
                else if (e.type == nres::fourcc("WEAR"))
                    validate_wear(e.data, at, sink, tally);
                else if (e.type == nres::fourcc("MAT0"))
                    validate_material(e, at, sink, tally);
                else if (sniff(e.data, {e.name(), e.type}) == ContentKind::Texm)
                    validate_bytes(e.data, at, sink, tally);
            }
            break;
        }
        case ContentKind::Texm:
            ++tally.textures;
            texm::read(bytes, sink, where);
            break;
        case ContentKind::Wear: // loose Land1.wea / Land2.wea
            validate_wear(bytes, where, sink, tally);
            break;
        case ContentKind::Mission:
            ++tally.missions;
            mission::read(bytes, sink, where);
            break;
        case ContentKind::Assembly:
            ++tally.assemblies;
            assembly::read(bytes, sink, where);
            break;
        default:
            // Parse again to report why (bad magic, version, directory).
            nres::read(bytes, sink, where);
            break;
        }
    } catch (const FormatError& e) {
        sink.error(e);
    }
}

mshconv::Info info_of(const std::string& input, Io& io) {
    const Loaded in = load(io, parse_address(io, input));
    mshconv::Info info;
    info.file = in.address.display();
    info.size = in.bytes.size();
    const std::string& where = info.file;
    const std::string name = in.address.entries.empty() ? in.address.file.filename().string()
                                                        : in.address.entries.back();
    DiagnosticSink sink(ReadMode::Tolerant);
    const ContentKind kind = sniff(in.bytes, {name, std::nullopt});
    switch (kind) {
    case ContentKind::Model:
        info.kind = mshconv::InfoKind::Model;
        info.model = summarize_model(read_model(in.bytes, sink, where, in.bytes.keeper()));
        info.diagnostics = sink.diagnostics().size();
        break;
    case ContentKind::Terrain:
        info.kind = mshconv::InfoKind::Terrain;
        info.terrain = summarize_terrain(terrain::read(in.bytes, sink, where));
        info.diagnostics = sink.diagnostics().size();
        break;
    case ContentKind::ArealMap:
        info.kind = mshconv::InfoKind::ArealMap;
        info.areal_map = summarize_areal_map(arealmap::read(in.bytes, sink, where));
        info.diagnostics = sink.diagnostics().size();
        break;
    case ContentKind::Mission:
        info.kind = mshconv::InfoKind::Mission;
        info.mission = summarize_mission(mission::read(in.bytes, sink, where));
        info.diagnostics = sink.diagnostics().size();
        break;
    case ContentKind::Assembly:
        info.kind = mshconv::InfoKind::Assembly;
        info.assembly = summarize_assembly(assembly::read(in.bytes, sink, where));
        info.diagnostics = sink.diagnostics().size();
        break;
    case ContentKind::NResArchive:
        if (lower_ascii(name) == "objects.rlb") {
            info.kind = mshconv::InfoKind::Registry;
            info.registry = summarize_registry(registry::Registry(in.bytes, where));
            break;
        }
        [[fallthrough]];
    case ContentKind::DamagedNRes:
        info.kind = mshconv::InfoKind::Archive;
        if (std::optional<nres::Truncation> cut = nres::truncation(in.bytes)) {
            // What survives, never the bytes a directory read at the wrong place would show.
            nres::Archive readable;
            readable.entries = std::move(cut->readable);
            info.archive = summarize_archive(readable, where);
            info.archive->entry_count = cut->count;
            info.archive->sort_fold = "unread";
            info.archive->truncated = {cut->have, cut->need, readable.entries.size(),
                                       cut->count - readable.entries.size(),
                                       where + ": " + nres::describe(*cut)};
            break;
        }
        info.archive = summarize_archive(
            nres::read(in.bytes, ReadMode::Tolerant, where, in.bytes.keeper()), where);
        break;
    case ContentKind::Texm:
        info.kind = mshconv::InfoKind::Texture;
        info.texture = summarize_texture(in.bytes, name, where);
        break;
    case ContentKind::Wear: {
        info.kind = mshconv::InfoKind::Wear;
        const wear::Wear table = wear::read(in.bytes, where);
        info.wear = {wear::material_names(table), wear::lightmap_names(table)};
        break;
    }
    default:
        throw FormatError(where, Location::whole(),
                          std::string("not an NRes archive, model, map or Texm texture (no 'NRes' "
                                      "or 'Texm' magic; this looks like ") +
                              to_string(kind) + ")");
    }
    return info;
}

mshconv::Validation validation_of(const mshconv::ValidateRequest& request, Io& io) {
    const Loaded in = load(io, parse_address(io, request.input));
    const std::string where = in.address.display();
    DiagnosticSink sink(request.strict ? ReadMode::Strict : ReadMode::Tolerant);
    Tally tally;
    validate_bytes(in.bytes, where, sink, tally);
    // A level's files: every reference to the end, once the file itself reads.
    const ContentKind kind = sniff(in.bytes, {in.address.file.filename().string(), std::nullopt});
    if (in.address.entries.empty() && !sink.has_errors()) try {
            if (kind == ContentKind::Mission) {
                const mission::Mission m = mission::read(in.bytes, ReadMode::Tolerant, where);
                validate_references(io, in.address.file, where, &m, {}, sink, tally);
            } else if (kind == ContentKind::Assembly) {
                validate_references(io, in.address.file, where, nullptr, in.bytes, sink, tally);
            }
        } catch (const FormatError& e) {
            sink.error(e);
        }

    mshconv::Validation v;
    v.file = where;
    for (const Diagnostic& d : sink.diagnostics()) {
        mshconv::Finding f;
        f.error = d.severity == Severity::Error;
        f.resource = d.resource;
        f.offset = d.offset;
        if (d.location.kind == Location::Kind::Line) {
            f.line = d.location.line;
            if (d.location.column) f.column = d.location.column;
        } else if (d.location.kind == Location::Kind::Pointer) {
            f.pointer = d.location.pointer;
        }
        f.message = d.message;
        f.text = d.to_string();
        v.errors += f.error;
        v.findings.push_back(std::move(f));
    }
    v.warnings = sink.warning_count();
    v.valid = v.errors == 0;
    v.counts = {{"models", tally.models},      {"archives", tally.archives},
                {"terrains", tally.terrains},  {"areal_maps", tally.areal_maps},
                {"wear_tables", tally.wears},  {"textures", tally.textures},
                {"materials", tally.materials}};
    // A level's counts only where there is one: other files' reports stay as they were.
    for (const auto& [what, count] : {std::pair<const char*, size_t>{"missions", tally.missions},
                                      {"assemblies", tally.assemblies},
                                      {"references", tally.references}})
        if (count) v.counts[what] = count;
    v.sort_fold = tally.top_fold;
    v.sort_folds = {tally.sort_folds.begin(), tally.sort_folds.end()};
    return v;
}

} // namespace

} // namespace msh::conversion

std::string mshconv::to_json(const Validation& v) {
    nlohmann::json list = nlohmann::json::array();
    for (const Finding& f : v.findings) {
        nlohmann::json item = {{"severity", f.error ? "error" : "warning"},
                               {"resource", f.resource},
                               {"offset", f.offset},
                               {"message", f.message}};
        if (f.line) item["line"] = *f.line;
        if (f.column) item["column"] = *f.column;
        if (f.pointer) item["pointer"] = *f.pointer;
        list.push_back(std::move(item));
    }
    nlohmann::json j = {
        {"file", v.file},     {"valid", v.valid},       {"sort_folds", v.sort_folds},
        {"errors", v.errors}, {"warnings", v.warnings}, {"diagnostics", list}};
    for (const auto& [what, count] : v.counts) j[what] = count;
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

const char* mshconv::to_string(InfoKind kind) {
    return msh::conversion::name_of(msh::conversion::kInfoKindNames, kind);
}

mshconv::Info mshconv::info(const std::string& input, Io& io) {
    return msh::conversion::locating_errors(io, {input},
                                            [&] { return msh::conversion::info_of(input, io); });
}

mshconv::Validation mshconv::validate(const ValidateRequest& request, Io& io) {
    return msh::conversion::locating_errors(
        io, {request.input}, [&] { return msh::conversion::validation_of(request, io); });
}
