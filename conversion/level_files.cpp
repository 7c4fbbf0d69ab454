#include "level_files.hpp"

#include "address.hpp"
#include "game_files.hpp"
#include "job.hpp"

#include "formats/assembly.hpp"
#include "formats/cp1251.hpp"
#include "formats/names.hpp"
#include "formats/nres.hpp"

#include <algorithm>

namespace msh::conversion {

namespace fs = std::filesystem;

std::optional<fs::path> find_path_ci(Io& io, const fs::path& root, const std::string& relative) {
    fs::path at = root;
    std::string rest = relative;
    std::replace(rest.begin(), rest.end(), '\\', '/');
    size_t start = 0;
    while (start <= rest.size()) {
        const size_t slash = rest.find('/', start);
        const std::string part = rest.substr(start, slash - start);
        start = slash == std::string::npos ? rest.size() + 1 : slash + 1;
        if (part.empty() || part == ".") continue;
        if (part == "..") return std::nullopt; // never outside the game folder
        std::optional<std::string> found;
        for (const std::string& name : io.list(at.empty() ? fs::path(".") : at))
            if (lower_ascii(name) == lower_ascii(part)) {
                found = name;
                break;
            }
        if (!found) return std::nullopt;
        at /= *found;
    }
    return at;
}

std::optional<fs::path> find_game_folder(Io& io, const fs::path& file) {
    for (fs::path probe = file.parent_path();; probe = probe.parent_path()) {
        if (find_file_ci(probe.empty() ? fs::path(".") : probe, "objects.rlb", io)) return probe;
        if (probe.empty() || probe == probe.parent_path()) return std::nullopt;
    }
}

namespace {

bool add_part(ObjectRefs& out, const registry::Registry& registry, const std::string& key,
              int parent, int attach, uint32_t part_class, const std::string& description) {
    std::string why;
    const std::optional<registry::ModelRef> ref = registry.model(key, &why);
    if (!ref) {
        out.parts.clear();
        out.problem = "registry: " + cp1251_to_utf8(why);
        return false;
    }
    out.parts.push_back({*ref, parent, attach, part_class, key, description});
    return true;
}

} // namespace

ObjectRefs resolve_assembly(const std::vector<uint8_t>& dat, const std::string& where,
                            const registry::Registry& registry) {
    ObjectRefs out;
    try {
        const assembly::Assembly a = assembly::read(dat, ReadMode::Tolerant, where);
        const std::vector<int> parents = a.parents();
        for (size_t i = 0; i < a.components.size(); ++i) {
            const assembly::Component& c = a.components[i];
            if (!add_part(out, registry, assembly::text(c.record), parents[i], c.attach,
                          c.part_class, assembly::text(c.description)))
                return out;
        }
    } catch (const FormatError& e) {
        out.parts.clear();
        out.problem = e.what();
    }
    return out;
}

ObjectRefs resolve_object(Io& io, const fs::path& root, const registry::Registry& registry,
                          const mission::PlacedObject& o) {
    ObjectRefs out;
    if (mission::is_scenery(o.kind)) {
        add_part(out, registry, o.path, -1, -1, 0, "");
        return out;
    }
    const std::optional<fs::path> file = find_path_ci(io, root, o.path);
    if (!file) {
        out.problem = "no file " + cp1251_to_utf8(o.path) + " in " + root.string();
        return out;
    }
    return resolve_assembly(read_bytes(io, *file), file->string(), registry);
}

std::string missing_model(Io& io, const fs::path& root, const registry::ModelRef& ref) {
    const std::optional<fs::path> archive = find_path_ci(io, root, ref.archive);
    if (!archive) return "no archive " + ref.archive + " in " + root.string();
    try {
        const Payload bytes = read_payload(io, *archive);
        DiagnosticSink sink(ReadMode::Tolerant);
        bool found = false;
        nres::read_entries(
            bytes,
            [&](const nres::Entry& e) {
                found = found || lower_ascii(e.name()) == lower_ascii(ref.member);
                return false;
            },
            sink, archive->string());
        if (!found) return "no entry " + ref.member + " in " + archive->string();
    } catch (const std::exception& e) {
        return e.what();
    }
    return "";
}

} // namespace msh::conversion
