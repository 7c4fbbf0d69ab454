#include "sniff.hpp"

#include "arealmap.hpp"
#include "assembly.hpp"
#include "diagnostics.hpp"
#include "mission.hpp"
#include "nres.hpp"
#include "terrain.hpp"
#include "texm.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>
#include <string>

namespace msh {

namespace {

bool starts_with(ByteView b, std::string_view magic) {
    return b.size() >= magic.size() && std::memcmp(b.data(), magic.data(), magic.size()) == 0;
}

bool ends_with_ci(std::string_view name, std::string_view ext) {
    if (name.size() < ext.size()) return false;
    for (size_t i = 0; i < ext.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(name[name.size() - ext.size() + i])) != ext[i])
            return false;
    return true;
}

ContentKind sniff_nres(ByteView bytes) {
    try {
        // The directory's types decide; no payload is copied (sniffing runs on every file).
        std::vector<uint32_t> types;
        DiagnosticSink sink(ReadMode::Tolerant);
        nres::read_entries(
            bytes,
            [&](const nres::Entry& e) {
                types.push_back(e.type);
                return false;
            },
            sink, "");
        auto has = [&](uint32_t t) {
            return std::find(types.begin(), types.end(), t) != types.end();
        };
        if (has(terrain::kFaces)) return ContentKind::Terrain;
        if (has(1) && has(2) && has(3)) return ContentKind::Model;
        if (types.size() == 1 && types[0] == arealmap::kChunkType) return ContentKind::ArealMap;
        return ContentKind::NResArchive;
    } catch (const FormatError&) {
        return ContentKind::DamagedNRes;
    }
}

// A glTF document: JSON whose top-level object has an "asset" member near the start (writers put
// it first or early; a bounded look keeps sniffing cheap on large files).
bool looks_like_gltf(ByteView b) {
    size_t i = starts_with(b, "\xEF\xBB\xBF") ? 3 : 0;
    while (i < b.size() && std::isspace(b[i])) ++i;
    if (i >= b.size() || b[i] != '{') return false;
    const std::string_view head(reinterpret_cast<const char*>(b.data()),
                                std::min<size_t>(b.size(), 1 << 16));
    return head.find("\"asset\"") != std::string_view::npos;
}

// WEAR text: a positive row count on the first line, then `<legacyId> <name>` rows.
bool looks_like_wear(ByteView b) {
    const std::string_view text(reinterpret_cast<const char*>(b.data()),
                                std::min<size_t>(b.size(), 4096));
    size_t i = 0;
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    const size_t digits = i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
    if (i == digits || text.substr(digits, i - digits) == "0") return false;
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r')) ++i;
    if (i >= text.size() || text[i] != '\n') return false;
    ++i; // the first row: a number, whitespace, a name
    const size_t id = i;
    if (i < text.size() && text[i] == '-') ++i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
    if (i == id) return false;
    const size_t gap = i;
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    return i > gap && i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]));
}

} // namespace

ContentKind sniff(ByteView bytes, const SniffHint& hint) {
    if (hint.entry_type == nres::fourcc("MAT0")) return ContentKind::Material;
    if (nres::looks_like_nres(bytes)) return sniff_nres(bytes);
    if (bytes.size() >= texm::kHeaderSize && load<uint32_t>(bytes, 0) == texm::kMagic)
        return ContentKind::Texm;
    if (starts_with(bytes, "\x89PNG\r\n\x1a\n")) return ContentKind::Png;
    if (starts_with(bytes, "glTF") && bytes.size() >= 12 && load<uint32_t>(bytes, 4) == 2)
        return ContentKind::Glb;
    if (looks_like_gltf(bytes)) return ContentKind::Gltf;
    if (hint.entry_type == nres::fourcc("WEAR") || ends_with_ci(hint.name, ".wea") ||
        looks_like_wear(bytes))
        return ContentKind::Wear;
    if (ends_with_ci(hint.name, ".obj")) return ContentKind::Obj;
    if (mission::looks_like_mission(bytes)) return ContentKind::Mission;
    if (assembly::looks_like_assembly(bytes)) return ContentKind::Assembly;
    return ContentKind::Unknown;
}

const char* to_string(ContentKind kind) {
    switch (kind) {
    case ContentKind::Unknown:
        return "unknown";
    case ContentKind::DamagedNRes:
        return "damaged NRes";
    case ContentKind::NResArchive:
        return "NRes archive";
    case ContentKind::Model:
        return "MSH model";
    case ContentKind::Terrain:
        return "terrain (Land.msh)";
    case ContentKind::ArealMap:
        return "areal map (Land.map)";
    case ContentKind::Texm:
        return "Texm texture";
    case ContentKind::Wear:
        return "WEAR table";
    case ContentKind::Material:
        return "MAT0 material";
    case ContentKind::Gltf:
        return "glTF";
    case ContentKind::Glb:
        return "GLB";
    case ContentKind::Obj:
        return "OBJ";
    case ContentKind::Png:
        return "PNG";
    case ContentKind::Mission:
        return "mission (data.tma)";
    case ContentKind::Assembly:
        return "unit assembly (.dat)";
    }
    return "unknown";
}

} // namespace msh
