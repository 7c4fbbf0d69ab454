#include "batch_rebuild.hpp"

#include "batch_mirror.hpp"
#include "convert.hpp"
#include "model_import.hpp"
#include "nres_manifest.hpp"
#include "terrain.hpp"

#include "formats/diagnostics.hpp"
#include "formats/file_io.hpp"
#include "formats/nres.hpp"

#include <algorithm>
#include <atomic>
#include <optional>

namespace msh::conversion {

namespace fs = std::filesystem;

namespace {

class Rebuild {
  public:
    explicit Rebuild(BatchRun& run)
        : io_(run.io), threads_(run.threads), progress_(run.progress), results_(run.results),
          full_read_(run.options.full_read), on_message_(run.on_message) {}

    // An item's import job: the run's Io, no options of a single conversion; its warnings go to
    // `kept` (the item's report line) and to the caller.
    Job item_job(KeptWarnings& kept) const {
        return keeping_warnings({options_, io_, on_message_}, kept);
    }
    mshconv::Io& io() const { return io_; }

    // --full-read: read and compare even the files the exports wrote (is_written_file).
    bool full_read() const { return full_read_; }
    ImportChoices choices() const {
        ImportChoices c;
        c.full_read = full_read_;
        return c;
    }

    // The archive of an unpacked folder, written to `target` in pieces (the payloads are not
    // assembled in memory a second time); false when an entry failed (each failure reported).
    // `output`: `target` as the report names it.
    bool write_archive(const fs::path& folder, const fs::path& target, const std::string& output) {
        const std::optional<nres::Archive> ar = archive(folder, output);
        if (!ar) return false;
        const nres::Pieces pieces = nres::write_pieces(*ar);
        io_.write_set({{target, {pieces.pieces.begin(), pieces.pieces.end()}}});
        return true;
    }

  private:
    // The archive of an unpacked folder; nullopt when an entry failed (each failure reported).
    std::optional<nres::Archive> archive(const fs::path& folder, const std::string& out_display) {
        std::optional<manifest::Manifest> m;
        nres::Archive ar;
        try {
            m.emplace(folder, io_);
            ar = manifest::parse(*m);
        } catch (const std::exception& e) {
            fail(folder.string(), e.what());
            return std::nullopt;
        }
        std::atomic<bool> ok{true};
        // Nested archives first, one after the other (each converts its own entries in
        // parallel); then this archive's entries in parallel. The report lines of a parallel
        // pass are all added before it starts.
        std::vector<size_t> flat;
        for (size_t i = 0; i < ar.entries.size(); ++i) {
            if (manifest::entry_kind(m->entry(i)) != "archive") {
                flat.push_back(i);
                continue;
            }
            std::optional<Bytes> inner;
            try {
                if (auto nested = archive(
                        manifest::entry_file(m->entry(i)["converted"]["folder"], folder, &io_),
                        out_display + ":" + ar.entries[i].display_name()))
                    inner = nres::write(*nested);
            } catch (const std::exception& e) {
                fail(folder.string(), e.what());
            }
            if (inner)
                ar.entries[i].data = std::move(*inner);
            else
                ok = false;
        }
        // Raw entries are copies: only a failed one keeps its report line.
        const size_t first = results_.size();
        for (size_t i : flat)
            results_.push_back(report_line(
                (folder / describe(m->entry(i))).string(), manifest::entry_kind(m->entry(i)),
                out_display + ":" + ar.entries[i].display_name(), Status::Converted, ""));
        const long count = long(flat.size());
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads_)
        for (long k = 0; k < count; ++k) {
            const size_t i = flat[size_t(k)];
            Result& r = results_[first + size_t(k)];
            const auto start = Clock::now();
            try {
                ar.entries[i].data = payload(folder, m->entry(i), r);
            } catch (const std::exception& e) {
                r.status = Status::Failed;
                r.message = e.what();
                ok = false;
            }
            r.seconds = seconds_since(start);
            if (r.kind != mshconv::ItemKind::Raw || r.status == Status::Failed)
                progress_.finished(r);
        }
        results_.erase(std::remove_if(results_.begin() + std::ptrdiff_t(first), results_.end(),
                                      [](const Result& r) {
                                          return r.kind == mshconv::ItemKind::Raw &&
                                                 r.status != Status::Failed;
                                      }),
                       results_.end());
        if (!ok) return std::nullopt;
        return ar;
    }

    // The file an entry's report line names (any failure was caught by manifest::parse).
    static std::string describe(const sidecar::JsonAt& e) {
        if (e.has("file")) return e["file"].as<std::string>();
        const sidecar::JsonAt c = e["converted"];
        for (const char* key : {"png", "folder", "file"})
            if (c.has(key)) return c[key].as<std::string>();
        return std::string();
    }

    Bytes payload(const fs::path& folder, const sidecar::JsonAt& e, Result& r) {
        // A name from the manifest, confined to its folder (no absolute path, `..` or symlink out).
        auto at = [&](const char* key) {
            return manifest::entry_file(e["converted"][key], folder, &io_);
        };
        if (e.has("file")) {
            r.unchanged = true;
            return read_bytes(io_, manifest::entry_file(e["file"], folder, &io_));
        }
        const std::string kind = manifest::entry_kind(e);
        if (kind == "texture") {
            TextureImport t = import_texture_files(io_, at("png"), at("sidecar"), {},
                                                   png::kDefaultMaxPixels, full_read_);
            r.unchanged = t.identical;
            r.warnings = t.warnings;
            return std::move(t.texm);
        }
        if (kind == "model") {
            KeptWarnings warnings;
            ModelImport m =
                import_model_files(item_job(warnings), at("file"), at("sidecar"), choices());
            r.warnings = warnings.texts();
            r.unchanged = m.identical;
            return std::move(m.msh);
        }
        if (kind == "map")
            throw std::runtime_error("a map inside an archive cannot be rebuilt by batch yet; "
                                     "convert it back with `mshconv convert`");
        throw std::runtime_error("unknown converted kind '" + kind + "'");
    }

    void fail(const std::string& input, const std::string& message) {
        results_.push_back(report_line(input, "archive", "", Status::Failed, message));
        progress_.finished(results_.back());
    }

    mshconv::Io& io_;
    int threads_ = 1;
    Progress& progress_;
    std::vector<Result>& results_;
    bool full_read_ = false;
    mshconv::OnMessage on_message_;
    const mshconv::ConvertOptions options_{};
};

// The report lines an unpacked archive will give, for the progress total: its converted
// entries, those of nested archives included (0 when its manifest cannot be read).
size_t converted_entries(mshconv::Io& io, const fs::path& folder) {
    try {
        const manifest::Manifest m(folder, io);
        const size_t entries = m.root()["entries"].size();
        size_t n = 0;
        for (size_t i = 0; i < entries; ++i) {
            const std::string kind = manifest::entry_kind(m.entry(i));
            if (kind == "archive")
                n += converted_entries(
                    io, manifest::entry_file(m.entry(i)["converted"]["folder"], folder, &io));
            else if (kind != "raw")
                ++n;
        }
        return n;
    } catch (const std::exception&) {
        return 0;
    }
}

// `path` as the report names outputs: relative to -o (`out`), or its file name when -o names
// the rebuilt archive itself.
std::string report_path(const fs::path& path, const fs::path& out) {
    const std::string rel = path.lexically_relative(out).generic_string();
    return rel.empty() || rel == "." ? path.filename().generic_string() : rel;
}

// Folders holding a manifest below `dir` (not looking inside them: nested archives belong to
// their parent).
void find_unpacked(mshconv::Io& io, const fs::path& dir, std::vector<fs::path>& out) {
    if (io.is_file(dir / manifest::kFileName)) {
        out.push_back(dir);
        return;
    }
    std::vector<fs::path> subdirs;
    for (const std::string& name : io.list(dir))
        if (io.is_folder(dir / name)) subdirs.push_back(dir / name);
    std::sort(subdirs.begin(), subdirs.end());
    for (const fs::path& d : subdirs) find_unpacked(io, d, out);
}

// Land.msh (+ Land.map beside it) from a map export and its terrain sidecar; true when both
// came back byte for byte.
bool rebuild_map(const Job& job, const fs::path& file, const fs::path& sidecar_path,
                 const fs::path& target, bool full_read) {
    mshconv::Io& io = job.io;
    const std::optional<sidecar::TerrainSidecar> sc =
        sidecar::read_terrain_sidecar(io.read(sidecar_path).bytes, sidecar_path.string());
    if (!sc) throw FormatError(sidecar_path.string(), Location::whole(), "not a terrain sidecar");
    const TerrainImportSettings settings{file.string(), sidecar_path.string(), false, full_read};
    std::vector<std::string> warnings;
    const mapping::TerrainImportResult r =
        rebuild_terrain_from_file(file, *sc, settings, warnings, io);
    for (const std::string& w : warnings) job.warn(w);
    for (const std::string& w : r.report.warnings) job.warn(w);
    std::vector<PathBytes> level; // both files or neither
    if (sc->has_map()) {
        // The name it had beside its Land.msh (the sidecar records its address).
        const std::string map_name = sc->record.map_source.empty()
                                         ? std::string("Land.map")
                                         : fs::path(sc->record.map_source).filename().string();
        level.push_back({target.parent_path() / map_name, r.land_map});
    }
    level.push_back({target, r.land_msh});
    write_files(io, level);
    return r.msh_identical && r.map_identical;
}

// Bytes below `p` (a file or a folder): the size a shard unit weighs.
uint64_t tree_bytes(mshconv::Io& io, const fs::path& p) {
    if (io.is_file(p)) return io.size(p);
    uint64_t n = 0;
    try {
        for (const fs::path& f : io.list_files(p)) n += io.size(p / f);
    } catch (const std::exception&) { // weighed by what could be listed
    }
    return n;
}

// Every file of a whole-tree mirror (batch_mirror.hpp) back under `back`: this job's share.
// Archives first, one after the other (each rebuilds its entries in parallel); then the loose
// files (maps, models, textures, raw copies) in parallel, largest first so that a big map does
// not start last. Report lines keep the mirror's order whatever finishes first.
void rebuild_mirror(BatchRun& run, const fs::path& in, const std::vector<MirrorRecord>& records,
                    const fs::path& back, const fs::path& run_out, Rebuild& rebuild) {
    mshconv::Io& io = run.io;
    Progress& progress = run.progress;
    std::vector<Result>& results = run.results;
    const std::string where = (in / kMirrorFile).string();
    std::vector<ShardUnit> units;
    for (const MirrorRecord& m : records)
        units.push_back({m.path, m.output.empty() ? 0 : tree_bytes(io, in / m.output)});
    const std::vector<bool> mine = shard_members(units, run.shard);
    size_t expected = 0;
    for (size_t i = 0; i < records.size(); ++i) {
        if (records[i].kind == "map_part" || !mine[i]) continue;
        ++expected;
        if (records[i].kind == "archive") {
            try {
                expected += converted_entries(io, confined_path(&io, in, records[i].output));
            } catch (const std::exception&) { // reported when it is rebuilt
            }
        }
    }
    progress.expect(expected);
    // The report names the rebuilt files relative to -o.
    const std::string below_out = report_path(back, run_out);
    auto output_of = [&](const std::string& path) {
        return back == run_out ? path : below_out + "/" + path;
    };
    auto inside = [&](size_t i, const fs::path& folder, const std::string& name, const char* key) {
        try {
            return confined_path(&io, folder, name);
        } catch (const std::exception& e) {
            throw FormatError(
                where, Location::at_pointer("/files/" + std::to_string(i) + "/" + key), e.what());
        }
    };
    struct Loose {
        size_t record, line;
        fs::path target, output;
    };
    std::vector<Loose> loose;
    auto failed = [&](size_t line, const std::exception& e) {
        results[line].status = Status::Failed;
        results[line].message = e.what();
    };
    for (size_t i = 0; i < records.size(); ++i) {
        const MirrorRecord& m = records[i];
        if (m.kind == "map_part" || !mine[i]) continue; // a map_part is written by its map
        const auto start = Clock::now();
        results.push_back(report_line((in / m.output).string(), m.kind, output_of(m.path),
                                      Status::Converted, ""));
        const size_t line = results.size() - 1;
        try {
            const fs::path target = inside(i, back, m.path, "path");
            const fs::path output = inside(i, in, m.output, "output");
            if (m.kind != "archive") {
                loose.push_back({i, line, target, output});
                continue;
            }
            if (!rebuild.write_archive(output, target, output_of(m.path)))
                throw std::runtime_error("not written: entries failed");
        } catch (const std::exception& e) {
            failed(line, e);
        }
        results[line].seconds = seconds_since(start);
        progress.finished(results[line]);
    }
    std::stable_sort(loose.begin(), loose.end(), [&](const Loose& a, const Loose& b) {
        return units[a.record].bytes > units[b.record].bytes;
    });
    const long count = long(loose.size());
#pragma omp parallel for schedule(dynamic, 1) num_threads(run.threads)
    for (long k = 0; k < count; ++k) {
        const Loose& l = loose[size_t(k)];
        const MirrorRecord& m = records[l.record];
        Result& r = results[l.line];
        const auto start = Clock::now();
        KeptWarnings warnings;
        const Job job = rebuild.item_job(warnings);
        try {
            if (m.kind == "raw") { // the mirror's copy, as it is
                const mshconv::FileBytes raw = io.read(l.output);
                write_files(io, {{l.target, raw.bytes}});
                r.unchanged = true;
            } else if (m.kind == "model") {
                ModelImport imported = import_model_files(
                    job, l.output, inside(l.record, in, m.sidecar, "sidecar"), rebuild.choices());
                r.unchanged = imported.identical;
                write_files(io, {{l.target, imported.msh}});
            } else if (m.kind == "texture") {
                TextureImport t =
                    import_texture_files(io, l.output, inside(l.record, in, m.sidecar, "sidecar"),
                                         std::nullopt, png::kDefaultMaxPixels, rebuild.full_read());
                r.unchanged = t.identical;
                for (const std::string& w : t.warnings) job.warn(w);
                write_files(io, {{l.target, t.texm}});
            } else if (m.kind == "map") {
                r.unchanged = rebuild_map(job, l.output, inside(l.record, in, m.sidecar, "sidecar"),
                                          l.target, rebuild.full_read());
            } else if (m.kind == "level") {
                const LevelImport level =
                    import_level_files(job, l.output, inside(l.record, in, m.sidecar, "sidecar"));
                r.unchanged = level.changes.empty();
                write_files(io, {{l.target, level.mission}});
            } else {
                throw FormatError(
                    where, Location::at_pointer("/files/" + std::to_string(l.record) + "/kind"),
                    "unknown kind '" + m.kind + "'");
            }
        } catch (const std::exception& e) {
            failed(l.line, e);
        }
        r.warnings = warnings.texts();
        r.seconds = seconds_since(start);
        progress.finished(r);
    }
}

} // namespace

void convert_backward(BatchRun& run, const std::vector<std::string>& inputs, const fs::path& out) {
    mshconv::Io& io = run.io;
    Progress& progress = run.progress;
    std::vector<Result>& results = run.results;
    Rebuild rebuild(run);
    for (const std::string& in : inputs) {
        if (!io.is_folder(in))
            throw UsageError("--to nres rebuilds archives from folders written by batch; '" + in +
                             "' is not a folder");
        // A whole-tree mirror: every file back at its path below -o.
        if (const auto records = read_mirror(io, in)) {
            rebuild_mirror(run, in, *records,
                           inputs.size() > 1 ? out / fs::path(in).filename() : out, out, rebuild);
            continue;
        }
        const bool single = io.is_file(fs::path(in) / manifest::kFileName);
        if (single && inputs.size() > 1)
            throw UsageError("with several inputs, -o is a folder: give the folders above the "
                             "unpacked archives");
        std::vector<fs::path> all, folders;
        find_unpacked(io, in, all);
        std::vector<ShardUnit> units;
        for (const fs::path& f : all) units.push_back({f.generic_string(), tree_bytes(io, f)});
        const std::vector<bool> mine = shard_members(units, run.shard);
        for (size_t i = 0; i < all.size(); ++i)
            if (mine[i]) folders.push_back(all[i]);
        size_t expected = folders.size();
        for (const fs::path& folder : folders) expected += converted_entries(io, folder);
        progress.expect(expected);
        if (all.empty()) {
            results.push_back(report_line(in, "archive", "", Status::Failed,
                                          "no unpacked archive (no " +
                                              std::string(manifest::kFileName) +
                                              ") in this folder"));
            progress.finished(results.back());
        }
        for (const fs::path& folder : folders) {
            fs::path target = out;
            if (!single)
                target = out / folder.lexically_relative(in);
            else if (io.is_folder(out))
                target = out / fs::path(in).filename();
            const auto start = Clock::now();
            const size_t line = results.size();
            const std::string output = report_path(target, out);
            results.push_back(
                report_line(folder.string(), "archive", output, Status::Converted, ""));
            try {
                if (!rebuild.write_archive(folder, target, output))
                    throw std::runtime_error("not written: entries failed");
            } catch (const std::exception& e) { // results may have grown: by index
                results[line].status = Status::Failed;
                results[line].message = e.what();
            }
            Result& r = results[line];
            r.seconds = seconds_since(start);
            progress.finished(r);
        }
    }
}

} // namespace msh::conversion
