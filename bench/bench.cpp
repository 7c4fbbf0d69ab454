// Throughput of the foundation over the generated corpus: strict read + validate + lossless
// write of every archive and nested model, beside a plain copy of the same bytes; then export
// throughput against Assimp on the same geometry.
// Usage: mshconv_bench [ROUNDS]                 prints figures; not a test
//        mshconv_bench terrain DIR/Land.msh [ROUNDS]   (stage timings, bench/terrain_bench.cpp)
//        mshconv_bench png [ROUNDS]                    (PNG settings, bench/png_bench.cpp)
//        mshconv_bench json FILE [ROUNDS]              (sidecar parse vs simdjson, json_bench.cpp)
//        mshconv_bench --profile glb|glb-tinygltf|obj [N]
//                                only N passes of that export (for callgrind/perf)
#include "conversion/game_files.hpp"
#include "conversion/game_library_add.hpp"
#include "conversion/model_export.hpp"
#include "conversion/model_import.hpp"
#include "conversion/outputs.hpp"
#include "conversion/preview_image.hpp"
#include "conversion/terrain.hpp"
#include "conversion/texture.hpp"
#include "formats/arealmap.hpp"
#include "formats/file_io.hpp"
#include "formats/gltf.hpp"
#include "formats/msh.hpp"
#include "formats/nres.hpp"
#include "formats/obj.hpp"
#include "formats/terrain.hpp"
#include "gltf_legacy_writer.hpp"
#include "mapping/model_to_scene.hpp"
#include "mapping/scene_to_model.hpp"
#include "samples/generator.hpp"
#include "sidecar/json_at.hpp"
#include "sidecar/model_sidecar.hpp"

#include <assimp/Exporter.hpp>
#include <assimp/Importer.hpp>
#include <assimp/scene.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <string_view>
#include <unistd.h>

using namespace msh;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

size_t sink_bytes = 0; // keeps the optimiser from dropping work

// Reads (strict, with validation) and rewrites an archive, nested models put back rewritten.
Bytes round_trip(const Bytes& bytes) {
    nres::Archive ar = nres::read(bytes, ReadMode::Strict, "bench");
    if (ar.find_type(21)) return terrain::write(terrain::read(bytes, ReadMode::Strict, "bench"));
    if (ar.entries.size() == 1 && ar.entries[0].type == 12)
        return arealmap::write(arealmap::read(bytes, ReadMode::Strict, "bench"));
    bool model = ar.find_type(1) && ar.find_type(2) && ar.find_type(3);
    if (model) return write_model(read_model(bytes, ReadMode::Strict, "bench"));
    for (nres::Entry& e : ar.entries)
        if (nres::looks_like_nres(e.data)) e.data = round_trip(e.data.to_bytes());
    return nres::write(ar);
}

template <class F> double median_seconds(int rounds, F&& f) {
    std::vector<double> t;
    for (int r = 0; r < rounds; ++r) {
        auto a = Clock::now();
        f();
        t.push_back(std::chrono::duration<double>(Clock::now() - a).count());
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

// Runs every job once per round, in turn (so a change of machine load hits them alike), and returns
// the median seconds of each.
std::vector<double> interleaved_medians(int rounds,
                                        const std::vector<std::function<void()>>& jobs) {
    std::vector<std::vector<double>> t(jobs.size());
    for (int r = 0; r < rounds; ++r)
        for (size_t j = 0; j < jobs.size(); ++j) {
            auto a = Clock::now();
            jobs[j]();
            t[j].push_back(std::chrono::duration<double>(Clock::now() - a).count());
        }
    std::vector<double> out;
    for (auto& v : t) {
        std::sort(v.begin(), v.end());
        out.push_back(v[v.size() / 2]);
    }
    return out;
}

// The whole msh -> glb conversion from the model's bytes in memory: strict read with validation,
// mapping, a complete GLB in memory (what Assimp is timed on: OBJ bytes -> GLB bytes).
[[gnu::noinline]] size_t msh_to_glb(const Bytes& msh) {
    const Model model = read_model(msh, ReadMode::Strict, "bench");
    return gltf::encode(mapping::model_to_scene(model, {}), true, "m.glb").document.size();
}
[[gnu::noinline]] size_t msh_to_glb_tinygltf(const Bytes& msh) {
    const Model model = read_model(msh, ReadMode::Strict, "bench");
    return test::legacy_gltf::encode(mapping::model_to_scene(model, {}), true, "m.glb")
        .document.size();
}
[[gnu::noinline]] size_t msh_to_obj(const Bytes& msh) {
    const Model model = read_model(msh, ReadMode::Strict, "bench");
    return obj::write(mapping::model_to_scene(model, {}), "m.mtl").obj.size();
}

ByteView to_view(const std::string& s) {
    return ByteView(reinterpret_cast<const uint8_t*>(s.data()), s.size());
}

// Every nested model of the corpus's .rlb archives: its bytes.
std::vector<Bytes> corpus_models(const std::vector<samples::GeneratedFile>& files) {
    std::vector<Bytes> out;
    for (const auto& f : files) {
        if (!f.relative_path.ends_with(".rlb")) continue;
        nres::Archive ar = nres::read(f.bytes, ReadMode::Strict, f.relative_path);
        for (const nres::Entry& e : ar.entries)
            if (nres::looks_like_nres(e.data)) out.push_back(e.data.to_bytes());
    }
    return out;
}

} // namespace

int run_terrain_bench(int argc, char** argv); // terrain_bench.cpp
int run_png_bench(int argc, char** argv);     // png_bench.cpp
int run_json_bench(int argc, char** argv);    // json_bench.cpp

int main(int argc, char** argv) {
    if (argc > 1 && std::string(argv[1]) == "terrain") return run_terrain_bench(argc, argv);
    if (argc > 1 && std::string(argv[1]) == "png") return run_png_bench(argc, argv);
    if (argc > 1 && std::string(argv[1]) == "json") return run_json_bench(argc, argv);
    if (argc > 2 && std::string_view(argv[1]) == "--profile") {
        const std::vector<Bytes> msh = corpus_models(samples::generate_corpus({}));
        const std::string_view what = argv[2];
        size_t (*convert)(const Bytes&) = what == "glb"            ? msh_to_glb
                                          : what == "glb-tinygltf" ? msh_to_glb_tinygltf
                                          : what == "obj"          ? msh_to_obj
                                                                   : nullptr;
        if (!convert) {
            std::fprintf(stderr, "--profile glb|glb-tinygltf|obj [N]\n");
            return 2;
        }
        const int n = argc > 3 ? std::max(1, std::atoi(argv[3])) : 10;
        for (int r = 0; r < n; ++r)
            for (const Bytes& m : msh) sink_bytes += convert(m);
        return sink_bytes == 42 ? 1 : 0;
    }
    int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 15;
    auto g0 = Clock::now();
    auto files = samples::generate_corpus({});
    double gen = std::chrono::duration<double>(Clock::now() - g0).count();
    size_t total = 0;
    for (const auto& f : files) total += f.bytes.size();
    double mb = double(total) / 1e6;

    fs::path dir = fs::temp_directory_path() / ("mshconv-bench-" + std::to_string(::getpid()));
    fs::create_directories(dir / "in");
    fs::create_directories(dir / "copy");
    fs::create_directories(dir / "out");
    for (const auto& f : files) write_file_atomic(dir / "in" / f.relative_path, f.bytes);

    double mem_ours = median_seconds(rounds, [&] {
        for (const auto& f : files)
            sink_bytes +=
                nres::looks_like_nres(f.bytes) ? round_trip(f.bytes).size() : f.bytes.size();
    });
    double mem_copy = median_seconds(rounds, [&] {
        for (const auto& f : files) {
            Bytes c(f.bytes.size());
            std::memcpy(c.data(), f.bytes.data(), c.size());
            sink_bytes += c[c.size() / 2];
        }
    });
    double file_ours = median_seconds(rounds, [&] {
        for (const auto& f : files) {
            Bytes in = read_file(dir / "in" / f.relative_path);
            write_file_atomic(dir / "out" / f.relative_path,
                              nres::looks_like_nres(in) ? round_trip(in) : in);
        }
    });
    double file_copy = median_seconds(rounds, [&] {
        for (const auto& f : files)
            fs::create_directories((dir / "copy" / f.relative_path).parent_path()),
                fs::copy_file(dir / "in" / f.relative_path, dir / "copy" / f.relative_path,
                              fs::copy_options::overwrite_existing);
    });
    // Export and import over every nested model (in process; the CLI adds process start-up).
    struct Item {
        Model model;
        Bytes image;
    };
    std::vector<Item> models;
    size_t model_bytes = 0;
    for (const auto& f : files) {
        if (!f.relative_path.ends_with(".rlb")) continue;
        nres::Archive ar = nres::read(f.bytes, ReadMode::Strict, f.relative_path);
        for (const nres::Entry& e : ar.entries)
            if (nres::looks_like_nres(e.data)) {
                models.push_back(
                    {read_model(e.data, ReadMode::Strict, e.name()), e.data.to_bytes()});
                model_bytes += e.data.size();
            }
    }
    std::vector<fs::path> glbs;
    std::vector<sidecar::ModelSidecar> sidecars;
    for (size_t i = 0; i < models.size(); ++i) {
        glbs.push_back(dir / ("m" + std::to_string(i) + ".glb"));
        conversion::ModelExportSettings settings;
        settings.output_name = glbs.back().filename().string();
        conversion::ModelExport x = conversion::encode_model({models[i].image, "bench"}, settings);
        conversion::write_outputs(dir, x.files);
        sidecars.push_back(std::move(x.sidecar));
    }
    // Export: ours from MSH bytes, the tinygltf reference writer on the same path, and Assimp on
    // the same geometry: our OBJ text in memory -> its scene -> GLB in memory. One importer and one
    // exporter serve all models (their set-up is not counted against Assimp). Assimp's glb2
    // exporter always runs its JoinIdenticalVertices, Triangulate and SortByPType steps: they
    // are part of its OBJ -> indexed GLB conversion. Rounds are interleaved.
    std::vector<obj::Files> objs;
    for (const Item& it : models)
        objs.push_back(obj::write(mapping::model_to_scene(it.model, {}), "m.mtl"));
    size_t glb_bytes = 0, obj_bytes = 0, assimp_bytes = 0;
    Assimp::Importer importer;
    Assimp::Exporter exporter;
    const std::vector<double> export_times = interleaved_medians(
        rounds,
        {[&] {
             glb_bytes = 0;
             for (const Item& it : models) glb_bytes += msh_to_glb(it.image);
         },
         [&] {
             obj_bytes = 0;
             for (const Item& it : models) obj_bytes += msh_to_obj(it.image);
         },
         [&] {
             for (const Item& it : models) sink_bytes += msh_to_glb_tinygltf(it.image);
         },
         [&] {
             assimp_bytes = 0;
             for (const obj::Files& o : objs) {
                 const aiScene* sc =
                     importer.ReadFileFromMemory(o.obj.data(), o.obj.size(), 0, "obj");
                 if (!sc)
                     throw std::runtime_error(std::string("assimp: ") + importer.GetErrorString());
                 const aiExportDataBlob* blob = exporter.ExportToBlob(sc, "glb2");
                 if (!blob)
                     throw std::runtime_error(std::string("assimp export: ") +
                                              exporter.GetErrorString());
                 assimp_bytes += blob->size;
             }
         }});
    const double to_glb = export_times[0], to_obj = export_times[1],
                 to_glb_tinygltf = export_times[2], assimp_glb = export_times[3];
    double from_glb = median_seconds(rounds, [&] {
        for (size_t i = 0; i < models.size(); ++i) {
            std::vector<std::string> warnings;
            const scene::Scene sc = conversion::read_scene_file(glbs[i], warnings);
            sink_bytes += conversion::rebuild_model(sc, &sidecars[i], {}).msh.size();
        }
    });
    // Model sidecars, text both ways: the streaming writer and the reader (RapidJSON in place,
    // typed), against nlohmann's dump of the same documents (parsed beforehand) and its parse
    // alone.
    std::vector<std::string> sidecar_texts;
    for (const auto& s : sidecars) sidecar_texts.push_back(sidecar::model_sidecar_text(s));
    std::vector<nlohmann::json> sidecar_docs;
    for (const auto& t : sidecar_texts) sidecar_docs.push_back(nlohmann::json::parse(t));
    size_t sidecar_bytes = 0;
    for (const auto& t : sidecar_texts) sidecar_bytes += t.size();
    const std::vector<double> sidecar_times = interleaved_medians(
        rounds, {[&] {
                     for (const auto& s : sidecars)
                         sink_bytes += sidecar::model_sidecar_text(s).size();
                 },
                 [&] {
                     for (const auto& doc : sidecar_docs) sink_bytes += doc.dump(1).size();
                 },
                 [&] {
                     for (const auto& t : sidecar_texts)
                         sink_bytes +=
                             sidecar::read_model_sidecar(to_view(t), "b").original_image.size();
                 },
                 [&] {
                     for (const auto& t : sidecar_texts)
                         sink_bytes += nlohmann::json::parse(t).size();
                 }});
    // The whole front-door export as `convert` runs it, sidecar included (in memory).
    double to_glb_pipeline = median_seconds(rounds, [&] {
        for (const Item& it : models)
            sink_bytes +=
                conversion::encode_model({it.image, "bench"}, {}).files.back().bytes.size();
    });
    fs::remove_all(dir);

    std::printf("corpus: %zu files, %.2f MB (generated in %.3f s), median of %d rounds\n",
                files.size(), mb, gen, rounds);
    std::printf("%-46s %10s %10s\n", "", "seconds", "MB/s");
    std::printf("%-46s %10.4f %10.1f\n", "read+validate+write, in memory (all models)", mem_ours,
                mb / mem_ours);
    std::printf("%-46s %10.4f %10.1f\n", "memcpy of the same bytes", mem_copy, mb / mem_copy);
    std::printf("%-46s %10.4f %10.1f\n", "file -> read+validate+write -> file", file_ours,
                mb / file_ours);
    std::printf("%-46s %10.4f %10.1f\n", "plain file copy (copy_file)", file_copy, mb / file_copy);
    const double n = double(models.size()), mmb = double(model_bytes) / 1e6;
    std::printf("\n%zu models, %.2f MB of MSH; %.2f MB of GLB, %.2f MB of OBJ text; Assimp's GLB "
                "%.2f MB\n",
                models.size(), mmb, double(glb_bytes) / 1e6, double(obj_bytes) / 1e6,
                double(assimp_bytes) / 1e6);
    std::printf("%-50s %10s %10s %10s\n", "", "seconds", "models/s", "MB/s (MSH)");
    auto row = [&](const char* name, double s) {
        std::printf("%-50s %10.4f %10.0f %10.1f\n", name, s, n / s, mmb / s);
    };
    row("msh -> glb (MSH bytes -> GLB bytes, in memory)", to_glb);
    row("msh -> obj (MSH bytes -> OBJ text, in memory)", to_obj);
    row("msh -> glb with the tinygltf reference writer", to_glb_tinygltf);
    row("msh -> glb + sidecar (conversion::encode_model)", to_glb_pipeline);
    row("glb file -> msh (import, identity check)", from_glb);
    row("assimp: our obj -> glb (in memory, same models)", assimp_glb);
    std::printf("msh -> glb is %.1fx the speed of assimp obj -> glb (%.1fx with the tinygltf "
                "writer)\n",
                assimp_glb / to_glb, assimp_glb / to_glb_tinygltf);
    std::printf("\nmodel sidecars: %zu, %.2f MB of text\n", sidecar_texts.size(),
                double(sidecar_bytes) / 1e6);
    std::printf("%-50s %10s %10s\n", "", "seconds", "MB/s");
    const char* sidecar_rows[] = {
        "sidecar text: the streaming writer", "sidecar text: nlohmann dump of its DOM",
        "sidecar read: in place, typed, image decoded", "sidecar parse alone: nlohmann DOM"};
    for (size_t k = 0; k < 4; ++k)
        std::printf("%-50s %10.4f %10.1f\n", sidecar_rows[k], sidecar_times[k],
                    double(sidecar_bytes) / 1e6 / sidecar_times[k]);
    return sink_bytes == 42 ? 1 : 0;
}
