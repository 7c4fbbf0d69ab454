// `mshconv batch IN... -o DIR --to FMT[,FMT]`: conversion of whole game folders for pipelines.
//
// Forward (--to glb|gltf|obj and/or png): IN may be folders (walked recursively), archives or
// single files (also `archive:entry`). Models and maps (Land.msh) convert to the model format,
// Texm textures (archive entries, loose files) to PNG. Output paths keep the input's structure:
// a file at REL below a folder IN goes to DIR/REL; an archive becomes a folder of the same name
// (DIR/static.rlb/TANK.glb) holding its converted entries, every other entry as a raw file, and
// the archive's `_nres.json` manifest (converter/nres_manifest.hpp), so the folder can be turned
// back into the archive. An archive none of whose entries converts is skipped. A conversion
// that fails is reported; inside an archive the entry is then kept as a raw file.
//
// Reverse (--to nres): every folder below IN that holds `_nres.json` is rebuilt into its archive
// (converted entries are imported from their PNG/glTF/OBJ + sidecar, the others read raw), byte
// for byte when nothing was edited. -o names the archive when IN itself is one such folder,
// else the folder the archives go to (at their relative paths).
//
// Both directions continue after a failure, report each one on stderr (and all of them in
// --report FILE.json) and exit 1 at the end if any failed. Work runs on -j N threads (OpenMP;
// default: all cores); the entries of several archives (a queue bounded at 64 MB of archives)
// and loose files are converted in parallel.
#include "address.hpp"
#include "commands.hpp"
#include "convert.hpp"
#include "nres_manifest.hpp"
#include "options.hpp"

#include "formats/diagnostics.hpp"
#include "formats/file_io.hpp"
#include "formats/nres.hpp"
#include "formats/sniff.hpp"

#include <nlohmann/json.hpp>
#include <omp.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <unistd.h>

namespace msh::cli {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

struct Targets {
    std::string model_ext; // ".glb", ".gltf", ".obj" or empty: models and maps are skipped
    bool png = false;      // textures to PNG
    bool nres = false;     // reverse: rebuild archives
    std::string text;
};

Targets parse_targets(const std::string& text) {
    Targets t;
    t.text = lower_ascii(text);
    size_t start = 0;
    while (start <= t.text.size()) {
        const size_t comma = t.text.find(',', start);
        const std::string f = t.text.substr(start, comma - start);
        if (f == "glb" || f == "gltf" || f == "obj") {
            if (!t.model_ext.empty()) throw UsageError("--to names two model formats: " + text);
            t.model_ext = "." + f;
        } else if (f == "png") {
            t.png = true;
        } else if (f == "nres") {
            t.nres = true;
        } else {
            throw UsageError("--to takes glb, gltf, obj, png (comma-separated, e.g. glb,png) or "
                             "nres, not '" +
                             f + "'");
        }
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    if (t.nres && (t.png || !t.model_ext.empty()))
        throw UsageError("--to nres rebuilds archives and cannot be combined with other formats");
    return t;
}

enum class Status { Converted, Failed, Skipped };

const char* status_name(Status s) {
    switch (s) {
    case Status::Converted:
        return "converted";
    case Status::Failed:
        return "failed";
    case Status::Skipped:
        return "skipped";
    }
    return "";
}

// One line of the report.
struct Result {
    std::string input; // address (file or archive:entry) or folder
    std::string kind;  // model, map, texture, archive, other
    std::string output;
    Status status = Status::Skipped;
    std::string message; // the error, or why it was skipped
    double seconds = 0;
    bool unchanged = false; // reverse: the original payload came back byte for byte
};

// Counts finished items; on a terminal (or with --progress) shows one status line on stderr.
// Errors go through it so that they do not mix with the status line.
class Progress {
  public:
    explicit Progress(bool forced)
        : show_(spdlog::get_level() <= spdlog::level::warn && (forced || ::isatty(2))),
          overwrite_(::isatty(2) != 0), start_(Clock::now()) {}

    void finished(const Result& r) {
        const size_t done = ++done_;
        if (r.status == Status::Failed) ++failed_;
        std::lock_guard lock(mutex_);
        if (r.status == Status::Failed) {
            clear_line();
            // Format errors already name the file (and entry).
            if (r.message.starts_with(r.input))
                spdlog::error("{}", r.message);
            else
                spdlog::error("{}: {}", r.input, r.message);
        } else if (r.status == Status::Converted) {
            spdlog::debug("{} -> {} ({:.3f} s)", r.input, r.output, r.seconds);
        } else {
            spdlog::debug("{}: skipped ({})", r.input, r.message);
        }
        // Long jobs only, at most a few times a second.
        if (!show_ || seconds_since(start_) < 1.0 || seconds_since(last_) < (overwrite_ ? 0.2 : 2))
            return;
        last_ = Clock::now();
        std::fprintf(stderr, "%sbatch: %zu done, %zu failed, %.0f s  %s%s",
                     overwrite_ ? "\r\033[K" : "", done, failed_.load(), seconds_since(start_),
                     r.input.c_str(), overwrite_ ? "" : "\n");
        drawn_ = overwrite_;
    }

    void end() {
        std::lock_guard lock(mutex_);
        clear_line();
    }

  private:
    void clear_line() {
        if (drawn_) std::fputs("\r\033[K", stderr);
        drawn_ = false;
    }

    bool show_, overwrite_;
    bool drawn_ = false;
    Clock::time_point start_, last_{};
    std::atomic<size_t> done_{0}, failed_{0};
    std::mutex mutex_;
};

// ---- forward ---------------------------------------------------------------------------------

enum class JobKind { Model, Map, Texture };

const char* kind_name(JobKind k) {
    switch (k) {
    case JobKind::Model:
        return "model";
    case JobKind::Map:
        return "map";
    case JobKind::Texture:
        return "texture";
    }
    return "";
}

// An archive mirrored as a folder: converted entries, raw files for the rest, the manifest.
struct Mirror {
    Address address;
    fs::path folder;
    nres::Archive archive;
    std::vector<std::string> raw_names; // per entry, claimed even for converted entries
    std::vector<json> payloads;         // per entry: {"file"} or {"converted"}
    std::vector<bool> write_raw;
};

struct Job {
    JobKind kind = JobKind::Model;
    Address address;
    fs::path output;
    ModelExportContext context;
    size_t result = 0;
    Mirror* mirror = nullptr; // archive entry: its archive (null for loose files)
    size_t entry = 0;
};

class Forward {
  public:
    Forward(const Targets& targets, const fs::path& out_dir, const po::variables_map& vm,
            Progress& progress, std::vector<Result>& results)
        : targets_(targets), out_dir_(out_dir), vm_(vm), progress_(progress), results_(results) {}

    // A folder, an archive, a file or an archive entry.
    void input(const std::string& spec) {
        std::error_code ec;
        if (fs::is_directory(spec, ec)) {
            // The output folder may lie inside the input folder: never read it back.
            const fs::path out_abs = fs::weakly_canonical(out_dir_);
            std::vector<fs::path> files;
            for (auto it = fs::recursive_directory_iterator(spec, ec);
                 !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
                if (it->is_directory(ec) && fs::weakly_canonical(it->path()) == out_abs) {
                    it.disable_recursion_pending();
                    continue;
                }
                if (it->is_regular_file(ec)) files.push_back(it->path());
            }
            if (ec) fail(spec, "other", "cannot list the folder: " + ec.message());
            std::sort(files.begin(), files.end());
            for (const fs::path& f : files)
                file(Address{f, {}}, f.lexically_relative(spec).parent_path(), fs::path(spec));
            return;
        }
        const Address a = parse_address(spec);
        if (!fs::is_regular_file(a.file, ec)) {
            fail(spec, "other", "no such file or folder");
            return;
        }
        file(a, fs::path(), a.file.parent_path());
    }

    // Converts what is still queued.
    void finish() { flush(); }

  private:
    size_t add_result(const std::string& input, const std::string& kind) {
        results_.push_back({input, kind, "", Status::Skipped, "", 0, false});
        return results_.size() - 1;
    }

    void fail(const std::string& input, const std::string& kind, const std::string& message) {
        const size_t r = add_result(input, kind);
        results_[r].status = Status::Failed;
        results_[r].message = message;
        progress_.finished(results_[r]);
    }

    void skip(const std::string& input, const std::string& kind, const std::string& why) {
        const size_t r = add_result(input, kind);
        results_[r].message = why;
        progress_.finished(results_[r]);
    }

    manifest::FileNames& names_in(const fs::path& folder) { return names_[folder]; }

    std::vector<std::string> model_suffixes() const {
        std::vector<std::string> s{targets_.model_ext, ".sidecar.json"};
        if (targets_.model_ext == ".gltf") s.push_back(".bin");
        if (targets_.model_ext == ".obj") s.push_back(".mtl");
        return s;
    }

    // An archive to unpack: read without stopping at the first problem, but any error (a
    // payload outside the file, a cut-off directory) fails it; warnings do not.
    static nres::Archive read_archive(ByteView bytes, const std::string& where) {
        DiagnosticSink sink(ReadMode::Tolerant);
        nres::Archive ar = nres::read(bytes, sink, where);
        sink.throw_if_errors();
        return ar;
    }

    // Why an image with the NRes magic cannot be read.
    static std::string nres_error(ByteView bytes, const std::string& where) {
        try {
            read_archive(bytes, where);
        } catch (const std::exception& e) {
            return e.what();
        }
        return where + ": damaged NRes image";
    }

    static std::string stem_of(const std::string& name) {
        const auto dot = name.rfind('.');
        return dot == std::string::npos || dot == 0 ? name : name.substr(0, dot);
    }

    // The game libraries for models found in `dir`: --game-dir, else the nearest folder from
    // `dir` up to `root` holding Material.lib or Textures.lib, else `dir`. Opened once per folder.
    const mapping::MaterialLibraries* libraries_for(fs::path dir, const fs::path& root) {
        const auto known = libraries_by_dir_.find(dir);
        if (known != libraries_by_dir_.end()) return known->second;
        const fs::path asked = dir;
        if (vm_.count("game-dir")) {
            dir = vm_["game-dir"].as<std::string>();
        } else {
            // Paths as given (they end up in the exports' extras, as with `convert`).
            const fs::path stop = root.lexically_normal();
            for (fs::path probe = dir; !probe.empty(); probe = probe.parent_path()) {
                if (has_game_libraries(probe)) {
                    dir = probe;
                    break;
                }
                if (probe.lexically_normal() == stop || probe == probe.parent_path()) break;
            }
        }
        auto& slot = libraries_[dir];
        if (!slot) slot = std::make_unique<mapping::MaterialLibraries>(open_libraries(dir, vm_));
        return libraries_by_dir_[asked] = slot.get();
    }

    // `rel`: the file's folder relative to its input folder (mirrored below DIR).
    void file(const Address& address, const fs::path& rel, const fs::path& root) {
        const std::string where = address.display();
        Loaded in;
        try {
            in = load(address);
        } catch (const std::exception& e) {
            fail(where, "other", e.what());
            return;
        }
        const fs::path out_folder = out_dir_ / rel;
        const std::string leaf =
            address.entries.empty() ? address.file.filename().string() : address.entries.back();
        const std::string lower_leaf = lower_ascii(leaf);

        switch (sniff(in.bytes, {leaf, std::nullopt})) {
        case ContentKind::Terrain:
            if (targets_.model_ext.empty())
                return skip(where, "map", "maps convert to a model format");
            queue_loose(JobKind::Map, address, out_folder, stem_of(leaf), model_suffixes(), root);
            return;
        case ContentKind::Model:
            if (targets_.model_ext.empty())
                return skip(where, "model", "models convert to glb, gltf or obj");
            queue_loose(JobKind::Model, address, out_folder, stem_of(leaf), model_suffixes(), root);
            return;
        case ContentKind::ArealMap:
            return skip(where, "map", "areal map: converts with its Land.msh");
        case ContentKind::NResArchive: {
            nres::Archive ar;
            try {
                ar = read_archive(in.bytes, where);
            } catch (const std::exception& e) {
                return fail(where, "archive", e.what());
            }
            const std::string folder_name = names_in(out_folder).claim_for_entry(leaf, 0);
            if (!plan_archive(std::move(ar), address, out_folder / folder_name,
                              address.file.parent_path(), root, mirrors_, jobs_)) {
                // Nothing was claimed inside; the folder name stays reserved, which is harmless.
                return skip(where, "archive", "no entry converts to " + targets_.text);
            }
            // Archives wait in the queue so that the threads share the entries of several of
            // them (one large model no longer idles the other threads at each archive's end);
            // the queue is bounded by the bytes it holds.
            queued_bytes_ += in.bytes.size();
            if (queued_bytes_ >= kQueueBytes || jobs_.size() >= kQueueJobs) flush();
            return;
        }
        case ContentKind::DamagedNRes:
            return fail(where, "archive", nres_error(in.bytes, where));
        case ContentKind::Texm: {
            if (!targets_.png) return skip(where, "texture", "textures convert to png");
            const std::string stem =
                lower_leaf.ends_with(".texm") ? leaf.substr(0, leaf.size() - 5) : leaf;
            queue_loose(JobKind::Texture, address, out_folder, stem, {".png", ".sidecar.json"},
                        root);
            return;
        }
        case ContentKind::Wear:
            return skip(where, "other", "WEAR table: read with its model or map");
        default:
            break;
        }
        skip(where, "other", "not a model, map, texture or archive");
    }

    void queue_loose(JobKind kind, const Address& address, const fs::path& out_folder,
                     const std::string& stem, const std::vector<std::string>& suffixes,
                     const fs::path& root) {
        Job j;
        j.kind = kind;
        j.address = address;
        j.output = out_folder / (names_in(out_folder).claim_stem(stem, suffixes) + suffixes[0]);
        if (kind == JobKind::Model) {
            j.context.libraries = libraries_for(address.file.parent_path(), root);
            // The sibling WEAR is looked up in the job (it reads the parent archive or folder).
        }
        j.result = add_result(address.display(), kind_name(kind));
        jobs_.push_back(std::move(j));
        if (jobs_.size() >= kQueueJobs) flush();
    }

    // Plans the conversion of every convertible entry; false when none converts (nested
    // archives count when something inside them converts).
    bool plan_archive(nres::Archive ar, const Address& address, const fs::path& folder,
                      const fs::path& file_dir, const fs::path& root,
                      std::vector<std::unique_ptr<Mirror>>& mirrors, std::vector<Job>& jobs) {
        if (ar.verbatim_only) return false; // overlapping payloads: cannot be unpacked
        auto m = std::make_unique<Mirror>();
        m->address = address;
        m->folder = folder;
        m->archive = std::move(ar);
        const size_t n = m->archive.entries.size();
        m->payloads.assign(n, json::object());
        m->write_raw.assign(n, true);
        manifest::FileNames& names = names_in(folder);
        for (size_t i = 0; i < n; ++i)
            m->raw_names.push_back(names.claim_for_entry(m->archive.entries[i].name(), i));
        const size_t jobs_before = jobs.size();
        bool converts = false;
        std::vector<std::unique_ptr<Mirror>> nested;
        for (size_t i = 0; i < n; ++i) {
            const nres::Entry& e = m->archive.entries[i];
            Address ea = address;
            ea.entries.push_back(e.name());
            const std::string& raw = m->raw_names[i];
            Job j;
            j.address = ea;
            j.mirror = m.get();
            j.entry = i;
            const ContentKind kind = sniff(e.data, {raw, e.type});
            if (!targets_.model_ext.empty() &&
                (kind == ContentKind::Terrain || kind == ContentKind::Model)) {
                j.kind = kind == ContentKind::Terrain ? JobKind::Map : JobKind::Model;
                const std::string stem = names.claim_stem(stem_of(raw), model_suffixes());
                j.output = folder / (stem + targets_.model_ext);
                if (j.kind == JobKind::Model) {
                    j.context.wear = find_sibling_in(m->archive, address, model_wear_name(ea));
                    j.context.libraries = libraries_for(file_dir, root);
                }
                m->payloads[i] = {{"converted",
                                   {{"kind", kind_name(j.kind)},
                                    {"file", stem + targets_.model_ext},
                                    {"sidecar", stem + ".sidecar.json"}}}};
            } else if (targets_.png && kind == ContentKind::Texm) {
                j.kind = JobKind::Texture;
                const std::string stem = names.claim_stem(raw, {".png", ".sidecar.json"});
                j.output = folder / (stem + ".png");
                m->payloads[i] = {{"converted",
                                   {{"kind", "texture"},
                                    {"png", stem + ".png"},
                                    {"sidecar", stem + ".sidecar.json"}}}};
            } else if (kind == ContentKind::NResArchive) {
                nres::Archive inner;
                try {
                    inner = read_archive(e.data, ea.display());
                } catch (const std::exception& ex) {
                    fail(ea.display(), "archive", std::string(ex.what()) + " (kept raw)");
                    m->payloads[i] = {{"file", raw}};
                    continue;
                }
                if (plan_archive(std::move(inner), ea, folder / raw, file_dir, root, nested,
                                 jobs)) {
                    m->payloads[i] = {{"converted", {{"kind", "archive"}, {"folder", raw}}}};
                    m->write_raw[i] = false;
                    converts = true;
                } else {
                    m->payloads[i] = {{"file", raw}};
                }
                continue;
            } else {
                // A damaged nested image is a bad input: reported, and kept as it is.
                if (kind == ContentKind::DamagedNRes)
                    fail(ea.display(), "other", nres_error(e.data, ea.display()) + " (kept raw)");
                m->payloads[i] = {{"file", raw}};
                continue;
            }
            m->write_raw[i] = false;
            j.result = add_result(ea.display(), kind_name(j.kind));
            jobs.push_back(std::move(j));
            converts = true;
        }
        if (!converts) {
            jobs.resize(jobs_before);
            return false;
        }
        // Children first: a parent's manifest is written after its nested folders are complete.
        for (auto& c : nested) mirrors.push_back(std::move(c));
        mirrors.push_back(std::move(m));
        return true;
    }

    void run(std::vector<Job>& jobs) {
        const long count = long(jobs.size());
#pragma omp parallel for schedule(dynamic, 1)
        for (long i = 0; i < count; ++i) run_one(jobs[size_t(i)]);
    }

    void run_one(Job& j) {
        Result& r = results_[j.result];
        const auto start = Clock::now();
        r.output = fs::path(j.output).lexically_relative(out_dir_).generic_string();
        try {
            Loaded in;
            if (j.mirror) {
                in.address = j.address;
                in.bytes = j.mirror->archive.entries[j.entry].data;
            } else {
                in = load(j.address);
            }
            switch (j.kind) {
            case JobKind::Model:
                if (!j.mirror) j.context.wear = find_sibling(j.address, model_wear_name(j.address));
                export_model(in, j.output, vm_, &j.context);
                break;
            case JobKind::Map:
                export_terrain(in, j.output, vm_);
                break;
            case JobKind::Texture:
                export_texture(in, j.output, vm_);
                break;
            }
            r.status = Status::Converted;
        } catch (const std::exception& e) {
            r.status = Status::Failed;
            r.message = e.what();
            r.output.clear();
            if (j.mirror) { // the entry stays in the mirrored archive as a raw file
                j.mirror->payloads[j.entry] = {{"file", j.mirror->raw_names[j.entry]}};
                j.mirror->write_raw[j.entry] = true;
            }
        }
        r.seconds = seconds_since(start);
        progress_.finished(r);
    }

    void flush() {
        run(jobs_);
        finalize(mirrors_);
        jobs_.clear();
        mirrors_.clear();
        queued_bytes_ = 0;
    }

    // Raw files and manifests of the mirrored archives (children before parents).
    void finalize(std::vector<std::unique_ptr<Mirror>>& mirrors) {
        for (const auto& m : mirrors) {
            try {
                for (size_t i = 0; i < m->archive.entries.size(); ++i)
                    if (m->write_raw[i])
                        write_file_atomic(m->folder / m->raw_names[i], m->archive.entries[i].data);
                const std::string text =
                    manifest::make(m->archive, m->address.display(), m->payloads)
                        .dump(1, ' ', false, json::error_handler_t::replace) +
                    "\n";
                write_file_atomic(m->folder / manifest::kFileName, Bytes(text.begin(), text.end()));
            } catch (const std::exception& e) {
                fail(m->address.display(), "archive",
                     std::string("cannot write the unpacked archive: ") + e.what());
            }
        }
    }

    const Targets& targets_;
    fs::path out_dir_;
    const po::variables_map& vm_;
    Progress& progress_;
    std::vector<Result>& results_;
    // The queue: planned conversions and the archives they belong to.
    static constexpr size_t kQueueBytes = size_t(64) << 20;
    static constexpr size_t kQueueJobs = 4096;
    std::vector<Job> jobs_;
    std::vector<std::unique_ptr<Mirror>> mirrors_;
    size_t queued_bytes_ = 0;
    std::map<fs::path, manifest::FileNames> names_;
    std::map<fs::path, std::unique_ptr<mapping::MaterialLibraries>> libraries_; // by their folder
    std::map<fs::path, const mapping::MaterialLibraries*> libraries_by_dir_; // by a model's folder
};

// ---- reverse ---------------------------------------------------------------------------------

class Rebuild {
  public:
    Rebuild(Progress& progress, std::vector<Result>& results)
        : progress_(progress), results_(results) {}

    // The archive of an unpacked folder; nullopt when an entry failed (each failure reported).
    std::optional<Bytes> archive(const fs::path& folder, const std::string& out_display) {
        const std::string where = (folder / manifest::kFileName).string();
        json m;
        nres::Archive ar;
        try {
            m = manifest::load(folder);
            ar = manifest::parse(m, where);
        } catch (const std::exception& e) {
            fail(folder.string(), e.what());
            return std::nullopt;
        }
        const json& entries = m.at("entries");
        std::atomic<bool> ok{true};
        // Nested archives first, one after the other (each converts its own entries in
        // parallel); then this archive's entries in parallel. The report lines of a parallel
        // pass are all added before it starts.
        std::vector<size_t> flat;
        for (size_t i = 0; i < ar.entries.size(); ++i) {
            if (kind_of(entries[i]) != "archive") {
                flat.push_back(i);
                continue;
            }
            const std::string sub = entries[i]["converted"].at("folder").get<std::string>();
            std::optional<Bytes> inner =
                archive(folder / sub, out_display + ":" + ar.entries[i].name());
            if (inner)
                ar.entries[i].data = std::move(*inner);
            else
                ok = false;
        }
        const size_t first = results_.size();
        for (size_t i : flat)
            results_.push_back({(folder / describe(entries[i])).string(), kind_of(entries[i]),
                                out_display + ":" + ar.entries[i].name(), Status::Converted, "", 0,
                                false});
        const long count = long(flat.size());
#pragma omp parallel for schedule(dynamic, 1)
        for (long k = 0; k < count; ++k) {
            const size_t i = flat[size_t(k)];
            Result& r = results_[first + size_t(k)];
            const auto start = Clock::now();
            try {
                ar.entries[i].data = payload(folder, entries[i], r);
            } catch (const std::exception& e) {
                r.status = Status::Failed;
                r.message = e.what();
                ok = false;
            }
            r.seconds = seconds_since(start);
            if (r.kind != "raw" || r.status == Status::Failed) progress_.finished(r);
        }
        if (!ok) return std::nullopt;
        return nres::write(ar);
    }

  private:
    static std::string describe(const json& e) {
        if (e.contains("file")) return e["file"].get<std::string>();
        const json& c = e.at("converted");
        if (c.contains("png")) return c["png"].get<std::string>();
        if (c.contains("folder")) return c["folder"].get<std::string>();
        return c.at("file").get<std::string>();
    }

    static std::string kind_of(const json& e) {
        return e.contains("file") ? "raw" : e.at("converted").at("kind").get<std::string>();
    }

    Bytes payload(const fs::path& folder, const json& e, Result& r) {
        if (e.contains("file")) {
            r.unchanged = true;
            return read_file(folder / e["file"].get<std::string>());
        }
        const json& c = e.at("converted");
        const std::string kind = c.at("kind").get<std::string>();
        if (kind == "texture") {
            sidecar::TextureImport t =
                import_texture_files(folder / c.at("png").get<std::string>(),
                                     folder / c.at("sidecar").get<std::string>(), std::nullopt);
            r.unchanged = t.identical;
            return std::move(t.texm);
        }
        if (kind == "model") {
            pipeline::ModelImport m =
                import_model_files(folder / c.at("file").get<std::string>(),
                                   folder / c.at("sidecar").get<std::string>(), std::nullopt);
            r.unchanged = m.identical;
            return std::move(m.msh);
        }
        if (kind == "map")
            throw std::runtime_error("a map inside an archive cannot be rebuilt by batch yet; "
                                     "convert it back with `mshconv convert`");
        throw std::runtime_error("unknown converted kind '" + kind + "'");
    }

    void fail(const std::string& input, const std::string& message) {
        results_.push_back({input, "archive", "", Status::Failed, message, 0, false});
        progress_.finished(results_.back());
    }

    Progress& progress_;
    std::vector<Result>& results_;
};

// Folders holding a manifest below `dir` (not looking inside them: nested archives belong to
// their parent).
void find_unpacked(const fs::path& dir, std::vector<fs::path>& out) {
    if (fs::exists(dir / manifest::kFileName)) {
        out.push_back(dir);
        return;
    }
    std::vector<fs::path> subdirs;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec))
        if (e.is_directory(ec)) subdirs.push_back(e.path());
    std::sort(subdirs.begin(), subdirs.end());
    for (const fs::path& d : subdirs) find_unpacked(d, out);
}

void rebuild_all(const std::vector<std::string>& inputs, const fs::path& out, Progress& progress,
                 std::vector<Result>& results) {
    Rebuild rebuild(progress, results);
    for (const std::string& in : inputs) {
        std::error_code ec;
        if (!fs::is_directory(in, ec))
            throw UsageError("--to nres rebuilds archives from folders written by batch; '" + in +
                             "' is not a folder");
        const bool single = fs::exists(fs::path(in) / manifest::kFileName);
        if (single && inputs.size() > 1)
            throw UsageError("with several inputs, -o is a folder: give the folders above the "
                             "unpacked archives");
        std::vector<fs::path> folders;
        find_unpacked(in, folders);
        if (folders.empty()) {
            results.push_back(
                {in, "archive", "", Status::Failed,
                 "no unpacked archive (no " + std::string(manifest::kFileName) + ") in this folder",
                 0, false});
            progress.finished(results.back());
        }
        for (const fs::path& folder : folders) {
            fs::path target = out;
            if (!single)
                target = out / folder.lexically_relative(in);
            else if (fs::is_directory(out, ec))
                target = out / fs::path(in).filename();
            const auto start = Clock::now();
            const size_t line = results.size();
            results.push_back(
                {folder.string(), "archive", target.string(), Status::Converted, "", 0, false});
            std::optional<Bytes> bytes = rebuild.archive(folder, target.string());
            Result& r = results[line];
            if (bytes) {
                try {
                    write_file_atomic(target, *bytes);
                } catch (const std::exception& e) {
                    r.status = Status::Failed;
                    r.message = e.what();
                }
            } else {
                r.status = Status::Failed;
                r.message = "not written: entries failed";
            }
            r.seconds = seconds_since(start);
            progress.finished(r);
        }
    }
}

} // namespace

int run_batch(const Args& args) {
    po::options_description desc("batch options");
    desc.add_options()("input", po::value<std::vector<std::string>>()->required(),
                       "folders, archives, files or archive:entry")(
        "output,o", po::value<std::string>()->required(),
        "output folder (--to nres with one unpacked archive: the archive file)")(
        "to", po::value<std::string>()->required(),
        "glb | gltf | obj (models, maps) and/or png (textures), comma-separated; or nres "
        "(rebuild archives from batch output)")("jobs,j", po::value<int>(),
                                                "threads (default: all cores)")(
        "report", po::value<std::string>(), "write a JSON summary of every item")(
        "progress", "status line on stderr also when it is not a terminal")(
        "lod", po::value<std::string>()->default_value("0"), "models: LOD 0..2 or all")(
        "group", po::value<std::string>()->default_value("0"), "models: slot group 0..4 or all")(
        "fps", po::value<double>(), "models: frames per second of key times (default 24)")(
        "skin", "models (glTF): one skinned mesh per LOD/group")(
        "msft-lod", "models (glTF) with --lod all: the MSFT_lod extension")(
        "game-dir", po::value<std::string>(),
        "folder with Material.lib, Textures.lib, palettes.lib, LightMap.lib (default: the "
        "nearest folder above each input holding them)")("mips",
                                                         "textures: also write every mip level")(
        "areal-faces", "maps to OBJ: also write the areals as filled faces");
    po::positional_options_description pos;
    pos.add("input", -1);
    po::variables_map vm;
    if (!parse_options(args, "batch IN... -o DIR --to FMT[,FMT] [options]", desc, pos, vm))
        return 0;

    const Targets targets = parse_targets(vm["to"].as<std::string>());
    const std::vector<std::string> inputs = vm["input"].as<std::vector<std::string>>();
    const fs::path out = vm["output"].as<std::string>();
    if (vm.count("jobs")) {
        const int n = vm["jobs"].as<int>();
        if (n < 1) throw UsageError("-j must be at least 1");
        omp_set_num_threads(n);
    }
    if (!targets.model_ext.empty())
        model_export_settings(vm, "model" + targets.model_ext); // usage errors now
    if (vm.count("game-dir") && !fs::is_directory(vm["game-dir"].as<std::string>()))
        throw UsageError("--game-dir is not a folder: " + vm["game-dir"].as<std::string>());

    const auto start = Clock::now();
    Progress progress(vm.count("progress") > 0);
    std::vector<Result> results;
    if (targets.nres) {
        rebuild_all(inputs, out, progress, results);
    } else {
        Forward forward(targets, out, vm, progress, results);
        for (const std::string& in : inputs) forward.input(in);
        forward.finish();
    }
    progress.end();
    const double seconds = seconds_since(start);

    std::map<std::string, size_t> converted_by_kind;
    size_t converted = 0, failed = 0, skipped = 0, unchanged = 0;
    json items = json::array();
    for (const Result& r : results) {
        // Reverse: raw entries are copied, not converted (reported only when they fail).
        if (r.kind == "raw" && r.status != Status::Failed) continue;
        converted += r.status == Status::Converted;
        failed += r.status == Status::Failed;
        skipped += r.status == Status::Skipped;
        if (r.status == Status::Converted) ++converted_by_kind[r.kind];
        json item = {{"input", r.input}, {"kind", r.kind}, {"status", status_name(r.status)}};
        if (!r.output.empty()) item["output"] = r.output;
        if (!r.message.empty()) item[r.status == Status::Failed ? "error" : "reason"] = r.message;
        if (r.status == Status::Converted) item["seconds"] = r.seconds;
        if (targets.nres && r.status == Status::Converted && r.kind != "archive") {
            item["unchanged"] = r.unchanged;
            unchanged += r.unchanged;
        }
        items.push_back(std::move(item));
    }
    if (vm.count("report")) {
        json report = {{"schema", "mshconv-batch/1"},
                       {"to", targets.text},
                       {"inputs", inputs},
                       {"output", out.string()},
                       {"threads", omp_get_max_threads()},
                       {"seconds", seconds},
                       {"converted", converted},
                       {"converted_by_kind", converted_by_kind},
                       {"failed", failed},
                       {"skipped", skipped},
                       {"items", items}};
        if (targets.nres) report["unchanged"] = unchanged;
        // Messages may quote damaged (non-UTF-8) bytes.
        const std::string text = report.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
        write_file_atomic(vm["report"].as<std::string>(), Bytes(text.begin(), text.end()));
    }
    spdlog::log(failed ? spdlog::level::err : spdlog::level::info,
                "batch: {} converted, {} failed, {} skipped in {:.2f} s{}", converted, failed,
                skipped, seconds,
                vm.count("report") ? ""
                : failed           ? " (details: --report R.json)"
                                   : "");
    return failed ? 1 : 0;
}

} // namespace msh::cli
