// `mshconv info IN [--json]`: an archive (entries; nested models and textures summarised), a
// model, or a Texm texture (file or archive entry).
#include "commands.hpp"
#include "options.hpp"

#include "formats/texm.hpp"

#include <mshconv/inspect.hpp>

#include <nlohmann/json.hpp>

#include <cstdio>

namespace msh::cli {

namespace {

void print_model_text(const nlohmann::json& j, const std::string& indent) {
    const auto& a = j["animation"];
    std::printf("%snodes %zu, slots %zu, batches %zu, vertices %zu, triangles %zu, frames %u (%zu "
                "keys, %zu animated nodes)%s\n",
                indent.c_str(), j["node_count"].get<size_t>(), j["slot_count"].get<size_t>(),
                j["batch_count"].get<size_t>(), j["vertex_count"].get<size_t>(),
                j["triangle_count"].get<size_t>(), a["frame_count"].get<uint32_t>(),
                a["key_count"].get<size_t>(), a["animated_nodes"].get<size_t>(),
                j["legacy_node_table"].get<bool>() ? ", legacy stride-24 node table" : "");
    for (const auto& u : j["lod_group_usage"])
        std::printf("%s  lod %d group %d: %zu slots, %zu batches, %zu triangles\n", indent.c_str(),
                    u["lod"].get<int>(), u["group"].get<int>(), u["slots"].get<size_t>(),
                    u["batches"].get<size_t>(), u["triangles"].get<size_t>());
}

// A name as a table cell: control bytes (a raw newline would break the table) as \xNN.
std::string printable(const std::string& name) {
    std::string out;
    for (const char c : name) {
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02X", static_cast<unsigned char>(c));
            out += buf;
        } else {
            out += c;
        }
    }
    return out;
}

std::string hex32(uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08X", v);
    return buf;
}

// One texture: size, format, levels, flags, palette, Page rects.
void print_texture_text(const nlohmann::json& t, const std::string& indent, bool rects) {
    if (t.contains("error")) {
        std::printf("%serror: %s\n", indent.c_str(), t["error"].get<std::string>().c_str());
        return;
    }
    const uint32_t w = t["width"], h = t["height"], mips = t["mip_count"];
    std::printf("%s%u x %u, format %u (%s), %u mip level%s", indent.c_str(), w, h,
                t["format"].get<uint32_t>(), t["format_name"].get<std::string>().c_str(), mips,
                mips == 1 ? "" : "s");
    if (mips > 1)
        std::printf(" (%ux%u .. %ux%u)", w, h, texm::level_width(w, mips - 1),
                    texm::level_height(h, mips - 1));
    const auto& page = t["page"];
    std::printf(", Page: %s\n",
                page.is_null() ? "none" : (std::to_string(page.size()) + " rects").c_str());
    std::string bits;
    for (const auto& b : t["flags5_bits"])
        bits += (bits.empty() ? " (" : ", ") + b.get<std::string>();
    if (!bits.empty()) bits += ")";
    std::printf("%sflags4 %u, flags5 %s%s, unknown6 %s%s%s\n", indent.c_str(),
                t["flags4"].get<uint32_t>(), hex32(t["flags5"]).c_str(), bits.c_str(),
                hex32(t["unknown6"]).c_str(),
                t["embedded_palette"].get<bool>() ? ", embedded palette (256 colours)" : "",
                t.contains("external_palette")
                    ? (", external palette " + t["external_palette"].get<std::string>()).c_str()
                    : "");
    if (rects && !page.is_null())
        for (size_t i = 0; i < page.size(); ++i)
            std::printf("%s  rect %zu: x %u, y %u, %u x %u\n", indent.c_str(), i,
                        page[i]["x"].get<uint32_t>(), page[i]["y"].get<uint32_t>(),
                        page[i]["w"].get<uint32_t>(), page[i]["h"].get<uint32_t>());
    for (const auto& d : t["diagnostics"])
        std::printf("%s%s\n", indent.c_str(), d.get<std::string>().c_str());
}

} // namespace

int run_info(const Args& args) {
    po::options_description desc("info options");
    desc.add_options()("json", "print JSON");
    po::variables_map vm;
    if (!parse_options(args, "info IN [--json]", desc, {{"input", "IN"}}, vm)) return 0;

    const mshconv::Info described = mshconv::info(vm["input"].as<std::string>());
    const nlohmann::json j = nlohmann::json::parse(described.json);
    const std::string& where = described.file;
    // A truncated archive: what could be read is shown, and the exit says it is not all.
    const bool truncated = j.contains("truncated");
    if (vm.count("json")) {
        std::printf("%s\n", described.json.c_str());
        if (truncated)
            std::fprintf(stderr, "error: %s\n",
                         j["truncated"]["message"].get<std::string>().c_str());
        return truncated ? 1 : 0;
    }
    if (j["kind"] == "model") {
        std::printf("%s: model, %zu bytes\n", where.c_str(), described.size);
        print_model_text(j["model"], "  ");
        return 0;
    }
    if (j["kind"] == "terrain" || j["kind"] == "areal_map" || j["kind"] == "wear") {
        const std::string kind_key = j["kind"];
        std::printf("%s: %s, %zu bytes\n", where.c_str(),
                    kind_key == "terrain"     ? "terrain (Land.msh)"
                    : kind_key == "areal_map" ? "areal map (Land.map)"
                                              : "WEAR table",
                    described.size);
        if (j.contains("diagnostics"))
            std::printf("  %-22s %zu\n", "diagnostics", j["diagnostics"].get<size_t>());
        for (const auto& [key, value] : j[kind_key].items())
            std::printf("  %-22s %s\n", key.c_str(), value.dump().c_str());
        return 0;
    }
    if (j["kind"] == "texture") {
        std::printf("%s: Texm texture, %zu bytes\n", where.c_str(), described.size);
        print_texture_text(j["texture"], "  ", true);
        return 0;
    }
    if (truncated)
        std::printf("%s: NRes archive, TRUNCATED: %zu of %zu bytes, %zu of %zu entries readable\n",
                    where.c_str(), described.size, j["truncated"]["need"].get<size_t>(),
                    j["truncated"]["entries_read"].get<size_t>(), j["entry_count"].get<size_t>());
    else
        std::printf("%s: NRes archive, %zu entries, %zu bytes, sort index: %s fold\n",
                    where.c_str(), j["entry_count"].get<size_t>(), described.size,
                    j["sort_fold"].get<std::string>().c_str());
    for (const auto& e : j["entries"]) {
        std::printf("  %3zu  %-36s %-6s %9zu  attrs %u %u %u\n", e["index"].get<size_t>(),
                    printable(e["name"].get<std::string>()).c_str(),
                    e["type"].get<std::string>().c_str(), e["size"].get<size_t>(),
                    e["attr1"].get<uint32_t>(), e["attr2"].get<uint32_t>(),
                    e["attr3"].get<uint32_t>());
        if (e.contains("model")) print_model_text(e["model"], "       ");
        if (e.contains("texture")) print_texture_text(e["texture"], "       ", false);
        if (e.contains("error"))
            std::printf("       error: %s\n", e["error"].get<std::string>().c_str());
    }
    if (truncated) {
        const auto& t = j["truncated"];
        const size_t unread = t["entries_unread"].get<size_t>();
        if (unread)
            std::printf("  %3zu  (unread: %zu more entr%s cut off with the file's end)\n",
                        t["entries_read"].get<size_t>(), unread, unread == 1 ? "y" : "ies");
        std::fprintf(stderr, "error: %s\n", t["message"].get<std::string>().c_str());
        return 1;
    }
    return 0;
}

} // namespace msh::cli
