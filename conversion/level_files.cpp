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

ObjectRefs LevelReferences::resolve(const mission::PlacedObject& o) {
    ObjectRefs out;
    if (mission::is_scenery(o.kind)) {
        add_part(out, registry_, o.path, -1, -1, 0, "");
        return out;
    }
    const std::string key = lower_ascii(o.path);
    if (const auto it = assemblies_.find(key); it != assemblies_.end()) return it->second;
    const std::optional<fs::path> file = find_path_ci(io_, root_, o.path);
    if (!file)
        out.problem = "no file " + cp1251_to_utf8(o.path) + " in " + root_.string();
    else
        out = resolve_assembly(read_bytes(io_, *file), file->string(), registry_);
    return assemblies_[key] = out;
}

std::string LevelReferences::missing_model(const registry::ModelRef& ref) {
    const std::string archive = lower_ascii(ref.archive);
    if (!members_.count(archive) && !archives_.count(archive)) {
        const std::optional<fs::path> path = find_path_ci(io_, root_, ref.archive);
        if (!path) {
            archives_[archive] = "no archive " + ref.archive + " in " + root_.string();
        } else {
            try {
                const Payload bytes = read_payload(io_, *path);
                DiagnosticSink sink(ReadMode::Tolerant);
                std::set<std::string>& names = members_[archive];
                nres::read_entries(
                    bytes,
                    [&](const nres::Entry& e) {
                        names.insert(lower_ascii(e.name()));
                        return false;
                    },
                    sink, path->string());
            } catch (const std::exception& e) {
                members_.erase(archive);
                archives_[archive] = e.what();
            }
        }
    }
    if (const auto it = archives_.find(archive); it != archives_.end()) return it->second;
    if (!members_[archive].count(lower_ascii(ref.member)))
        return "no entry " + ref.member + " in " + ref.archive;
    return "";
}

std::string LevelReferences::problem(const mission::PlacedObject& o) {
    const ObjectRefs refs = resolve(o);
    if (!refs.problem.empty()) return refs.problem;
    for (const PartRef& p : refs.parts)
        if (std::string why = missing_model(p.model); !why.empty()) return why;
    return "";
}

} // namespace msh::conversion
