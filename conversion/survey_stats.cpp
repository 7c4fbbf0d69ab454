// The collection pass of `mshconv survey` (survey_stats.hpp). Every file is read by the project's
// readers twice: tolerantly for the figures (a damaged file is listed, never fatal) and strictly
// for the list of files and entries the strict reader refuses.
#include "survey_stats.hpp"
#include "game_files.hpp"
#include "job.hpp"
#include "level_files.hpp"

#include "formats/arealmap.hpp"
#include "formats/cp1251.hpp"
#include "formats/file_io.hpp"
#include "formats/material.hpp"
#include "formats/mission.hpp"
#include "formats/msh.hpp"
#include "formats/nres.hpp"
#include "formats/object_registry.hpp"
#include "formats/sniff.hpp"
#include "formats/terrain.hpp"
#include "formats/texm.hpp"
#include "formats/wear.hpp"
#include "sidecar/payload_hash.hpp"

#include <algorithm>
#include <cctype>
#include <memory>
#include <stdexcept>
#include <system_error>

namespace msh::conversion::survey {

namespace fs = std::filesystem;

namespace {

std::string lower(std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

bool ends_with_ci(const std::string& name, const std::string& ext) {
    return name.size() >= ext.size() && lower(name.substr(name.size() - ext.size())) == ext;
}

// File names of a Russian install may be CP1251 bytes; JSON wants UTF-8.
bool valid_utf8(std::string_view s) {
    size_t i = 0;
    while (i < s.size()) {
        const auto c = static_cast<unsigned char>(s[i]);
        const size_t n = c < 0x80         ? 1
                         : (c >> 5) == 6  ? 2
                         : (c >> 4) == 14 ? 3
                         : (c >> 3) == 30 ? 4
                                          : 0;
        if (n == 0 || i + n > s.size()) return false;
        for (size_t k = 1; k < n; ++k)
            if ((static_cast<unsigned char>(s[i + k]) >> 6) != 2) return false;
        i += n;
    }
    return true;
}

std::string utf8_name(const std::string& raw) {
    return valid_utf8(raw) ? raw : cp1251_to_utf8(raw);
}

// Reader messages may quote damaged names (raw bytes): UTF-8 with control bytes as '?'.
std::string clean(const std::string& text) {
    std::string s = utf8_name(text);
    for (char& c : s)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) c = '?';
    return s;
}

std::optional<std::string> first_error(const DiagnosticSink& sink) {
    for (const Diagnostic& d : sink.diagnostics())
        if (d.severity == Severity::Error) return clean(d.text());
    return std::nullopt;
}

// A payload the tolerant reader could not interpret and kept raw: its first diagnostic.
std::string first_diagnostic(const DiagnosticSink& sink) {
    return sink.diagnostics().empty() ? std::string("kept raw: not interpretable")
                                      : clean(sink.diagnostics().front().text());
}

std::string stem_of(const std::string& name) {
    const size_t dot = name.rfind('.');
    return dot == std::string::npos ? name : name.substr(0, dot);
}

// Finds a file that belongs to the one being read (a model's WEAR, a map's Land1.wea) by its leaf
// name, case-insensitively: in the same archive or the same folder.
using Siblings = std::function<std::optional<Payload>(const std::string& leaf)>;

class Collector {
  public:
    Collector(mshconv::Io& io, const Options& options, Result& result)
        : io_(io), opt_(options), r_(result) {}

    void file(const fs::path& path, const std::string& rel, const Siblings& siblings) {
        Counts& c = r_.counts;
        ++c.files;
        FileRecord rec;
        rec.name = utf8_name(rel);
        Payload data;
        try {
            data = read_payload(io_, path);
        } catch (const std::exception& e) {
            ++c.unreadable_files;
            rec.kind = "unreadable";
            r_.damaged.push_back({rec.name, clean(e.what())});
            r_.files.push_back(std::move(rec));
            return;
        }
        const ByteView bytes = data.bytes();
        rec.size = bytes.size();
        rec.hash = sidecar::payload_hash(bytes);
        c.bytes += bytes.size();
        const std::string leaf = path.filename().string();
        try {
            if (nres::looks_like_nres(bytes)) {
                ++c.nres_files;
                ArchiveFigures figures;
                const size_t entries =
                    nres_image(data, rec.name, leaf, true, siblings, &figures, rec.kind);
                c.nres_entries += entries;
                figures.entries = entries;
                if (rec.kind == "model") ++c.loose_models;
                if (rec.kind == "nres") c.archives[rec.name] = std::move(figures);
            } else if (bytes.size() >= texm::kHeaderSize &&
                       msh::load<uint32_t>(bytes, 0) == texm::kMagic) {
                rec.kind = "texm";
                texture(bytes, rec.name, nullptr, true);
            } else if (ends_with_ci(leaf, ".wea")) {
                rec.kind = "wear";
                wear_table(bytes, rec.name, true);
            } else if (mission::looks_like_mission(bytes)) {
                rec.kind = "mission";
                mission_file(bytes, path, rec.name);
            } else {
                rec.kind = "other";
                ++c.other_files;
            }
        } catch (const std::exception& e) { // a reader's bug must not end the survey
            r_.damaged.push_back({rec.name, clean(e.what())});
        }
        r_.files.push_back(std::move(rec));
    }

  private:
    // A mission: its objects counted, each reference followed through the game folder above it.
    void mission_file(ByteView bytes, const fs::path& path, const std::string& where) {
        Counts& c = r_.counts;
        ++c.missions;
        DiagnosticSink sink(ReadMode::Tolerant);
        std::optional<mission::Mission> m;
        try {
            m = mission::read(bytes, sink, where);
        } catch (const FormatError& e) {
            sink.error(e);
        }
        note_damage(where, sink);
        strict_check(where, [&](DiagnosticSink& s) { mission::read(bytes, s, where); });
        if (!m) return;
        c.placed_objects += m->objects.size();
        const std::optional<fs::path> root = find_game_folder(io_, path);
        if (!root) {
            c.unresolved_references += m->objects.size();
            return;
        }
        try {
            if (!registry_ || registry_root_ != *root) {
                const std::optional<fs::path> rlb = find_file_ci(*root, "objects.rlb", io_);
                references_.reset(); // refers to the registry it replaces
                registry_.emplace(read_payload(io_, *rlb), rlb->string());
                references_.emplace(io_, *root, *registry_);
                registry_root_ = *root;
            }
        } catch (const std::exception& e) {
            r_.damaged.push_back({"objects.rlb", clean(e.what())});
            c.unresolved_references += m->objects.size();
            return;
        }
        for (const mission::PlacedObject& o : m->objects)
            c.unresolved_references += !references_->problem(o).empty();
    }

    // The tolerant read's first error, if any, listed as damage.
    void note_damage(const std::string& where, const DiagnosticSink& sink) {
        if (auto e = first_error(sink)) r_.damaged.push_back({where, *e});
    }

    // Runs `read` with a strict sink and lists its first error.
    template <class F> void strict_check(const std::string& where, F&& read) {
        DiagnosticSink sink(ReadMode::Strict);
        try {
            read(sink);
        } catch (const std::exception& e) {
            r_.strict.push_back({where, clean(e.what())});
            return;
        }
        if (auto e = first_error(sink)) r_.strict.push_back({where, *e});
    }

    // Reads with a tolerant sink, then checks with a strict one: a refusal is listed as damage
    // and as a strict failure (nullopt); else the tolerant reader's first error is damage and the
    // strict reader's a strict failure.
    template <class F>
    auto read_both_ways(const std::string& where, F&& read)
        -> std::optional<decltype(read(std::declval<DiagnosticSink&>()))> {
        DiagnosticSink sink(ReadMode::Tolerant);
        try {
            auto value = read(sink);
            note_damage(where, sink);
            strict_check(where, read);
            return value;
        } catch (const FormatError& e) {
            r_.damaged.push_back({where, clean(e.what())});
            r_.strict.push_back({where, clean(e.what())});
            return std::nullopt;
        }
    }

    void tally_fold(const nres::Archive& ar, const std::string& where, bool library) {
        const std::string fold = nres::evidence_name(ar.fold_evidence);
        ++(library ? r_.folds.libraries : r_.folds.images)[fold];
        if (library && (fold == "lower" || fold == "neither"))
            r_.folds.lower_or_neither.push_back({where, fold});
    }

    // An NRes image (file or entry): model, terrain, areal map or library. Returns its entry
    // count; `kind` says which.
    size_t nres_image(const Payload& data, const std::string& where, const std::string& leaf,
                      bool top, const Siblings& siblings, ArchiveFigures* figures,
                      std::string& kind) {
        switch (sniff(data.bytes(), {leaf, std::nullopt})) {
        case ContentKind::Model:
            kind = "model";
            if (figures) ++figures->models;
            return model(data, where, leaf, siblings);
        case ContentKind::Terrain:
            kind = "terrain";
            return land(data.bytes(), where, siblings);
        case ContentKind::ArealMap:
            kind = "areal_map";
            return areal_map(data.bytes(), where);
        default: // a library, or damage nres::read will name
            kind = "nres";
            return archive(data, where, top, figures);
        }
    }

    size_t archive(const Payload& data, const std::string& where, bool top,
                   ArchiveFigures* figures) {
        const auto read = read_both_ways(where, [&](DiagnosticSink& s) {
            return nres::read(data.bytes(), s, where, data.keeper());
        });
        if (!read) return 0;
        const nres::Archive& ar = *read;
        tally_fold(ar, where, true);
        if (!top) ++r_.counts.nested_archives;
        const Siblings in_archive = [&ar](const std::string& name) -> std::optional<Payload> {
            if (auto i = ar.find(name)) return ar.entries[*i].data;
            return std::nullopt;
        };
        for (const nres::Entry& e : ar.entries) {
            const std::string at = where + ":" + e.display_name();
            const ByteView b = e.data.bytes();
            if (e.type == nres::fourcc("MAT0")) {
                material(e, at, figures);
            } else if (e.type == nres::fourcc("WEAR") || ends_with_ci(e.name(), ".wea")) {
                wear_table(b, at, false);
            } else if (nres::looks_like_nres(b)) {
                std::string kind;
                nres_image(e.data, at, e.name(), false, in_archive, figures, kind);
            } else if (b.size() >= texm::kHeaderSize && msh::load<uint32_t>(b, 0) == texm::kMagic) {
                texture(b, at, figures, false);
            }
        }
        return ar.entries.size();
    }

    size_t model(const Payload& data, const std::string& where, const std::string& leaf,
                 const Siblings& siblings) {
        Counts& c = r_.counts;
        ++c.models;
        const auto read = read_both_ways(where, [&](DiagnosticSink& s) {
            return read_model(data.bytes(), s, where, data.keeper());
        });
        if (!read) return 0;
        const Model& m = *read;
        tally_fold(m.container, where, false);
        c.legacy_node_models += m.legacy_nodes;
        c.model_nodes += m.node_count();
        c.model_vertices += m.positions.size();
        c.batches += m.batches.size();
        c.triangles += m.indices.size() / 3;
        c.keys += m.animation.keys.size();
        c.animated_models += std::any_of(m.nodes.begin(), m.nodes.end(),
                                         [](const Node& n) { return n.map_start != kNone; });
        key_stats(m);
        batch_stats(m, where, siblings(stem_of(leaf) + ".wea"));
        res20_stats(m, where);
        return m.container.entries.size();
    }

    // |value| == 32767 at word 3 (+22, xyzw identity) or word 0 (+16, wxyz identity).
    void key_stats(const Model& m) {
        const auto& keys = m.animation.keys;
        if (keys.empty()) return;
        KeyStats& k = r_.keys;
        ++k.models;
        k.keys += keys.size();
        auto full = [](int16_t v) { return v == 32767 || v == -32767; };
        for (const anim::Key& key : keys) {
            k.all_at_22 += full(key.rot[3]);
            k.all_at_16 += full(key.rot[0]);
        }
        if (m.legacy_nodes) return;
        // Tracks: node i owns keys [hdr3(i-1) + 1, hdr3(i)] (animation.md §4).
        size_t start = 0;
        for (const Node& n : m.nodes) {
            const size_t end = n.fallback_key;
            if (end < start || end >= keys.size()) break; // not canonical: stop here
            if (end == start) {
                ++k.static_keys;
                k.static_at_22 += full(keys[start].rot[3]);
                k.static_at_16 += full(keys[start].rot[0]);
            }
            start = end + 1;
        }
    }

    void batch_stats(const Model& m, const std::string& where, const std::optional<Payload>& wea) {
        BatchStats& s = r_.batches;
        if (!wea) {
            ++s.models_without_wear;
            return;
        }
        std::optional<wear::Wear> table;
        try {
            table = wear::read(wea->bytes(), stem_of(where) + ".wea");
        } catch (const FormatError&) {
            ++s.models_with_unreadable_wear; // listed where the WEAR itself is read
            return;
        }
        ++s.models_with_wear;
        const size_t rows = table->materials.size();
        for (const Batch& b : m.batches) {
            ++s.batches;
            const unsigned low = b.opaque4 & 0xFF;
            const bool in_range = b.material < rows;
            s.row_in_range += in_range;
            s.row_out_of_range += !in_range;
            const bool differs = b.material != low;
            s.low_byte_differs += differs;
            std::optional<size_t> by_id;
            for (size_t r = 0; r < rows && !by_id; ++r)
                if (table->materials[r].legacy_id == int32_t(low)) by_id = r;
            s.id_resolves += by_id.has_value();
            s.id_unresolved += !by_id;
            const bool same = by_id && *by_id == b.material;
            s.id_same_row += same;
            s.differs_explained_by_id += differs && same;
        }
    }

    void res20_stats(const Model& m, const std::string& where) {
        const nres::Entry* e = m.entry(kTable20);
        if (!e) return;
        Res20Stats& s = r_.res20;
        ++s.models;
        ++r_.counts.models_with_res20;
        const size_t size = e->data.size();
        if (size % 48 != 0) {
            s.not_multiple_of_48.push_back({where, size});
            return;
        }
        ++s.models_multiple_of_48;
        const size_t nodes = m.node_count();
        for (size_t off = 0; off + 48 <= size; off += 48) {
            ++s.records;
            const int32_t v = msh::load<int32_t>(e->data.bytes(), off);
            const bool ok = v >= 0 && size_t(v) < nodes;
            s.in_range += ok;
            s.out_of_range += !ok;
        }
    }

    size_t land(ByteView bytes, const std::string& where, const Siblings& siblings) {
        Counts& c = r_.counts;
        ++c.terrains;
        const auto read = read_both_ways(
            where, [&](DiagnosticSink& s) { return terrain::read(bytes, s, where); });
        if (!read) return 0;
        const terrain::Terrain& t = *read;
        tally_fold(t.container, where, false);
        c.terrain_vertices += t.positions.size();
        c.terrain_faces += t.faces.size();
        for (const terrain::Face& f : t.faces)
            c.terrain_faces_layer2 += f.aux != terrain::kNoLayer2;

        CellPairStats& cp = r_.cell_pairs;
        ++cp.maps;
        if (!t.has(terrain::kCellPairs) || !t.has(terrain::kFaces)) {
            ++cp.absent;
        } else if (t.cell_pairs.size() == t.faces.size()) {
            ++cp.equal;
        } else {
            ++cp.different;
            cp.differing.push_back({where, t.cell_pairs.size(), t.faces.size()});
        }
        face_stats(t, where, siblings);
        return t.container.entries.size();
    }

    std::optional<size_t> wear_rows(const std::optional<Payload>& bytes, const std::string& where) {
        if (!bytes) return std::nullopt;
        try {
            return wear::read(bytes->bytes(), where).materials.size();
        } catch (const FormatError&) {
            return std::nullopt;
        }
    }

    void face_stats(const terrain::Terrain& t, const std::string& where, const Siblings& siblings) {
        FaceStats& s = r_.faces;
        const std::string folder = where.substr(0, where.find_last_of("/:") + 1);
        const auto land1 = wear_rows(siblings("Land1.wea"), folder + "Land1.wea");
        const auto land2 = wear_rows(siblings("Land2.wea"), folder + "Land2.wea");
        if (!land1 || !land2) {
            ++s.maps_without_wear;
            return;
        }
        ++s.maps;
        for (const terrain::Face& f : t.faces) {
            ++s.faces;
            s.byte4_past_land1 += f.material >= *land1;
            s.byte4_past_land2 += f.material >= *land2;
            if (f.aux == terrain::kNoLayer2) continue;
            ++s.byte5_set;
            s.byte5_past_land1 += f.aux >= *land1;
            s.byte5_past_land2 += f.aux >= *land2;
        }
    }

    size_t areal_map(ByteView bytes, const std::string& where) {
        Counts& c = r_.counts;
        ++c.areal_maps;
        const auto read = read_both_ways(
            where, [&](DiagnosticSink& s) { return arealmap::read(bytes, s, where); });
        if (!read) return 0;
        const arealmap::ArealMap& map = *read;
        tally_fold(map.container, where, false);
        c.areals += map.areals.size();
        return map.container.entries.size();
    }

    void texture(ByteView bytes, const std::string& where, ArchiveFigures* figures, bool loose) {
        Counts& c = r_.counts;
        ++c.texm;
        c.loose_texm += loose;
        const uint32_t code = msh::load<uint32_t>(bytes, 28); // the header's format word
        const std::string key = format_key(code);
        ++c.texm_formats[key];
        if (figures) ++figures->texm, ++figures->texm_formats[key];
        r_.texm_888 += code == 888;
        r_.texm_paletted += code == 0;
        DiagnosticSink sink(ReadMode::Tolerant);
        texm::Texture t;
        try {
            t = texm::read(bytes, sink, where, texm::KeepRaw::OnlyUninterpretable);
        } catch (const FormatError& e) {
            r_.damaged.push_back({where, clean(e.what())});
            r_.strict.push_back({where, clean(e.what())});
            return;
        }
        note_damage(where, sink);
        if (t.raw_only && !sink.has_errors()) r_.damaged.push_back({where, first_diagnostic(sink)});
        strict_check(where, [&](DiagnosticSink& s) { texm::read(bytes, s, where); });
        if (t.page) {
            ++c.texm_with_page;
            if (figures) ++figures->texm_with_page;
        }
        if (opt_.sheet && (code == 888 || code == 0) && !t.raw_only) sheet_texture(t, where);
    }

    void sheet_texture(const texm::Texture& t, const std::string& where) {
        SheetTexture s;
        s.where = where;
        s.format = t.header.format;
        s.width = t.header.width;
        s.height = t.header.height;
        try {
            s.bgr = texm::decode_level(t, 0);
        } catch (const std::exception&) {
            return; // damaged pixels: listed with the texture's error already
        }
        while ((s.bgr.height > opt_.sheet_max_height ||
                2 * uint64_t(s.bgr.width) + opt_.sheet_gap > opt_.sheet_max_width) &&
               (s.bgr.width > 1 || s.bgr.height > 1))
            s.bgr = texm::downsample(s.bgr);
        if (s.bgr.width == 0 || s.bgr.height == 0) return;
        r_.sheet.push_back(std::move(s));
    }

    void material(const nres::Entry& e, const std::string& where, ArchiveFigures* figures) {
        Counts& c = r_.counts;
        ++c.mat0;
        if (figures) ++figures->mat0;
        DiagnosticSink sink(ReadMode::Tolerant);
        material::Material m;
        try {
            m = material::read(e.data, e.attr2, sink, where); // attr2: the MAT0 version
        } catch (const FormatError& x) {
            r_.damaged.push_back({where, clean(x.what())});
            r_.strict.push_back({where, clean(x.what())});
            return;
        }
        note_damage(where, sink);
        if (m.raw_only && !sink.has_errors()) r_.damaged.push_back({where, first_diagnostic(sink)});
        strict_check(where, [&](DiagnosticSink& s) { material::read(e.data, e.attr2, s, where); });
        if (m.raw_only) return;
        ++c.mat0_phases[m.phases.size()];
        ++c.mat0_anim_blocks[m.anims.size()];
    }

    // WEAR has one reader: its refusal is listed as damage and as a strict failure.
    void wear_table(ByteView bytes, const std::string& where, bool loose) {
        Counts& c = r_.counts;
        ++(loose ? c.wear_loose : c.wear_in_archives);
        DiagnosticSink sink(ReadMode::Tolerant);
        std::optional<wear::Wear> w;
        try {
            w = wear::read(bytes, sink, where);
        } catch (const FormatError& e) {
            sink.error(e);
        }
        if (auto e = first_error(sink)) {
            r_.damaged.push_back({where, *e});
            r_.strict.push_back({where, *e});
        }
        if (!w) return;
        c.wear_rows += w->materials.size() + w->lightmaps.size();
        for (const auto* rows : {&w->materials, &w->lightmaps})
            for (const wear::Row& row : *rows) c.wear_rows_with_extra += !row.extra.empty();
        c.wear_lightmap_sections += w->layout.lightmaps_section;
        c.wear_lightmaps_count_zero += w->layout.lightmaps_section && w->lightmaps.empty();
    }

    mshconv::Io& io_;
    std::optional<registry::Registry> registry_; // the objects.rlb missions resolve through
    fs::path registry_root_;
    std::optional<LevelReferences> references_; // its files read once for every mission
    const Options& opt_;
    Result& r_;
};

} // namespace

std::string format_key(uint32_t code) {
    for (const texm::Format f : texm::kAllFormats)
        if (uint32_t(f) == code) return std::to_string(code);
    return "other";
}

Result collect(mshconv::Io& io, const fs::path& dir, const Options& options) {
    if (!io.is_folder(dir)) throw std::runtime_error(dir.string() + ": no such folder");
    // Every file, sorted by its relative path (bytes), for a deterministic report.
    std::vector<std::pair<std::string, fs::path>> files;
    for (const fs::path& rel : io.list_files(dir))
        files.emplace_back(rel.generic_string(), dir / rel);
    std::sort(files.begin(), files.end());

    // Loose siblings: folder -> lower-case leaf name -> path.
    std::map<fs::path, std::map<std::string, fs::path>> folders;
    for (const auto& [rel, path] : files)
        folders[path.parent_path()].emplace(lower(path.filename().string()), path);

    Result result;
    Collector collector(io, options, result);
    for (size_t i = 0; i < files.size(); ++i) {
        const fs::path& path = files[i].second;
        const auto& folder = folders[path.parent_path()];
        const Siblings beside = [&io, &folder](const std::string& leaf) -> std::optional<Payload> {
            const auto f = folder.find(lower(leaf));
            if (f == folder.end()) return std::nullopt;
            try {
                return read_payload(io, f->second);
            } catch (const std::exception&) {
                return std::nullopt;
            }
        };
        collector.file(path, files[i].first, beside);
        if (options.progress) options.progress(i + 1, files.size(), files[i].first);
    }
    return result;
}

} // namespace msh::conversion::survey
