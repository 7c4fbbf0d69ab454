// `mshconv validate IN [--strict] [--json]`: every diagnostic of the file and the models nested in
// it; exit 1 when any error was found.
#include "commands.hpp"
#include "disk_jobs.hpp"
#include "options.hpp"

#include "formats/arealmap.hpp"
#include "formats/material.hpp"
#include "formats/msh.hpp"
#include "formats/sniff.hpp"
#include "formats/terrain.hpp"
#include "formats/texm.hpp"
#include "formats/wear.hpp"

#include <nlohmann/json.hpp>

#include <cctype>
#include <cstdio>
#include <map>

namespace msh::cli {

namespace {

struct Tally {
    size_t models = 0, archives = 0, terrains = 0, areal_maps = 0, wears = 0, textures = 0,
           materials = 0;
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
        default:
            // Parse again to report why (bad magic, version, directory).
            nres::read(bytes, sink, where);
            break;
        }
    } catch (const FormatError& e) {
        sink.error(e);
    }
}

} // namespace

int run_validate(const Args& args) {
    po::options_description desc("validate options");
    desc.add_options()("input", po::value<std::string>()->required(), "file or archive entry")(
        "strict", "strict reader: every violated invariant of the spec is an error")(
        "json", "print the diagnostics as JSON");
    po::positional_options_description pos;
    pos.add("input", 1);
    po::variables_map vm;
    if (!parse_options(args, "validate IN [--strict] [--json]", desc, pos, vm)) return 0;

    Loaded in = load(parse_address(vm["input"].as<std::string>()));
    std::string where = in.address.display();
    DiagnosticSink sink(vm.count("strict") ? ReadMode::Strict : ReadMode::Tolerant);
    Tally tally;
    validate_bytes(in.bytes, where, sink, tally);

    size_t errors = 0;
    for (const Diagnostic& d : sink.diagnostics()) errors += d.severity == Severity::Error;
    if (vm.count("json")) {
        nlohmann::json list = nlohmann::json::array();
        for (const Diagnostic& d : sink.diagnostics()) {
            nlohmann::json item = {
                {"severity", d.severity == Severity::Error ? "error" : "warning"},
                {"resource", d.resource},
                {"offset", d.offset},
                {"message", d.message}};
            // Text formats also say where by line and column, JSON ones by pointer.
            if (d.location.kind == Location::Kind::Line) {
                item["line"] = d.location.line;
                if (d.location.column) item["column"] = d.location.column;
            } else if (d.location.kind == Location::Kind::Pointer) {
                item["pointer"] = d.location.pointer;
            }
            list.push_back(std::move(item));
        }
        nlohmann::json j = {{"file", where},
                            {"valid", errors == 0},
                            {"models", tally.models},
                            {"archives", tally.archives},
                            {"terrains", tally.terrains},
                            {"areal_maps", tally.areal_maps},
                            {"wear_tables", tally.wears},
                            {"textures", tally.textures},
                            {"materials", tally.materials},
                            {"sort_folds", tally.sort_folds},
                            {"errors", errors},
                            {"warnings", sink.warning_count()},
                            {"diagnostics", list}};
        std::printf("%s\n", j.dump(2).c_str());
    } else {
        for (const Diagnostic& d : sink.diagnostics()) std::printf("%s\n", d.to_string().c_str());
        std::string what = std::to_string(tally.models) + " models, " +
                           std::to_string(tally.archives) + " archives";
        if (tally.terrains) what += ", " + std::to_string(tally.terrains) + " terrain";
        if (tally.areal_maps) what += ", " + std::to_string(tally.areal_maps) + " areal map";
        if (tally.textures) what += ", " + std::to_string(tally.textures) + " textures";
        if (tally.materials) what += ", " + std::to_string(tally.materials) + " materials";
        if (tally.wears)
            what += ", " + std::to_string(tally.wears) +
                    (tally.wears == 1 ? " WEAR table" : " WEAR tables");
        // The verdict stays the last line (scripts read it with `tail -n 1`).
        if (!tally.top_fold.empty()) {
            std::string folds;
            for (const auto& [fold, n] : tally.sort_folds)
                folds += (folds.empty() ? "" : ", ") + std::to_string(n) + " " + fold;
            std::printf("sort index: %s fold (archives by fold: %s)\n", tally.top_fold.c_str(),
                        folds.c_str());
        }
        std::printf("%s: %s (%s, %zu errors, %zu warnings)\n", where.c_str(),
                    errors ? "INVALID" : "valid", what.c_str(), errors, sink.warning_count());
    }
    return errors ? 1 : 0;
}

} // namespace msh::cli
