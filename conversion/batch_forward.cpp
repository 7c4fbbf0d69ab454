#include "batch_forward.hpp"

#include "game_files.hpp"

#include "batch_inputs.hpp"
#include "batch_mirror.hpp"
#include "convert.hpp"
#include "nres_manifest.hpp"

#include "formats/diagnostics.hpp"
#include "formats/file_io.hpp"
#include "formats/names.hpp"
#include "formats/nres.hpp"
#include "formats/sniff.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <utility>

namespace msh::conversion {

namespace fs = std::filesystem;
using nlohmann::json;

Targets targets_of(const mshconv::BatchFormats& formats) {
    using mshconv::BatchFormat;
    Targets t;
    t.text = mshconv::to_string(formats);
    for (BatchFormat f : formats) {
        switch (f) {
        case BatchFormat::Glb:
        case BatchFormat::Gltf:
        case BatchFormat::Obj:
            if (!t.model_ext.empty()) throw UsageError("--to names two model formats: " + t.text);
            t.model_ext = "." + mshconv::to_string({f});
            break;
        case BatchFormat::Png:
            t.png = true;
            break;
        case BatchFormat::Nres:
            t.nres = true;
            break;
        case BatchFormat::Preview:
            t.preview = true;
            break;
        }
    }
    if (t.nres && (t.png || !t.model_ext.empty() || t.preview))
        throw UsageError("--to nres rebuilds archives and cannot be combined with other formats");
    if (t.preview && (t.png || !t.model_ext.empty()))
        throw UsageError("--to preview makes thumbnails and cannot be combined with other formats");
    return t;
}

namespace {

enum class JobKind { Model, Map, Texture, Level };

const char* kind_name(JobKind k) {
    switch (k) {
    case JobKind::Model:
        return "model";
    case JobKind::Map:
        return "map";
    case JobKind::Texture:
        return "texture";
    case JobKind::Level:
        return "level";
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

    // The mapped pages of the entries converted so far leave the resident set in runs of at
    // least kReleaseRun bytes, not entry by entry: in a process with two threads each release
    // flushes the other core's TLB, and one madvise per entry (5,000 on the game corpus) cost a
    // quarter of a `-j 2` batch (1.56 -> 1.19 s without any; peak RSS 98 -> 146 MB). The pages
    // between entries that are not converted yet go too: read again from the page cache.
    void release_converted(ByteView entry) {
        static constexpr size_t kReleaseRun = size_t(4) << 20, kJoinGap = size_t(64) << 10;
        // Addresses as integers: a run's end plus the gap may lie past the mapping.
        std::vector<std::pair<uintptr_t, uintptr_t>> runs;
        {
            const std::lock_guard lock(release_mutex_);
            const uintptr_t from = reinterpret_cast<uintptr_t>(entry.data());
            converted_.push_back({from, from + entry.size()});
            converted_bytes_ += entry.size();
            if (converted_bytes_ < kReleaseRun) return;
            std::sort(converted_.begin(), converted_.end());
            for (const auto& [lo, hi] : converted_)
                if (!runs.empty() && lo <= runs.back().second + kJoinGap)
                    runs.back().second = std::max(runs.back().second, hi);
                else
                    runs.push_back({lo, hi});
            converted_.clear();
            converted_bytes_ = 0;
        }
        // A run over entries copied to memory (an archive not mapped) is left alone.
        for (const auto& [lo, hi] : runs)
            release_mapped_pages(ByteView(reinterpret_cast<const uint8_t*>(lo), hi - lo));
    }

  private:
    std::mutex release_mutex_;
    std::vector<std::pair<uintptr_t, uintptr_t>> converted_;
    size_t converted_bytes_ = 0;
};

struct ItemJob {
    JobKind kind = JobKind::Model;
    Address address;
    fs::path output;
    ModelExportContext context;
    size_t result = 0;
    Mirror* mirror = nullptr; // archive entry: its archive (null for loose files)
    size_t entry = 0;
    // A loose file: its mirror record, and where it is copied as it is when it fails.
    size_t record = 0;
    fs::path raw_copy;
};

class Forward {
  public:
    Forward(BatchRun& run, const fs::path& out_dir)
        : run_(run), io_(run.io), targets_(run.targets), out_dir_(out_dir), job_(run.job),
          shard_(run.shard), progress_(run.progress), results_(run.results) {}

    // A folder, an archive, a file or an archive entry: its files become units of work.
    void input(const std::string& spec) {
        if (!io_.is_folder(spec) && !parse_address(io_, spec).entries.empty())
            whole_tree_ = false; // one entry: no mirror of whole files
        if (const std::string error = add_batch_input(io_, spec, out_dir_, units_); !error.empty())
            fail(spec, "other", error);
    }

    // Converts this job's share of the units; writes the mirror manifest (one per shard) when
    // every input was whole.
    void finish() {
        const std::vector<bool> mine = shard_units(io_, units_, shard_);
        size_t expected = results_.size(); // inputs that failed already
        for (size_t i = 0; i < units_.size(); ++i)
            if (mine[i]) expected += expected_items(units_[i].address);
        progress_.expect(expected);
        for (size_t i = 0; i < units_.size(); ++i)
            if (mine[i]) file(units_[i].address, units_[i].rel, units_[i].root);
        flush();
        if (whole_tree_ && !records_.empty())
            write_mirror(io_, out_dir_, records_, results_, shard_);
    }

  private:
    size_t add_result(const std::string& input, const std::string& kind) {
        results_.push_back(report_line(input, kind, "", Status::Skipped, ""));
        return results_.size() - 1;
    }

    void fail(const std::string& input, const std::string& kind, const std::string& message,
              const std::string& output = {}) {
        const size_t r = add_result(input, kind);
        results_[r].status = Status::Failed;
        results_[r].message = message;
        results_[r].output = output;
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
    // Its entries are views into `bytes` (kept alive with it).
    static nres::Archive read_archive(const Payload& bytes, const std::string& where) {
        DiagnosticSink sink(ReadMode::Tolerant);
        nres::Archive ar = nres::read(bytes, sink, where, bytes.keeper());
        sink.throw_if_errors();
        return ar;
    }

    // Why an image with the NRes magic cannot be read.
    static std::string nres_error(const Payload& bytes, const std::string& where) {
        try {
            read_archive(bytes, where);
        } catch (const std::exception& e) {
            return e.what();
        }
        return where + ": damaged NRes image";
    }

    static std::string file_stem_of(const fs::path& p) { return p.stem().string(); }

    // The game libraries for models found in `dir`: --game-dir, else the nearest folder from
    // `dir` up to `root` holding Material.lib or Textures.lib, else `dir`. Opened once per folder.
    const mapping::MaterialLibraries* libraries_for(const fs::path& asked, const fs::path& root) {
        const auto known = libraries_by_dir_.find(asked);
        if (known != libraries_by_dir_.end()) return known->second;
        const fs::path dir = library_folder(io_, asked, root, run_.options);
        auto& slot = libraries_[dir];
        if (!slot) {
            slot = std::make_unique<mapping::MaterialLibraries>(open_libraries(job_, dir));
            slot->texture_cache = std::make_shared<mapping::TextureCache>(); // shared by models
        }
        return libraries_by_dir_[asked] = slot.get();
    }

    // The report lines `address` will give, for the progress total: one per converted entry of
    // an archive (nested ones included), else one. Only the directories are read.
    size_t expected_items(const Address& address) const {
        try {
            const Loaded in = load(io_, address);
            const std::string leaf =
                address.entries.empty() ? address.file.filename().string() : address.entries.back();
            if (sniff(in.bytes, {leaf, std::nullopt}) != ContentKind::NResArchive) return 1;
            const size_t n = converted_entries(read_archive(in.bytes, address.display()));
            release_mapped_pages(in.bytes);
            return std::max<size_t>(n, 1);
        } catch (const std::exception&) {
            return 1;
        }
    }

    size_t converted_entries(const nres::Archive& ar) const {
        if (ar.verbatim_only) return 0;
        size_t n = 0;
        for (const nres::Entry& e : ar.entries) {
            const ContentKind kind = sniff(e.data, {e.name(), e.type});
            if (kind == ContentKind::NResArchive) {
                try {
                    n += converted_entries(read_archive(e.data, e.name()));
                } catch (const std::exception&) {
                    ++n;
                }
            } else {
                n += kind == ContentKind::DamagedNRes ||
                     (!targets_.model_ext.empty() &&
                      (kind == ContentKind::Terrain || kind == ContentKind::Model)) ||
                     (targets_.png && kind == ContentKind::Texm);
            }
        }
        return n;
    }

    // `rel`: the file's folder relative to its input folder (mirrored below DIR).
    void file(const Address& address, const fs::path& rel, const fs::path& root) {
        const std::string where = address.display();
        Loaded in;
        try {
            in = load(io_, address);
        } catch (const std::exception& e) {
            fail(where, "other", e.what());
            return;
        }
        const fs::path out_folder = out_dir_ / rel;
        const std::string leaf =
            address.entries.empty() ? address.file.filename().string() : address.entries.back();
        const std::string lower_leaf = lower_ascii(leaf);
        mirror_path_ = (rel / leaf).generic_string();
        // Not converted, yet part of the tree: copied as it is (named `claimed`, else like the
        // input), so the mirror stays whole. Returns the copy's path below DIR.
        auto copy_as_is = [&](std::string claimed) {
            if (claimed.empty()) claimed = names_in(out_folder).claim_for_entry(leaf, 0);
            const fs::path copy = out_folder / claimed;
            write_files(io_, {{copy, in.bytes}});
            records_.push_back({mirror_path_, "raw", relative(copy), {}, MirrorRecord().result});
            return relative(copy);
        };
        auto copy_raw = [&](const std::string& kind, const std::string& why,
                            const std::string& claimed = {}) {
            const size_t r = add_result(where, kind);
            try {
                results_[r].output = copy_as_is(claimed);
                results_[r].message = why + "; copied as it is";
            } catch (const std::exception& e) {
                results_[r].status = Status::Failed;
                results_[r].message = e.what();
            }
            progress_.finished(results_[r]);
        };
        // A damaged input: a failure, and copied as it is so that the way back gives it back.
        auto fail_copied = [&](const std::string& kind, const std::string& message) {
            try {
                fail(where, kind, message + " (copied as it is)", copy_as_is({}));
            } catch (const std::exception& e) {
                fail(where, kind, message + "; not copied: " + e.what());
            }
        };

        switch (sniff(in.bytes, {leaf, std::nullopt})) {
        case ContentKind::Terrain:
            if (targets_.model_ext.empty())
                return copy_raw("map", "maps convert to a model format");
            queue_loose(JobKind::Map, address, out_folder, leaf, name_stem(leaf), model_suffixes(),
                        root);
            return;
        case ContentKind::Model:
            if (targets_.model_ext.empty())
                return copy_raw("model", "models convert to glb, gltf or obj");
            queue_loose(JobKind::Model, address, out_folder, leaf, name_stem(leaf),
                        model_suffixes(), root);
            return;
        case ContentKind::ArealMap:
            // Beside a Land.msh that converts, the map travels in its sidecar.
            if (!targets_.model_ext.empty() && address.entries.empty() &&
                find_file_ci(address.file.parent_path(), "Land.msh", io_)) {
                records_.push_back({mirror_path_, "map_part", {}, {}, MirrorRecord().result});
                return skip(where, "map", "areal map: converts with its Land.msh");
            }
            return copy_raw("map", "areal map without a Land.msh to convert with");
        case ContentKind::NResArchive: {
            nres::Archive ar;
            try {
                ar = read_archive(in.bytes, where);
            } catch (const std::exception& e) {
                return fail_copied("archive", e.what());
            }
            const std::string folder_name = names_in(out_folder).claim_for_entry(leaf, 0);
            if (!plan_archive(std::move(ar), address, out_folder / folder_name,
                              address.file.parent_path(), root, mirrors_, jobs_)) {
                // Nothing was written inside: the archive itself takes the name it reserved.
                return copy_raw("archive", "no entry converts to " + targets_.text, folder_name);
            }
            records_.push_back({mirror_path_,
                                "archive",
                                relative(out_folder / folder_name),
                                {},
                                MirrorRecord().result});
            // Planning sniffed every entry, and the kernel mapped the pages around each: they
            // leave the resident set until a job reads its entry.
            release_mapped_pages(in.bytes);
            // Archives wait in the queue so that the threads share the entries of several of
            // them (one large model no longer idles the other threads at each archive's end);
            // the queue is bounded by the bytes it holds.
            queued_bytes_ += in.bytes.size();
            if (queued_bytes_ >= kQueueBytes || jobs_.size() >= kQueueJobs) flush();
            return;
        }
        case ContentKind::DamagedNRes:
            return fail_copied("archive", nres_error(in.bytes, where));
        case ContentKind::Texm: {
            if (!targets_.png) return copy_raw("texture", "textures convert to png");
            const std::string stem =
                lower_leaf.ends_with(".texm") ? leaf.substr(0, leaf.size() - 5) : leaf;
            queue_loose(JobKind::Texture, address, out_folder, leaf, stem,
                        {".png", ".sidecar.json"}, root);
            return;
        }
        case ContentKind::Wear:
            return copy_raw("other", "WEAR table: read with its model or map");
        case ContentKind::Mission:
            if (targets_.model_ext.empty())
                return copy_raw("level", "levels convert to a model format");
            if (!address.entries.empty())
                return copy_raw("level", "a level inside an archive does not convert");
            queue_loose(JobKind::Level, address, out_folder, leaf, name_stem(leaf),
                        model_suffixes(), root);
            return;
        default:
            break;
        }
        // A game file by its name that is none of them is damaged (a broken magic, an empty
        // archive): a failure, never a silent skip. Anything else is not ours to convert.
        for (const char* ext : {".rlb", ".lib", ".msh", ".map", ".texm"})
            if (lower_leaf.ends_with(ext))
                return fail_copied(
                    "other",
                    where + ": not a readable " + std::string(ext + 1) + " file (" +
                        (in.bytes.empty() ? std::string("empty") : "no NRes or Texm magic") + ")");
        copy_raw("other", "not a model, map, texture or archive");
    }

    std::string relative(const fs::path& p) const {
        return p.lexically_relative(out_dir_).generic_string();
    }

    void queue_loose(JobKind kind, const Address& address, const fs::path& out_folder,
                     const std::string& leaf, const std::string& stem,
                     const std::vector<std::string>& suffixes, const fs::path& root) {
        ItemJob j;
        j.kind = kind;
        j.address = address;
        j.output = out_folder / (names_in(out_folder).claim_stem(stem, suffixes) + suffixes[0]);
        j.raw_copy = out_folder / names_in(out_folder).claim_for_entry(leaf, 0);
        if (kind == JobKind::Model || kind == JobKind::Map) {
            j.context.libraries = libraries_for(address.file.parent_path(), root);
            // The sibling WEAR is looked up in the job (it reads the parent archive or folder).
        }
        j.result = add_result(address.display(), kind_name(kind));
        const fs::path sidecar = out_folder / (file_stem_of(j.output) + ".sidecar.json");
        j.record = records_.size();
        records_.push_back(
            {mirror_path_, kind_name(kind), relative(j.output), relative(sidecar), j.result});
        jobs_.push_back(std::move(j));
        if (jobs_.size() >= kQueueJobs) flush();
    }

    // Plans the conversion of every convertible entry; false when none converts (nested
    // archives count when something inside them converts).
    bool plan_archive(nres::Archive ar, const Address& address, const fs::path& folder,
                      const fs::path& file_dir, const fs::path& root,
                      std::vector<std::unique_ptr<Mirror>>& mirrors, std::vector<ItemJob>& jobs) {
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
            ea.entries.push_back(e.display_name());
            const std::string& raw = m->raw_names[i];
            ItemJob j;
            j.address = ea;
            j.mirror = m.get();
            j.entry = i;
            const ContentKind kind = sniff(e.data, {raw, e.type});
            if (!targets_.model_ext.empty() &&
                (kind == ContentKind::Terrain || kind == ContentKind::Model)) {
                j.kind = kind == ContentKind::Terrain ? JobKind::Map : JobKind::Model;
                const std::string stem = names.claim_stem(name_stem(raw), model_suffixes());
                j.output = folder / (stem + targets_.model_ext);
                if (j.kind == JobKind::Model)
                    j.context.wear = find_sibling_in(m->archive, address, model_wear_name(ea));
                j.context.libraries = libraries_for(file_dir, root);
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
                    fail(ea.display(), "archive", std::string(ex.what()) + " (kept raw)",
                         relative(folder / raw));
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
                    fail(ea.display(), "other", nres_error(e.data, ea.display()) + " (kept raw)",
                         relative(folder / raw));
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

    void run(std::vector<ItemJob>& jobs) {
        const long count = long(jobs.size());
#pragma omp parallel for schedule(dynamic, 1) num_threads(run_.threads)
        for (long i = 0; i < count; ++i) run_one(jobs[size_t(i)]);
    }

    void run_one(ItemJob& j) {
        Result& r = results_[j.result];
        const auto start = Clock::now();
        r.output = relative(j.output);
        KeptWarnings warnings;
        const Job job = run_.item_job(warnings);
        Loaded in;
        bool loaded = false;
        try {
            if (j.mirror) {
                in.address = j.address;
                in.bytes = j.mirror->archive.entries[j.entry].data;
            } else {
                in = load(io_, j.address);
            }
            loaded = true;
            switch (j.kind) {
            case JobKind::Model:
                if (!j.mirror)
                    j.context.wear = find_sibling(io_, j.address, model_wear_name(j.address));
                export_model(job, in, j.output, &j.context);
                break;
            case JobKind::Map:
                export_terrain(job, in, j.output, j.context.libraries);
                break;
            case JobKind::Texture:
                export_texture(job, in, j.output);
                break;
            case JobKind::Level:
                export_level(job, in, j.output);
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
                r.output = relative(j.mirror->folder / j.mirror->raw_names[j.entry]);
            } else if (loaded) { // the file is copied as it is: the mirror stays whole
                keep_raw(j, in.bytes, r);
            }
        }
        r.warnings = warnings.texts();
        if (j.mirror) j.mirror->release_converted(j.mirror->archive.entries[j.entry].data);
        r.seconds = seconds_since(start);
        progress_.finished(r);
    }

    // A loose file that failed: its copy takes its place in the mirror.
    void keep_raw(const ItemJob& j, ByteView bytes, Result& r) {
        try {
            write_files(io_, {{j.raw_copy, bytes}});
        } catch (const std::exception& e) {
            r.message += std::string("; not copied: ") + e.what();
            return;
        }
        r.output = relative(j.raw_copy);
        r.message += " (copied as it is)";
        MirrorRecord& m = records_[j.record];
        m = {m.path, "raw", r.output, {}, MirrorRecord().result};
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
                        write_files(io_,
                                    {{m->folder / m->raw_names[i], m->archive.entries[i].data}});
                const std::string text =
                    manifest::make(m->archive, m->address.display(), m->payloads)
                        .dump(1, ' ', false, json::error_handler_t::replace) +
                    "\n";
                write_files(
                    io_, {{m->folder / manifest::kFileName,
                           ByteView(reinterpret_cast<const uint8_t*>(text.data()), text.size())}});
            } catch (const std::exception& e) {
                fail(m->address.display(), "archive",
                     std::string("cannot write the unpacked archive: ") + e.what());
            }
        }
    }

    BatchRun& run_;
    mshconv::Io& io_;
    const Targets& targets_;
    fs::path out_dir_;
    const Job& job_;
    const Shard shard_;
    std::vector<BatchUnit> units_;
    Progress& progress_;
    std::vector<Result>& results_;
    // The queue: planned conversions and the archives they belong to.
    static constexpr size_t kQueueBytes = size_t(64) << 20;
    static constexpr size_t kQueueJobs = 4096;
    std::vector<ItemJob> jobs_;
    std::vector<std::unique_ptr<Mirror>> mirrors_;
    size_t queued_bytes_ = 0;
    std::map<fs::path, manifest::FileNames> names_;
    // The mirror manifest: every whole input file and what stands for it in the output.
    std::vector<MirrorRecord> records_;
    std::string mirror_path_; // of the file being planned
    bool whole_tree_ = true;  // false when an input is one archive entry
    std::map<fs::path, std::unique_ptr<mapping::MaterialLibraries>> libraries_; // by their folder
    std::map<fs::path, const mapping::MaterialLibraries*> libraries_by_dir_; // by a model's folder
};

} // namespace

void convert_forward(BatchRun& run, const std::vector<std::string>& inputs, const fs::path& out) {
    Forward forward(run, out);
    for (const std::string& in : inputs) forward.input(in);
    forward.finish();
}

} // namespace msh::conversion
