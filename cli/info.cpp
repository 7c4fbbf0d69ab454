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

void print_model_text(const mshconv::ModelInfo& m, const std::string& indent) {
    std::printf("%snodes %zu, slots %zu, batches %zu, vertices %zu, triangles %zu, frames %u (%zu "
                "keys, %zu animated nodes)%s\n",
                indent.c_str(), m.node_count, m.slot_count, m.batch_count, m.vertex_count,
                m.triangle_count, m.frame_count, m.key_count, m.animated_nodes,
                m.legacy_node_table ? ", legacy stride-24 node table" : "");
    for (const mshconv::ModelInfo::Usage& u : m.lod_group_usage)
        std::printf("%s  lod %d group %d: %zu slots, %zu batches, %zu triangles\n", indent.c_str(),
                    u.lod, u.group, u.slots, u.batches, u.triangles);
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
void print_texture_text(const mshconv::TextureInfo& t, const std::string& indent, bool rects) {
    if (t.error) {
        std::printf("%serror: %s\n", indent.c_str(), t.error->c_str());
        return;
    }
    const uint32_t w = t.width, h = t.height, mips = t.mip_count;
    std::printf("%s%u x %u, format %u (%s), %u mip level%s", indent.c_str(), w, h, t.format,
                t.format_name.c_str(), mips, mips == 1 ? "" : "s");
    if (mips > 1)
        std::printf(" (%ux%u .. %ux%u)", w, h, texm::level_width(w, mips - 1),
                    texm::level_height(h, mips - 1));
    std::printf(", Page: %s\n",
                t.page ? (std::to_string(t.page->size()) + " rects").c_str() : "none");
    std::string bits;
    for (const std::string& b : t.flags5_bits) bits += (bits.empty() ? " (" : ", ") + b;
    if (!bits.empty()) bits += ")";
    std::printf("%sflags4 %u, flags5 %s%s, unknown6 %s%s%s\n", indent.c_str(), t.flags4,
                hex32(t.flags5).c_str(), bits.c_str(), hex32(t.unknown6).c_str(),
                t.embedded_palette ? ", embedded palette (256 colours)" : "",
                t.external_palette ? (", external palette " + *t.external_palette).c_str() : "");
    if (rects && t.page)
        for (size_t i = 0; i < t.page->size(); ++i) {
            const mshconv::TextureInfo::Rect& r = (*t.page)[i];
            std::printf("%s  rect %zu: x %u, y %u, %u x %u\n", indent.c_str(), i, r.x, r.y, r.w,
                        r.h);
        }
    for (const std::string& d : t.diagnostics) std::printf("%s%s\n", indent.c_str(), d.c_str());
}

} // namespace

int run_info(const Args& args) {
    po::options_description desc("info options");
    desc.add_options()("json", "print JSON");
    po::variables_map vm;
    if (!parse_options(args, "info IN [--json]", desc, {{"input", "IN"}}, vm)) return 0;

    const mshconv::Info described = mshconv::info(vm["input"].as<std::string>());
    const std::string& where = described.file;
    // A truncated archive: what could be read is shown, and the exit says it is not all.
    const auto& truncated = described.archive ? described.archive->truncated : std::nullopt;
    if (vm.count("json")) {
        std::printf("%s\n", mshconv::to_json(described).c_str());
        if (truncated) std::fprintf(stderr, "error: %s\n", truncated->message.c_str());
        return truncated ? 1 : 0;
    }
    if (described.model) {
        std::printf("%s: model, %zu bytes\n", where.c_str(), described.size);
        print_model_text(*described.model, "  ");
        return 0;
    }
    if (described.terrain || described.areal_map || described.wear || described.mission ||
        described.assembly || described.registry) {
        const std::string kind_key = mshconv::to_string(described.kind);
        std::printf("%s: %s, %zu bytes\n", where.c_str(),
                    described.terrain     ? "terrain (Land.msh)"
                    : described.areal_map ? "areal map (Land.map)"
                    : described.mission   ? "mission (data.tma)"
                    : described.assembly  ? "unit assembly (.dat)"
                    : described.registry  ? "object registry (objects.rlb)"
                                          : "WEAR table",
                    described.size);
        if (described.diagnostics)
            std::printf("  %-22s %zu\n", "diagnostics", *described.diagnostics);
        // Each member as its JSON form gives it.
        const nlohmann::json j = nlohmann::json::parse(mshconv::to_json(described));
        for (const auto& [key, value] : j[kind_key].items())
            std::printf("  %-22s %s\n", key.c_str(), value.dump().c_str());
        return 0;
    }
    if (described.texture) {
        std::printf("%s: Texm texture, %zu bytes\n", where.c_str(), described.size);
        print_texture_text(*described.texture, "  ", true);
        return 0;
    }
    const mshconv::ArchiveInfo& archive = *described.archive;
    if (truncated)
        std::printf("%s: NRes archive, TRUNCATED: %zu of %zu bytes, %zu of %zu entries readable\n",
                    where.c_str(), described.size, truncated->need, truncated->entries_read,
                    archive.entry_count);
    else
        std::printf("%s: NRes archive, %zu entries, %zu bytes, sort index: %s fold\n",
                    where.c_str(), archive.entry_count, described.size, archive.sort_fold.c_str());
    for (const mshconv::ArchiveInfo::Entry& e : archive.entries) {
        std::printf("  %3zu  %-36s %-6s %9zu  attrs %u %u %u\n", e.index, printable(e.name).c_str(),
                    e.type.c_str(), e.size, e.attr1, e.attr2, e.attr3);
        if (e.model) print_model_text(*e.model, "       ");
        if (e.texture) print_texture_text(*e.texture, "       ", false);
        if (e.error) std::printf("       error: %s\n", e.error->c_str());
    }
    if (truncated) {
        if (const size_t unread = truncated->entries_unread)
            std::printf("  %3zu  (unread: %zu more entr%s cut off with the file's end)\n",
                        truncated->entries_read, unread, unread == 1 ? "y" : "ies");
        std::fprintf(stderr, "error: %s\n", truncated->message.c_str());
        return 1;
    }
    return 0;
}

} // namespace msh::cli
