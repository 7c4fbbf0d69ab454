// The library's front door (include/mshconv/convert.hpp) over an Io held in memory: every corpus
// model, map and texture converted both ways without touching the disk, byte for byte, and the
// refusals and failures a caller relies on.
#include "corpus.hpp"

#include "formats/nres.hpp"
#include "formats/png.hpp"
#include "formats/sniff.hpp"

#include <mshconv/batch.hpp>
#include <mshconv/convert.hpp>
#include <mshconv/error.hpp>
#include <mshconv/inspect.hpp>
#include <mshconv/io.hpp>
#include <mshconv/nres.hpp>
#include <mshconv/preview.hpp>
#include <mshconv/survey.hpp>

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>

// The file's own names: the test program compiles in unity batches (CMakeLists.txt).
namespace front_door_tests {

namespace {

// The outputs' folder in memory; a name no disk folder near the tests has, so that finding none
// on the disk proves nothing was written there.
const std::string kOut = "front-door-outputs/";

mshconv::MemoryIo corpus_in_memory() {
    mshconv::MemoryIo io;
    for (const auto& f : msh::test::corpus()) io.put(f.relative_path, f.bytes);
    return io;
}

std::string slug(std::string s) {
    for (char& c : s)
        if (c == '/' || c == ':' || c == '.') c = '_';
    return s;
}

// Every file of `io` below `folder` (ending in /).
size_t files_below(const mshconv::MemoryIo& io, const std::string& folder) {
    size_t n = 0;
    for (const std::string& p : io.paths()) n += p.starts_with(folder);
    return n;
}

} // namespace

BOOST_AUTO_TEST_SUITE(front_door)

BOOST_AUTO_TEST_CASE(every_corpus_model_and_texture_round_trips_in_memory) {
    mshconv::MemoryIo io = corpus_in_memory();
    size_t models = 0, textures = 0;
    for (const auto& f : msh::test::corpus()) {
        if (msh::sniff(f.bytes, {f.relative_path, std::nullopt}) != msh::ContentKind::NResArchive)
            continue;
        const msh::nres::Archive ar = msh::nres::read(f.bytes, msh::ReadMode::Tolerant, "corpus");
        for (const msh::nres::Entry& e : ar.entries) {
            const msh::ContentKind kind = msh::sniff(e.data, {e.name(), e.type});
            const std::string entry = f.relative_path + ":" + e.display_name();
            if (kind == msh::ContentKind::Model) {
                const std::string glb = kOut + slug(entry) + ".glb";
                const mshconv::ConvertResult there = mshconv::convert({entry, glb}, io);
                BOOST_TEST((there.kind == mshconv::AssetKind::Model));
                BOOST_TEST(!there.import);
                BOOST_TEST(there.written.size() == 2u); // the GLB and its sidecar
                BOOST_TEST(io.is_file(glb));
                const mshconv::ConvertResult back = mshconv::convert({glb, entry}, io);
                BOOST_TEST(back.import);
                BOOST_TEST(back.written == std::vector<std::string>{f.relative_path});
                ++models;
            } else if (kind == msh::ContentKind::Texm && textures < 40) {
                const std::string png = kOut + slug(entry) + ".png";
                BOOST_TEST(
                    (mshconv::convert({entry, png}, io).kind == mshconv::AssetKind::Texture));
                BOOST_TEST(mshconv::convert({png, entry}, io).import);
                ++textures;
            }
        }
    }
    BOOST_TEST(models >= 64u);
    BOOST_TEST(textures >= 20u);
    // Every archive came back byte for byte, and nothing reached the disk.
    for (const auto& f : msh::test::corpus())
        BOOST_TEST((io.at(f.relative_path) == f.bytes), f.relative_path);
    BOOST_TEST(!std::filesystem::exists(kOut));
}

BOOST_AUTO_TEST_CASE(every_corpus_map_round_trips_in_memory) {
    mshconv::MemoryIo io = corpus_in_memory();
    size_t maps = 0;
    for (const auto& f : msh::test::corpus()) {
        if (!f.relative_path.ends_with("/Land.msh")) continue;
        const std::string folder = std::filesystem::path(f.relative_path).parent_path().string();
        for (const char* format : {".glb", ".gltf", ".obj"}) {
            const std::string scene = kOut + slug(folder) + format;
            const mshconv::ConvertResult there = mshconv::convert({f.relative_path, scene}, io);
            BOOST_TEST((there.kind == mshconv::AssetKind::Terrain));
            const std::string land = "back/" + slug(folder) + format + "/Land.msh";
            mshconv::convert({scene, land}, io);
            BOOST_TEST((io.at(land) == io.at(f.relative_path)), land);
            BOOST_TEST((io.at("back/" + slug(folder) + format + "/Land.map") ==
                        io.at(folder + "/Land.map")));
        }
        ++maps;
    }
    BOOST_TEST(maps >= 6u);
}

BOOST_AUTO_TEST_CASE(a_whole_folder_batches_both_ways_in_memory) {
    mshconv::MemoryIo io;
    for (const auto& f : msh::test::corpus()) io.put("game/" + f.relative_path, f.bytes);
    std::vector<mshconv::BatchItem> seen;
    mshconv::BatchRequest forward{{"game"}, kOut + "mirror"};
    forward.options.to = {mshconv::BatchFormat::Glb, mshconv::BatchFormat::Png};
    forward.options.threads = 2;
    const mshconv::BatchResult there =
        mshconv::batch(forward, io, [&](const mshconv::BatchItem& item) { seen.push_back(item); });
    BOOST_TEST(there.failed == 0u);
    BOOST_TEST(there.converted >= 64u + 6u + 20u); // models, maps, textures
    BOOST_TEST(there.threads == 2u);
    BOOST_TEST(seen.size() == there.items.size()); // every item once through the callback
    BOOST_TEST(io.is_file(kOut + "mirror/_batch.json"));
    BOOST_TEST(mshconv::to_json(there).find("\"schema\": \"mshconv-batch/1\"") !=
               std::string::npos);

    mshconv::BatchRequest reverse{{kOut + "mirror"}, kOut + "back"};
    reverse.options.to = {mshconv::BatchFormat::Nres};
    const mshconv::BatchResult back = mshconv::batch(reverse, io);
    BOOST_TEST(back.failed == 0u);
    BOOST_TEST(back.unchanged > 0u);
    for (const auto& f : msh::test::corpus())
        BOOST_TEST((io.at(kOut + "back/" + f.relative_path) == f.bytes), f.relative_path);

    mshconv::BatchRequest previews{{"game"}, kOut + "previews"};
    previews.options.to = {mshconv::BatchFormat::Preview};
    previews.options.views = false;
    previews.options.preview.width = previews.options.preview.height = 48;
    const mshconv::BatchResult drawn = mshconv::batch(previews, io);
    BOOST_TEST(drawn.converted >= 64u + 6u);
    BOOST_TEST(io.is_file(kOut + "previews/index.html"));
    BOOST_TEST(io.is_file(kOut + "previews/static.rlb/House_01.msh.png"));
    // Drawn again: every asset's key is unchanged.
    BOOST_TEST(mshconv::batch(previews, io).unchanged == drawn.converted);

    // An output inside the input is refused before anything is written.
    mshconv::BatchRequest inside{{"game"}, "game/out"};
    inside.options.to = {mshconv::BatchFormat::Glb};
    BOOST_CHECK_THROW(mshconv::batch(inside, io), mshconv::UsageError);
    BOOST_TEST(files_below(io, "game/out/") == 0u);
    BOOST_TEST(!std::filesystem::exists(kOut));
}

BOOST_AUTO_TEST_CASE(shard_reports_merge_into_a_typed_result) {
    mshconv::MemoryIo io;
    for (const auto& f : msh::test::corpus()) io.put("game/" + f.relative_path, f.bytes);
    std::vector<std::string> texts, names;
    size_t items = 0, converted = 0;
    for (unsigned k = 1; k <= 2; ++k) {
        mshconv::BatchRequest part{{"game"}, "shard" + std::to_string(k)};
        part.options.to = {mshconv::BatchFormat::Glb, mshconv::BatchFormat::Png};
        part.options.shard = mshconv::parse_batch_shard(std::to_string(k) + "/2");
        const mshconv::BatchResult r = mshconv::batch(part, io);
        BOOST_TEST(r.failed == 0u);
        BOOST_TEST_REQUIRE(r.shard.has_value());
        BOOST_TEST(r.shard->index == k);
        items += r.items.size();
        converted += r.converted;
        texts.push_back(mshconv::to_json(r));
        names.push_back("report" + std::to_string(k) + ".json");
    }
    const mshconv::BatchResult merged = mshconv::merge_batch_reports(texts, names);
    BOOST_TEST(merged.shards == 2u);
    BOOST_TEST(merged.items.size() == items); // typed, not left in the JSON
    BOOST_TEST(merged.converted == converted);
    BOOST_TEST(merged.to ==
               (mshconv::BatchFormats{mshconv::BatchFormat::Glb, mshconv::BatchFormat::Png}));
    size_t by_kind = 0;
    for (const auto& [kind, n] : merged.converted_by_kind) by_kind += n;
    BOOST_TEST(by_kind == converted);
    // Its JSON holds the same items, and says it was merged.
    const nlohmann::json j = nlohmann::json::parse(mshconv::to_json(merged));
    BOOST_TEST(j["shards"] == 2);
    BOOST_TEST(j["items"].size() == items);
    BOOST_TEST(!j.contains("threads"));
    BOOST_TEST(j["items"][0]["input"] == merged.items[0].input);
    // A damaged report is refused with its name and the JSON pointer of the value at fault.
    for (const auto& [pointer, value] :
         {std::pair<std::string, nlohmann::json>{"/items/0/seconds", "slow"},
          {"/items/1", 7},
          {"/converted_by_kind/msh-model", -1}}) {
        std::vector<std::string> damaged = texts;
        nlohmann::json doc = nlohmann::json::parse(damaged[1]);
        doc[nlohmann::json::json_pointer(pointer)] = value;
        damaged[1] = doc.dump(1);
        try {
            mshconv::merge_batch_reports(damaged, names);
            BOOST_ERROR(pointer << ": a damaged report was merged");
        } catch (const mshconv::Error& e) {
            BOOST_TEST(e.place().resource == "report2.json", e.what()); // a name, not a file
            BOOST_TEST(e.place().pointer.value_or("") == pointer, e.what());
        }
    }
}

BOOST_AUTO_TEST_CASE(info_and_validate_read_through_the_io) {
    mshconv::MemoryIo io = corpus_in_memory();
    const mshconv::Info archive = mshconv::info("static.rlb", io);
    BOOST_TEST((archive.kind == mshconv::InfoKind::Archive));
    BOOST_TEST(archive.size == io.at("static.rlb").size());
    BOOST_TEST(mshconv::to_json(archive).find("\"House_01.msh\"") != std::string::npos);
    BOOST_TEST_REQUIRE(archive.archive.has_value());
    BOOST_TEST(archive.archive->entries.size() == archive.archive->entry_count);
    BOOST_TEST((mshconv::info("static.rlb:House_01.msh", io).kind == mshconv::InfoKind::Model));

    const mshconv::Validation sound = mshconv::validate({"static.rlb"}, io);
    BOOST_TEST(sound.valid);
    BOOST_TEST(sound.errors == 0u);
    BOOST_TEST(sound.counts.at("archives") == 1u);
    BOOST_TEST(sound.counts.at("models") >= 10u);
    BOOST_TEST(!sound.sort_fold.empty());

    // A model cut short: invalid, with the finding naming the entry, and nothing thrown.
    std::vector<uint8_t> cut = io.at("static.rlb");
    cut.resize(cut.size() / 2);
    io.put("cut.rlb", cut);
    const mshconv::Validation damaged = mshconv::validate({"cut.rlb", true}, io);
    BOOST_TEST(!damaged.valid);
    BOOST_TEST(damaged.errors > 0u);
    BOOST_TEST(!damaged.findings.empty());
    BOOST_TEST(damaged.findings.front().text.find("cut.rlb") != std::string::npos);
    BOOST_TEST(mshconv::to_json(damaged).find("\"valid\": false") != std::string::npos);
    // Cut inside the entries: the directory read from there holds names that are not UTF-8, and
    // both reports are still JSON (such bytes replaced).
    cut.resize(20000);
    io.put("names.rlb", cut);
    const mshconv::Validation garbled = mshconv::validate({"names.rlb"}, io);
    BOOST_TEST(!garbled.valid);
    BOOST_TEST(nlohmann::json::parse(mshconv::to_json(garbled))["valid"] == false);
    BOOST_TEST(nlohmann::json::parse(mshconv::to_json(mshconv::info("names.rlb", io)))["kind"] ==
               "archive");
    BOOST_CHECK_THROW(mshconv::info("nothing.rlb", io), std::runtime_error);
}

BOOST_AUTO_TEST_CASE(every_corpus_archive_unpacks_and_packs_back_in_memory) {
    mshconv::MemoryIo io = corpus_in_memory();
    size_t archives = 0;
    for (const auto& f : msh::test::corpus()) {
        if (f.bytes.size() < 16 || !std::equal(f.bytes.begin(), f.bytes.begin() + 4, "NRes"))
            continue;
        const msh::nres::Archive ar = msh::nres::read(f.bytes, msh::ReadMode::Tolerant, "corpus");
        if (ar.verbatim_only || ar.entries.empty()) continue;
        BOOST_TEST_CONTEXT(f.relative_path) {
            const std::vector<mshconv::NresEntry> rows = mshconv::nres_list(f.relative_path, io);
            BOOST_TEST_REQUIRE(rows.size() == ar.entries.size());
            for (size_t i = 0; i < rows.size(); ++i) {
                BOOST_TEST(rows[i].size == ar.entries[i].data.size());
                BOOST_TEST(rows[i].type_code == ar.entries[i].type);
                BOOST_TEST(rows[i].sort_index == ar.entries[i].sort_index);
            }
            const std::string dir = "unpacked/" + f.relative_path;
            BOOST_TEST(mshconv::nres_extract(f.relative_path, dir, io) == rows.size());
            BOOST_TEST(io.is_file(dir + "/_nres.json"));
            const mshconv::NresPacked packed = mshconv::nres_pack(dir, "packed.rlb", io);
            BOOST_TEST(packed.entries == rows.size());
            BOOST_TEST(packed.bytes == f.bytes.size());
            BOOST_TEST((io.at("packed.rlb") == f.bytes)); // byte for byte
            ++archives;
        }
    }
    BOOST_TEST(archives >= 5u);
    // Refused: into the archive itself, and packing onto the manifest; nothing is written.
    const size_t before = io.paths().size();
    BOOST_CHECK_THROW(mshconv::nres_extract("static.rlb", "static.rlb", io), mshconv::UsageError);
    BOOST_CHECK_THROW(
        mshconv::nres_pack("unpacked/static.rlb", "unpacked/static.rlb/_nres.json", io),
        mshconv::UsageError);
    BOOST_TEST(io.paths().size() == before);
    // A damaged manifest: the error names its JSON pointer as a field.
    io.put("bad/_nres.json", {'{', '}'});
    try {
        mshconv::nres_pack("bad", "bad.rlb", io);
        BOOST_FAIL("a manifest without entries packs");
    } catch (const mshconv::Error& e) {
        BOOST_TEST(e.place().file.find("_nres.json") != std::string::npos);
    }
    BOOST_TEST(!io.is_file("bad.rlb"));
}

BOOST_AUTO_TEST_CASE(a_survey_reads_the_game_folder_through_the_io) {
    mshconv::MemoryIo io;
    for (const auto& f : msh::test::corpus()) io.put("game/" + f.relative_path, f.bytes);
    // The report may not land inside the game folder; nothing is written then.
    mshconv::SurveyRequest inside{"game"};
    inside.json = "game/report.json";
    BOOST_CHECK_THROW(mshconv::survey(inside, io), mshconv::UsageError);
    BOOST_TEST(!io.is_file("game/report.json"));

    mshconv::SurveyRequest request{"game"};
    request.json = "report.json";
    size_t calls = 0, total = 0;
    request.progress = [&](size_t done, size_t all, const std::string&) {
        calls = done, total = all;
    };
    const mshconv::Survey s = mshconv::survey(request, io);
    BOOST_TEST(s.game_dir == "game");
    BOOST_TEST(s.counts.at("files") == msh::test::corpus().size());
    BOOST_TEST(calls == total);
    BOOST_TEST(total == msh::test::corpus().size());
    BOOST_TEST(s.counts.at("models") > 0u);
    BOOST_TEST(s.counts.at("texm") > 0u);
    BOOST_TEST(!s.published.empty());
    BOOST_TEST(s.readings.size() == 8u);
    // The JSON written through the Io says what the result says.
    const std::vector<uint8_t>& text = io.at("report.json");
    const nlohmann::json report = nlohmann::json::parse(text.begin(), text.end());
    size_t matched = 0;
    for (const mshconv::SurveyReading& r : s.readings) {
        BOOST_TEST(!r.plain.empty());
        const bool a_variant =
            std::find(r.variants.begin(), r.variants.end(), r.supported) != r.variants.end();
        BOOST_TEST(a_variant == (r.verdict == mshconv::SurveyVerdict::Supported), r.name);
        BOOST_TEST(r.supported.empty() == (r.verdict != mshconv::SurveyVerdict::Supported));
        if (!report["readings"].contains(r.name)) continue;
        const std::string said = report["readings"][r.name]["supported"];
        BOOST_TEST(said == (r.verdict == mshconv::SurveyVerdict::Supported
                                ? r.supported
                                : std::string(mshconv::to_string(r.verdict))),
                   r.name);
        ++matched;
    }
    BOOST_TEST(matched == s.readings.size());
    BOOST_TEST(report["schema"] == "mshconv-survey/1");
    BOOST_TEST(report["counts"]["models"] == s.counts.at("models"));
    BOOST_TEST(report["verdict"]["pass"].size() == s.pass.size());
    BOOST_TEST(report["damaged"].size() == s.damaged.size());
}

BOOST_AUTO_TEST_CASE(info_is_typed_and_its_json_says_the_same) {
    mshconv::MemoryIo io = corpus_in_memory();
    size_t models = 0, textures = 0;
    for (const auto& f : msh::test::corpus()) {
        mshconv::Info info;
        try {
            info = mshconv::info(f.relative_path, io);
        } catch (const mshconv::Error&) {
            continue; // no kind info describes
        }
        BOOST_TEST_CONTEXT(f.relative_path) {
            const nlohmann::json j = nlohmann::json::parse(mshconv::to_json(info));
            BOOST_TEST(j["file"] == info.file);
            BOOST_TEST(j["size"] == info.size);
            if (!info.archive) {
                BOOST_TEST(j["kind"] == mshconv::to_string(info.kind));
                continue;
            }
            const mshconv::ArchiveInfo& a = *info.archive;
            BOOST_TEST(j["entry_count"] == a.entry_count);
            BOOST_TEST_REQUIRE(j["entries"].size() == a.entries.size());
            for (size_t i = 0; i < a.entries.size(); ++i) {
                const mshconv::ArchiveInfo::Entry& e = a.entries[i];
                const nlohmann::json& je = j["entries"][i];
                BOOST_TEST(je["name"] == e.name);
                BOOST_TEST(je["size"] == e.size);
                if (e.model) {
                    ++models;
                    BOOST_TEST(je["model"]["triangle_count"] == e.model->triangle_count);
                    BOOST_TEST(je["model"]["nodes"].size() == e.model->nodes.size());
                    BOOST_TEST(je["model"]["animation"]["key_count"] == e.model->key_count);
                    BOOST_TEST(je["model"]["node_count"] == e.model->node_count);
                }
                if (e.texture && !e.texture->error) {
                    ++textures;
                    BOOST_TEST(je["texture"]["width"] == e.texture->width);
                    BOOST_TEST(je["texture"]["format_name"] == e.texture->format_name);
                    BOOST_TEST(je["texture"]["page"].is_null() == !e.texture->page.has_value());
                }
            }
        }
    }
    BOOST_TEST(models >= 20u);
    BOOST_TEST(textures >= 20u);
}

BOOST_AUTO_TEST_CASE(info_names_the_files_nested_in_an_archive) {
    mshconv::MemoryIo io = corpus_in_memory();
    // An archive holding a library, a Land.msh and a Land.map, as a mod's bundle might.
    std::string map_dir;
    for (const auto& f : msh::test::corpus())
        if (f.relative_path.ends_with("/Land.map"))
            map_dir = f.relative_path.substr(0, f.relative_path.size() - 8);
    BOOST_TEST_REQUIRE(!map_dir.empty());
    msh::nres::Archive outer;
    for (const auto& [name, file] : {std::pair{"INNER.lib", std::string("LightMap.lib")},
                                     {"Land.msh", map_dir + "Land.msh"},
                                     {"Land.map", map_dir + "Land.map"}}) {
        msh::nres::Entry e;
        e.type = msh::nres::fourcc("DATA");
        e.set_name(name);
        const std::vector<uint8_t>& bytes = io.at(file);
        e.data.edit().assign(bytes.begin(), bytes.end());
        outer.entries.push_back(std::move(e));
    }
    io.put("bundle.lib", msh::nres::write_canonical(outer));
    const mshconv::Info info = mshconv::info("bundle.lib", io);
    BOOST_TEST_REQUIRE(info.archive.has_value());
    const std::vector<mshconv::ArchiveInfo::Entry>& entries = info.archive->entries;
    BOOST_TEST_REQUIRE(entries.size() == 3u);
    BOOST_TEST((entries[0].nested == mshconv::InfoKind::Archive));
    BOOST_TEST((entries[1].nested == mshconv::InfoKind::Terrain));
    BOOST_TEST((entries[2].nested == mshconv::InfoKind::ArealMap));
    const nlohmann::json j = nlohmann::json::parse(mshconv::to_json(info));
    BOOST_TEST(j["entries"][0]["nested"] == "archive");
    BOOST_TEST(j["entries"][1]["nested"] == "terrain");
    BOOST_TEST(j["entries"][2]["nested"] == "areal map");
}

BOOST_AUTO_TEST_CASE(errors_carry_their_place_as_fields) {
    mshconv::MemoryIo io = corpus_in_memory();
    // No such file: the file, nothing inside it.
    try {
        mshconv::info("nothing.rlb", io);
        BOOST_FAIL("no error");
    } catch (const mshconv::Error& e) {
        BOOST_TEST(e.place().file == "nothing.rlb");
        BOOST_TEST(e.place().entries.empty());
        BOOST_TEST(std::string(e.what()) == "nothing.rlb: " + e.message());
    }
    // A model entry whose own directory is damaged: the archive, the entry and the offset apart.
    std::vector<uint8_t> bytes = io.at("static.rlb");
    const msh::nres::Archive archive = msh::nres::read(bytes, msh::ReadMode::Strict, "static.rlb");
    const auto house = std::find_if(archive.entries.begin(), archive.entries.end(),
                                    [](const auto& e) { return e.name() == "House_01.msh"; });
    BOOST_REQUIRE(house != archive.entries.end());
    const size_t count_at = house->data_offset + 8; // the nested archive's entry count
    bytes[count_at] = bytes[count_at + 1] = bytes[count_at + 2] = 0xff;
    io.put("bad.rlb", bytes);
    try {
        mshconv::convert({"bad.rlb:House_01.msh", "h.glb"}, io);
        BOOST_FAIL("no error");
    } catch (const mshconv::Error& e) {
        BOOST_TEST(e.place().file == "bad.rlb");
        BOOST_TEST(e.place().entries == std::vector<std::string>{"House_01.msh"});
        BOOST_TEST(e.place().offset.has_value());
        BOOST_TEST(std::string(e.what()) == mshconv::describe(e.place(), e.message()));
        BOOST_TEST(std::string(e.what()).rfind("bad.rlb:House_01.msh: ", 0) == 0);
    }
    BOOST_TEST(!io.is_file("h.glb"));
}

BOOST_AUTO_TEST_CASE(an_import_reports_its_changes_through_the_callback) {
    mshconv::MemoryIo io = corpus_in_memory();
    mshconv::convert({"static.rlb:" + std::string("House_01.msh"), "h.gltf"}, io);
    std::vector<std::string> report;
    mshconv::convert({"h.gltf", "h.msh"}, io,
                     [&](mshconv::MessageLevel level, const std::string& text) {
                         if (level == mshconv::MessageLevel::Report) report.push_back(text);
                     });
    BOOST_REQUIRE(!report.empty());
    BOOST_TEST(report.front() == "h.gltf -> h.msh: unchanged, original bytes kept");
}

BOOST_AUTO_TEST_CASE(refusals_and_failures_write_nothing) {
    mshconv::MemoryIo io = corpus_in_memory();
    const std::vector<std::string> before = io.paths();
    // An output that is the input.
    BOOST_CHECK_THROW(mshconv::convert({"static.rlb:House_01.msh", "static.rlb"}, io),
                      mshconv::UsageError);
    // A whole archive is never replaced by one entry.
    mshconv::convert({"static.rlb:House_01.msh", "h.glb"}, io);
    const std::vector<std::string> exported = io.paths();
    BOOST_CHECK_THROW(mshconv::convert({"h.glb", "static.rlb"}, io), mshconv::UsageError);
    // A damaged model: an error naming it, and no output.
    std::vector<uint8_t> damaged = io.at("static.rlb");
    damaged.resize(damaged.size() / 2);
    io.put("damaged.rlb", damaged);
    BOOST_CHECK_THROW(mshconv::convert({"damaged.rlb:House_01.msh", kOut + "d.glb"}, io),
                      std::runtime_error);
    BOOST_TEST(files_below(io, kOut) == 0u); // neither the GLB nor its sidecar
    BOOST_TEST(exported.size() == before.size() + 2);
    BOOST_TEST(io.paths().size() == exported.size() + 1); // damaged.rlb only
}

// A preview's cameras, typed: a box previewed alone, its corners put on the picture by project(),
// fill each view as the framing promises (their box centred, its larger side 0.9 of the view),
// and the picture is drawn there: the box's centre covered, the view's corner empty.
BOOST_AUTO_TEST_CASE(a_previews_cameras_put_points_on_the_picture) {
    mshconv::MemoryIo io;
    const std::array<double, 3> lo{1, -2, 3}, hi{3, -1, 6}; // 2 x 1 x 3, off the origin
    std::string obj;
    std::vector<std::array<double, 3>> corners;
    for (int i = 0; i < 8; ++i) {
        corners.push_back({i & 1 ? hi[0] : lo[0], i & 2 ? hi[1] : lo[1], i & 4 ? hi[2] : lo[2]});
        obj += "v " + std::to_string(corners.back()[0]) + " " + std::to_string(corners.back()[1]) +
               " " + std::to_string(corners.back()[2]) + "\n";
    }
    for (const char* face : {"1 3 4 2", "5 6 8 7", "1 2 6 5", "3 7 8 4", "1 5 7 3", "2 4 8 6"})
        obj += std::string("f ") + face + "\n";
    io.put("box.obj", std::vector<uint8_t>(obj.begin(), obj.end()));
    for (const mshconv::PreviewView view :
         {mshconv::PreviewView::Iso, mshconv::PreviewView::Grid}) {
        mshconv::PreviewRequest request{"box.obj"};
        request.options.view = view;
        const mshconv::Preview p = mshconv::preview(request, io);
        BOOST_TEST((p.kind == mshconv::PreviewKind::Scene));
        BOOST_TEST(p.source == "box.obj");
        const int cells = view == mshconv::PreviewView::Grid ? 2 : 1;
        BOOST_TEST(p.width == 256 * cells);
        BOOST_TEST(p.height == 256 * cells);
        BOOST_TEST_REQUIRE(p.views.size() == size_t(cells * cells));
        const msh::png::Decoded picture = msh::png::decode(p.png);
        BOOST_TEST_REQUIRE(picture.rgba.width == uint32_t(p.width));
        for (const mshconv::PreviewCamera& c : p.views) {
            double x0 = 1e9, x1 = -1e9, y0 = 1e9, y1 = -1e9;
            for (const auto& corner : corners) {
                const auto at = mshconv::project(c, corner);
                BOOST_TEST_REQUIRE(at.has_value(), c.view);
                x0 = std::min(x0, (*at)[0]), x1 = std::max(x1, (*at)[0]);
                y0 = std::min(y0, (*at)[1]), y1 = std::max(y1, (*at)[1]);
            }
            const double w = c.viewport[2], h = c.viewport[3];
            BOOST_TEST(std::abs((x0 + x1) / 2 - (c.viewport[0] + w / 2)) < 0.5, c.view);
            BOOST_TEST(std::abs((y0 + y1) / 2 - (c.viewport[1] + h / 2)) < 0.5, c.view);
            BOOST_TEST(std::abs(std::max((x1 - x0) / w, (y1 - y0) / h) - 0.9) < 0.01, c.view);
            const auto middle = mshconv::project(
                c, {(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2});
            BOOST_TEST_REQUIRE(middle.has_value());
            BOOST_TEST(picture.rgba.at(uint32_t((*middle)[0]), uint32_t((*middle)[1]))[3] > 200,
                       c.view << ": the box's centre is not drawn");
            BOOST_TEST(picture.rgba.at(uint32_t(c.viewport[0]), uint32_t(c.viewport[1]))[3] == 0,
                       c.view << ": the view's corner is drawn");
            if (!c.orthographic) { // behind the camera: nowhere on the picture
                const std::array<double, 3> behind{c.eye[0] - c.forward[0], c.eye[1] - c.forward[1],
                                                   c.eye[2] - c.forward[2]};
                BOOST_TEST(!mshconv::project(c, behind).has_value(), c.view);
            }
        }
        const nlohmann::json meta = nlohmann::json::parse(p.metadata_json);
        BOOST_TEST(meta["views"].size() == p.views.size());
    }
    // A texture is drawn flat: its view has no camera.
    mshconv::MemoryIo corpus = corpus_in_memory();
    std::string texture;
    for (const auto& f : msh::test::corpus())
        if (texture.empty() && f.relative_path.ends_with("Textures.lib"))
            texture = f.relative_path + ":DEFAULT.0";
    BOOST_TEST_REQUIRE(!texture.empty());
    const mshconv::Preview t = mshconv::preview({texture}, corpus);
    BOOST_TEST((t.kind == mshconv::PreviewKind::Texture));
    BOOST_TEST_REQUIRE(t.views.size() == 1u);
    BOOST_TEST(t.views[0].flat);
    BOOST_TEST(t.views[0].level == 0);
    BOOST_TEST(!mshconv::project(t.views[0], {0, 0, 0}).has_value());
}

// A preview's typed facts agree with what `info` reads of the same input, with a box whose
// corners are known, and with the metadata's JSON, which is written from them.
BOOST_AUTO_TEST_CASE(a_previews_facts_are_typed) {
    mshconv::MemoryIo io = corpus_in_memory();
    std::string model, map, mission, texture;
    for (const auto& f : msh::test::corpus()) {
        const std::string& p = f.relative_path;
        if (p.ends_with("animals.rlb")) model = p + ":A_BIG.msh";
        if (map.empty() && p.ends_with("/Land.msh")) map = p;
        if (mission.empty() && p.ends_with("/data.tma")) mission = p;
        if (p.ends_with("Textures.lib")) texture = p + ":DEFAULT.0";
    }
    BOOST_TEST_REQUIRE(!model.empty());
    BOOST_TEST_REQUIRE(!map.empty());
    BOOST_TEST_REQUIRE(!mission.empty());
    auto facts_json = [](const mshconv::Preview& p) {
        return nlohmann::json::parse(p.metadata_json)["facts"];
    };
    mshconv::PreviewRequest request{model};
    request.sources.game_dir = "";
    const mshconv::Preview m = mshconv::preview(request, io);
    const mshconv::ModelInfo mi = *mshconv::info(model, io).model;
    BOOST_TEST(m.facts.nodes == mi.node_count);
    BOOST_TEST(m.facts.vertices == mi.vertex_count);
    BOOST_TEST(m.facts.triangles == mi.triangle_count);
    BOOST_TEST(m.facts.animated == (mi.frame_count > 0));
    BOOST_TEST(m.facts.frames == double(mi.frame_count));
    BOOST_TEST(m.facts.keys == mi.key_count);
    std::set<int> lods;
    for (const auto& u : mi.lod_group_usage) lods.insert(u.lod);
    BOOST_TEST((m.facts.lods == std::vector<int>(lods.begin(), lods.end())));
    BOOST_TEST(m.facts.shown_triangles > 0u);
    BOOST_TEST(m.facts.shown_triangles <= m.facts.triangles);
    BOOST_TEST_REQUIRE(m.facts.bounds.has_value());
    BOOST_TEST_REQUIRE(!m.facts.materials.empty());
    const nlohmann::json mj = facts_json(m);
    BOOST_TEST(mj["vertices"] == m.facts.vertices);
    BOOST_TEST(mj["bounds"][1][2] == (*m.facts.bounds)[1][2]);
    BOOST_TEST(mj["material_textures"].size() == m.facts.materials.size());
    BOOST_TEST(mj["materials"][0] == m.facts.materials[0].name);

    const mshconv::Preview t = mshconv::preview({texture}, io);
    const mshconv::TextureInfo ti = *mshconv::info(texture, io).texture;
    BOOST_TEST(t.facts.width == int(ti.width));
    BOOST_TEST(t.facts.height == int(ti.height));
    BOOST_TEST(t.facts.mips == ti.mip_count);
    BOOST_TEST(t.facts.palette == ti.embedded_palette);
    BOOST_TEST(t.facts.format == ti.format);
    BOOST_TEST(facts_json(t)["format"] ==
               (ti.format == 0 ? std::string("indexed") : std::to_string(ti.format)));
    BOOST_TEST(!t.facts.bounds.has_value());

    const mshconv::Preview g = mshconv::preview({map}, io);
    BOOST_TEST((g.kind == mshconv::PreviewKind::Map));
    BOOST_TEST(g.facts.faces == mshconv::info(map, io).terrain->faces);
    size_t by_class = 0;
    for (const mshconv::PreviewArealClass& c : g.facts.areal_classes) {
        by_class += c.areals;
        BOOST_TEST(c.colour.size() == 7u);
    }
    BOOST_TEST(g.facts.areals > 0u);
    BOOST_TEST(by_class == g.facts.areals);
    BOOST_TEST(facts_json(g)["areal_classes"].size() == g.facts.areal_classes.size());

    const mshconv::Preview l = mshconv::preview({mission}, io);
    BOOST_TEST((l.kind == mshconv::PreviewKind::Level));
    BOOST_TEST(l.facts.objects == mshconv::info(mission, io).mission->objects);
    BOOST_TEST(l.facts.distinct_models > 0u); // a unit's parts are models of their own
    BOOST_TEST(l.facts.unresolved <= l.facts.objects);
    BOOST_TEST(facts_json(l)["objects"] == l.facts.objects);

    // A box from (1, -2, 3) to (3, -1, 6) in the OBJ's axes (glTF's): MSH (x, -z, y).
    std::string obj = "o box\n";
    for (int i = 0; i < 8; ++i)
        obj += "v " + std::to_string(i & 1 ? 3 : 1) + " " + std::to_string(i & 2 ? -1 : -2) + " " +
               std::to_string(i & 4 ? 6 : 3) + "\n";
    for (const char* face : {"1 3 4 2", "5 6 8 7", "1 2 6 5", "3 7 8 4", "1 5 7 3", "2 4 8 6"})
        obj += std::string("f ") + face + "\n";
    io.put("box.obj", std::vector<uint8_t>(obj.begin(), obj.end()));
    const mshconv::Preview b = mshconv::preview({"box.obj"}, io);
    BOOST_TEST(b.facts.meshes == 1u);
    BOOST_TEST(b.facts.triangles == 12u);
    BOOST_TEST(!b.facts.animated);
    BOOST_TEST_REQUIRE(b.facts.bounds.has_value());
    const std::array<float, 3> lo{1, -6, -2}, hi{3, -3, -1};
    BOOST_TEST(((*b.facts.bounds)[0] == lo));
    BOOST_TEST(((*b.facts.bounds)[1] == hi));
}

BOOST_AUTO_TEST_CASE(memory_io_lists_folders_and_writes_sets_whole) {
    mshconv::MemoryIo io;
    io.put("a/b/c.txt", {1});
    io.put("a/d.txt", {2});
    io.put("a.txt", {3});
    BOOST_TEST(io.list("a") == (std::vector<std::string>{"b", "d.txt"}));
    BOOST_TEST(io.list("") == (std::vector<std::string>{"a", "a.txt"}));
    BOOST_TEST(io.is_folder("a/b"));
    BOOST_TEST(!io.is_folder("a/d.txt"));
    BOOST_TEST(io.same_file("a/./d.txt", "a/b/../d.txt"));
    const uint8_t x[] = {7, 8};
    io.write_set({{"n/1", {std::span<const uint8_t>(x, 1), std::span<const uint8_t>(x + 1, 1)}}});
    BOOST_TEST((io.at("n/1") == std::vector<uint8_t>{7, 8}));
    BOOST_CHECK_THROW(io.read("missing"), std::runtime_error);
}

BOOST_AUTO_TEST_SUITE_END()

} // namespace front_door_tests
