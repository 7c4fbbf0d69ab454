#include "batch_preview.hpp"

#include "batch_inputs.hpp"
#include "convert.hpp"
#include "preview.hpp"
#include "preview_gallery.hpp"
#include "viewer_bundle.hpp"

#include "formats/content_hash.hpp"
#include "formats/diagnostics.hpp"
#include "formats/file_io.hpp"
#include "formats/nres.hpp"
#include "formats/png.hpp"
#include "formats/sniff.hpp"
#include "game_files.hpp"
#include "nres_manifest.hpp"
#include "outputs.hpp"
#include "preview_view.hpp"
#include "render/text.hpp"
#include "sidecar/base64.hpp"
#include "sidecar/model_sidecar.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>

namespace msh::conversion {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

struct Asset {
    Address address;
    std::string kind; // model, map, texture
    std::string name; // output path below DIR without ".png"
    bool in_archive = false;
    // The entry in `archive`: its payload is copied in the job (loose files are read there).
    size_t entry_index = 0;
    std::shared_ptr<const nres::Archive> archive; // the entry's archive (its WEAR siblings)
    Address archive_address;
    const mapping::MaterialLibraries* libraries = nullptr;
    uint64_t libraries_hash = 0;
    size_t result = 0;
    size_t size = 0; // input bytes: the jobs start with the largest (a big model last would
                     // leave the other threads idle)
    json entry;      // the index.json entry, filled by the job
};

// The background as the options name it: "transparent" or "#rrggbb".
std::string background_text(const std::optional<std::array<uint8_t, 3>>& rgb) {
    if (!rgb) return "transparent";
    char text[8];
    std::snprintf(text, sizeof text, "#%02x%02x%02x", (*rgb)[0], (*rgb)[1], (*rgb)[2]);
    return text;
}

uint64_t mix(uint64_t h, uint64_t v) {
    return (h ^ v) * 0x100000001b3ULL + 0x9e3779b97f4a7c15ULL;
}

uint64_t hash_text(const std::string& s) {
    return content_hash(ByteView(reinterpret_cast<const uint8_t*>(s.data()), s.size()));
}

// The tile of an asset that could not be drawn: grey, a red cross, "ERROR".
Bytes placeholder(int w, int h) {
    texm::Image img{uint32_t(w), uint32_t(h)};
    render::fill_rect(img, 0, 0, w, h, {224, 224, 224, 255});
    const int n = std::min(w, h);
    for (int t = 0; t < n; ++t)
        for (int k = -1; k <= 1; ++k) {
            const int x0 = (w - n) / 2 + t, y0 = (h - n) / 2 + t + k;
            const int x1 = (w - n) / 2 + n - 1 - t;
            render::fill_rect(img, x0, y0, 1, 1, {200, 40, 40, 255});
            render::fill_rect(img, x1, y0, 1, 1, {200, 40, 40, 255});
        }
    const int scale = w >= 384 ? 2 : 1;
    render::draw_label(img, 4 * scale, 4 * scale, "ERROR", scale, {255, 255, 255, 255},
                       {200, 40, 40, 255});
    return png::encode_rgba(img);
}

class PreviewBatch {
  public:
    PreviewBatch(BatchRun& run, const fs::path& out)
        : run_(run), io_(run.io), out_(out), job_(run.job), shard_(run.shard),
          progress_(run.progress), results_(run.results),
          settings_(preview_settings(run.options.preview, readings_of(run.options.convert))),
          force_(run.options.force), views_(run.options.views) {
        const mshconv::PreviewOptions& o = run.options.preview;
        options_ = {{"size", {settings_.width, settings_.height}},
                    {"view", settings_.view.empty() ? "default" : settings_.view},
                    {"lod", settings_.lod},
                    {"group", settings_.group},
                    {"overlay", mshconv::to_string(o.overlay)},
                    {"background", background_text(o.background)},
                    {"samples", settings_.samples_per_side}};
        if (settings_.frame) options_["frame"] = *settings_.frame;
        if (settings_.strip) options_["strip"] = settings_.strip;
        if (settings_.turntable) options_["turntable"] = settings_.turntable;
        if (settings_.both_sides) options_["both_sides"] = true;
        if (views_ && !viewer_built()) {
            // A build without Node: thumbnails only, and the gallery's options say why.
            views_ = false;
            options_["viewer"] = std::string(kViewerMissing);
            run.job.warn("the gallery has no interactive views: " + std::string(kViewerMissing));
        }
        options_["views"] = views_;
        options_hash_ = hash_text(options_.dump() + std::string(MSHCONV_VERSION));
    }

    void input(const std::string& spec) {
        if (const std::string error = add_batch_input(io_, spec, out_, units_); !error.empty())
            fail(spec, "other", error);
    }

    PreviewRun finish() {
        const std::vector<bool> mine = shard_units(io_, units_, shard_);
        for (size_t i = 0; i < units_.size(); ++i) {
            if (!mine[i]) continue;
            try {
                plan(units_[i]);
            } catch (const std::exception& e) { // an archive too damaged to list its entries
                fail(units_[i].address.display(), "archive", e.what());
            }
        }
        const long count = long(assets_.size());
        std::vector<size_t> order(assets_.size());
        for (size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::stable_sort(order.begin(), order.end(),
                         [&](size_t x, size_t y) { return assets_[x].size > assets_[y].size; });
        texture_cache_ = std::make_unique<PreviewTextureCache>();
        progress_.expect(results_.size()); // every asset planned, and the inputs that failed
#pragma omp parallel for schedule(dynamic, 1) num_threads(run_.threads)
        for (long i = 0; i < count; ++i) run(assets_[order[size_t(i)]]);
        write_index();
        return {unchanged_};
    }

  private:
    void fail(const std::string& input, const std::string& kind, const std::string& message) {
        results_.push_back(report_line(input, kind, "", Status::Failed, message));
        progress_.finished(results_.back());
    }

    // The game libraries for assets in `dir`: --game-dir, else the nearest folder from `dir` up
    // to `root` holding them; opened once per folder, with the hash of their bytes (a changed
    // texture redoes the previews).
    std::pair<const mapping::MaterialLibraries*, uint64_t> libraries_for(const fs::path& dir,
                                                                         const fs::path& root) {
        const fs::path found = library_folder(io_, dir, root, run_.options);
        auto& slot = libraries_[found];
        if (!slot.first) {
            slot.first = std::make_unique<mapping::MaterialLibraries>(open_libraries(job_, found));
            slot.first->texture_cache = std::make_shared<mapping::TextureCache>(); // shared
            uint64_t h = 0;
            for (const char* name : {"Material.lib", "Textures.lib"})
                if (const auto f = find_file_ci(found, name, io_)) {
                    try {
                        const mshconv::FileBytes file = io_.read(*f); // not copied
                        h = mix(h, content_hash(file.bytes));
                    } catch (const std::exception&) {
                    }
                }
            slot.second = h;
        }
        return {slot.first.get(), slot.second};
    }

    std::string claim(const fs::path& folder, const std::string& leaf, size_t index) {
        manifest::FileNames& names = names_[folder];
        const std::string safe = names.claim_for_entry(leaf, index);
        return (folder / safe).generic_string();
    }

    void add(Asset a) {
        a.result = results_.size();
        results_.push_back(report_line(a.address.display(), a.kind, "", Status::Skipped, ""));
        assets_.push_back(std::move(a));
    }

    void plan(const BatchUnit& u) {
        const std::string where = u.address.display();
        Loaded in;
        try {
            in = load(io_, u.address);
        } catch (const std::exception& e) {
            return fail(where, "other", e.what());
        }
        const std::string leaf = u.address.entries.empty() ? u.address.file.filename().string()
                                                           : u.address.entries.back();
        const ContentKind kind = sniff(in.bytes, {leaf, std::nullopt});
        const auto [libs, libs_hash] = libraries_for(u.address.file.parent_path(), u.root);
        Asset a;
        a.address = u.address;
        a.size = in.bytes.size();
        a.name = claim(u.rel, leaf, 0);
        a.libraries = libs;
        a.libraries_hash = libs_hash;
        switch (kind) {
        case ContentKind::Model:
            a.kind = "model";
            return add(std::move(a));
        case ContentKind::Terrain:
            a.kind = "map";
            return add(std::move(a));
        case ContentKind::Texm:
            a.kind = "texture";
            return add(std::move(a));
        case ContentKind::Mission:
            if (!u.address.entries.empty()) break; // a level is a loose file in a game folder
            a.kind = "level";
            return add(std::move(a));
        case ContentKind::NResArchive: {
            DiagnosticSink sink(ReadMode::Tolerant);
            auto ar = std::make_shared<nres::Archive>(
                nres::read(in.bytes, sink, where, in.bytes.keeper()));
            if (sink.has_errors()) {
                // A .msh whose container is damaged: a model that cannot be drawn.
                if (lower_ascii(fs::path(leaf).extension().string()) == ".msh") {
                    a.kind = "model";
                    return add(std::move(a));
                }
                return fail(where, "archive", sink.diagnostics().front().text());
            }
            return plan_archive(ar, u.address, fs::path(a.name), libs, libs_hash);
        }
        case ContentKind::DamagedNRes:
            a.kind = lower_ascii(leaf) == "land.msh" ? "map" : "model";
            if (lower_ascii(fs::path(leaf).extension().string()) == ".msh")
                return add(std::move(a));
            return fail(where, "archive", where + ": damaged NRes image");
        default:
            break;
        }
        for (const char* ext : {".rlb", ".lib", ".texm"})
            if (lower_ascii(leaf).ends_with(ext))
                return fail(where, "other",
                            where + ": not a readable " + std::string(ext + 1) + " file");
    }

    void plan_archive(const std::shared_ptr<nres::Archive>& ar, const Address& address,
                      const fs::path& folder, const mapping::MaterialLibraries* libs,
                      uint64_t libs_hash) {
        for (size_t i = 0; i < ar->entries.size(); ++i) {
            const nres::Entry& e = ar->entries[i];
            Address ea = address;
            ea.entries.push_back(e.display_name());
            const ContentKind kind = sniff(e.data, {e.name(), e.type});
            Asset a;
            a.address = ea;
            a.in_archive = true;
            a.archive = ar;
            a.archive_address = address;
            a.libraries = libs;
            a.libraries_hash = libs_hash;
            a.name = claim(folder, e.display_name(), i);
            if (kind == ContentKind::Model || kind == ContentKind::Terrain ||
                kind == ContentKind::Texm) {
                a.kind = kind == ContentKind::Model     ? "model"
                         : kind == ContentKind::Terrain ? "map"
                                                        : "texture";
                a.entry_index = i;
                a.size = e.data.size();
                add(std::move(a));
            } else if (kind == ContentKind::NResArchive) {
                DiagnosticSink sink(ReadMode::Tolerant);
                auto inner = std::make_shared<nres::Archive>(
                    nres::read(e.data, sink, ea.display(), e.data.keeper()));
                if (sink.has_errors())
                    fail(ea.display(), "archive", sink.diagnostics().front().text());
                else
                    plan_archive(inner, ea, fs::path(a.name), libs, libs_hash);
            } else if (kind == ContentKind::DamagedNRes &&
                       lower_ascii(e.name()).ends_with(".msh")) {
                a.kind = "model";
                a.entry_index = i;
                a.size = e.data.size();
                add(std::move(a));
            }
        }
    }

    // The asset's key: its bytes, the files it is drawn with, the libraries and the options;
    // a level's, its map's and every model's too.
    uint64_t key_of(const Asset& a, const Loaded& in, const ModelExportInput* model,
                    const TerrainExportInput* map, const LevelExportInput* level = nullptr) const {
        uint64_t h = mix(options_hash_, content_hash(in.bytes));
        h = mix(h, a.libraries_hash);
        if (model && model->wear) h = mix(h, content_hash(model->wear->bytes));
        if (level && level->terrain) {
            map = &*level->terrain;
            h = mix(h, content_hash(map->land_msh));
        }
        if (map)
            for (const auto* f : {&map->land_map, &map->wear1, &map->wear2})
                if (*f) h = mix(h, content_hash((*f)->bytes));
        if (level)
            for (const ModelExportInput& m : level->models) {
                h = mix(h, content_hash(m.model));
                if (m.wear) h = mix(h, content_hash(m.wear->bytes));
            }
        return h;
    }

    // The asset's view (its script's text) from the same inputs as its preview; an asset whose
    // view cannot be made keeps its tile, and its metadata says why.
    std::string view_of(const Asset& a, const Loaded& in, const ModelExportInput* model,
                        const TerrainExportInput* map, const LevelExportInput* level,
                        json& metadata) const {
        try {
            const json view =
                level   ? level_view(*level, metadata)
                : model ? model_view(*model, settings_, metadata)
                : map   ? terrain_view(*map, settings_, metadata)
                        : texture_view(in.bytes, in.address.display(), settings_, metadata);
            metadata["view"] = fs::path(a.name + ".view.js").filename().string();
            return view_script(a.name, view);
        } catch (const std::exception& e) {
            metadata["view_error"] = e.what();
            return {};
        }
    }

    void run(Asset& a) {
        Result& r = results_[a.result];
        const auto start = Clock::now();
        const fs::path png_path = out_ / (a.name + ".png");
        const fs::path json_path = out_ / (a.name + ".json");
        const fs::path view_path = out_ / (a.name + ".view.js");
        r.output = a.name + ".png";
        KeptWarnings warnings;
        const Job job = run_.item_job(warnings);
        a.entry = {{"name", a.name},
                   {"kind", a.kind},
                   {"source", a.address.portable()},
                   {"png", a.name + ".png"},
                   {"json", a.name + ".json"}};
        try {
            Loaded in;
            in.address = a.address;
            in.bytes = a.in_archive ? a.archive->entries[a.entry_index].data
                                    : read_payload(io_, a.address.file);
            ModelExportContext context;
            context.libraries = a.libraries;
            if (a.kind == "model")
                context.wear =
                    a.in_archive
                        ? find_sibling_in(*a.archive, a.archive_address, model_wear_name(a.address))
                        : find_sibling(io_, a.address, model_wear_name(a.address));
            std::optional<ModelExportInput> model;
            std::optional<TerrainExportInput> map;
            std::optional<mapping::MaterialLibraries> own;
            if (a.kind == "model") model = model_export_input(job, in, &context);
            if (a.kind == "map") map = terrain_export_input(job, in, a.libraries, own);
            std::unique_ptr<LevelSources> level;
            if (a.kind == "level") level = read_level_sources(job, in);
            const LevelExportInput* level_input = level ? &level->input : nullptr;
            const std::string key = sidecar::hex64(
                key_of(a, in, model ? &*model : nullptr, map ? &*map : nullptr, level_input));
            if (!force_ && unchanged(json_path, png_path, view_path, key, a.entry)) {
                r.status = Status::Skipped;
                r.message = "unchanged (same key; --force redoes it)";
                r.unchanged = true;
                std::lock_guard lock(mutex_);
                ++unchanged_;
            } else {
                Preview p = level   ? preview_level(*level_input, settings_, texture_cache_.get())
                            : model ? preview_model(*model, settings_, texture_cache_.get())
                            : map   ? preview_terrain(*map, settings_, texture_cache_.get())
                                    : preview_texture(in.bytes, in.address.display(), settings_);
                const std::string view_text =
                    views_ ? view_of(a, in, model ? &*model : nullptr, map ? &*map : nullptr,
                                     level_input, p.metadata)
                           : std::string();
                p.metadata["key"] = key;
                p.metadata["status"] = "ok";
                write(png_path, json_path, p.png, p.metadata, view_text);
                fill_entry(a.entry, p.metadata);
                r.status = Status::Converted;
            }
        } catch (const std::exception& e) {
            r.status = Status::Failed;
            r.message = e.what();
            const int w = settings_.width, h = settings_.height;
            json meta = {{"kind", a.kind},
                         {"source", a.address.portable()},
                         {"status", "error"},
                         {"error", r.message},
                         {"size", {w, h}}};
            try {
                write(png_path, json_path, placeholder(w, h), meta);
            } catch (const std::exception&) {
            }
            fill_entry(a.entry, meta);
        }
        r.warnings = warnings.texts();
        r.seconds = seconds_since(start);
        progress_.finished(r);
    }

    // The index entry from the asset's metadata; the view's path is relative to the gallery.
    static void fill_entry(json& entry, const json& meta) {
        for (const char* k : {"size", "hash", "status", "error", "facts", "view_error"})
            if (meta.contains(k)) entry[k] = meta[k];
        if (meta.contains("view")) entry["view"] = entry["name"].get<std::string>() + ".view.js";
    }

    // The JSON beside the PNG records this key: the asset has not changed.
    bool unchanged(const fs::path& json_path, const fs::path& png_path, const fs::path& view_path,
                   const std::string& key, json& entry) const {
        if (!io_.is_file(json_path) || !io_.is_file(png_path)) return false;
        try {
            const mshconv::FileBytes text = io_.read(json_path);
            const json meta = json::parse(text.bytes.begin(), text.bytes.end());
            if (!meta.is_object() || meta.value("key", "") != key ||
                meta.value("status", "") != "ok")
                return false;
            if (meta.contains("view") && !io_.is_file(view_path)) return false;
            fill_entry(entry, meta);
            return true;
        } catch (const std::exception&) {
            return false;
        }
    }

    // The picture, its metadata and its view appear together or not at all.
    void write(const fs::path& png_path, const fs::path& json_path, const Bytes& png,
               const json& meta, const std::string& view_text = {}) const {
        const std::string text = meta.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
        OutputFiles files{{png_path.filename().string(), png},
                          {json_path.filename().string(), Bytes(text.begin(), text.end())}};
        if (!view_text.empty())
            files.push_back({json_path.stem().string() + ".view.js",
                             Bytes(view_text.begin(), view_text.end())});
        write_outputs(png_path.parent_path(), files, {}, io_);
    }

    void write_index() {
        json assets = json::array();
        std::vector<const Asset*> sorted;
        for (const Asset& a : assets_) sorted.push_back(&a);
        std::sort(sorted.begin(), sorted.end(),
                  [](const Asset* x, const Asset* y) { return x->name < y->name; });
        for (const Asset* a : sorted) assets.push_back(a->entry);
        if (assets.empty()) return;
        const json index = {{"generator", "mshconv " + std::string(MSHCONV_VERSION)},
                            {"schema", "mshconv-previews/1"},
                            {"options", options_},
                            {"assets", assets}};
        const std::string text = index.dump(1, ' ', false, json::error_handler_t::replace) + "\n";
        const std::string html = gallery_html(index);
        OutputFiles files{{"index.json", Bytes(text.begin(), text.end())},
                          {"index.html", Bytes(html.begin(), html.end())}};
        if (views_) {
            const std::string& viewer = viewer_bundle(); // once per gallery
            files.push_back({std::string(kViewerScriptName), Bytes(viewer.begin(), viewer.end())});
        }
        write_outputs(out_, files, {}, io_);
    }

    BatchRun& run_;
    mshconv::Io& io_;
    fs::path out_;
    const Job& job_;
    const Shard shard_;
    Progress& progress_;
    std::vector<Result>& results_;
    PreviewSettings settings_;
    bool force_;
    bool views_; // each asset's interactive view beside its thumbnail, the viewer once
    json options_;
    uint64_t options_hash_ = 0;
    std::vector<BatchUnit> units_;
    std::vector<Asset> assets_;
    std::map<fs::path, manifest::FileNames> names_;
    std::map<fs::path, std::pair<std::unique_ptr<mapping::MaterialLibraries>, uint64_t>> libraries_;
    std::unique_ptr<PreviewTextureCache> texture_cache_;
    std::mutex mutex_;
    size_t unchanged_ = 0;
};

} // namespace

PreviewRun preview_all(BatchRun& run, const std::vector<std::string>& inputs, const fs::path& out) {
    PreviewBatch batch(run, out);
    for (const std::string& in : inputs) batch.input(in);
    return batch.finish();
}

} // namespace msh::conversion
