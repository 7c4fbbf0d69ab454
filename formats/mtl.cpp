#include "mtl.hpp"

#include "obj.hpp"

#include <cstdlib>
#include <map>

namespace msh::mtl {

namespace {

// map_* options and how many arguments each takes at most (-o/-s/-t take 1 to 3 numbers).
const std::map<std::string_view, int>& map_options() {
    static const std::map<std::string_view, int> options = {
        {"-blendu", 1}, {"-blendv", 1},  {"-boost", 1}, {"-cc", 1}, {"-clamp", 1},
        {"-mm", 2},     {"-o", 3},       {"-s", 3},     {"-t", 3},  {"-texres", 1},
        {"-bm", 1},     {"-imfchan", 1}, {"-type", 1}};
    return options;
}

bool is_number(std::string_view token) {
    const std::string s(token);
    char* end = nullptr;
    std::strtod(s.c_str(), &end);
    return !s.empty() && end == s.c_str() + s.size();
}

// The file name of a map_* statement: what follows its options (it may hold blanks).
std::string map_file(const obj::Statement& st, const std::string& where) {
    size_t k = 0;
    while (k < st.args.size()) {
        const auto option = map_options().find(st.args[k]);
        if (option == map_options().end()) break;
        ++k;
        const bool numeric = option->first == "-o" || option->first == "-s" ||
                             option->first == "-t" || option->first == "-mm";
        for (int n = 0; n < option->second && k < st.args.size(); ++n) {
            if (numeric && !is_number(st.args[k])) break;
            ++k;
        }
    }
    if (k >= st.args.size()) obj::fail(where, st, "map_Kd without a file name");
    // The rest of the line from this argument on: file names may contain blanks.
    const size_t offset = size_t(st.args[k].data() - st.rest.data());
    std::string file(st.rest.substr(offset));
    while (!file.empty() && (file.back() == ' ' || file.back() == '\t')) file.pop_back();
    return file;
}

} // namespace

std::vector<Material> read(std::string_view text, const std::string& where) {
    std::vector<Material> out;
    obj::scan(text, where, [&](const obj::Statement& st) {
        if (st.keyword == "newmtl") {
            Material m;
            m.name = std::string(st.rest);
            while (!m.name.empty() && (m.name.back() == ' ' || m.name.back() == '\t'))
                m.name.pop_back();
            out.push_back(std::move(m));
            return;
        }
        if (out.empty()) return; // statements before the first newmtl belong to no material
        Material& m = out.back();
        if (st.keyword == "Kd") {
            if (st.args.size() == 1 && st.args[0] != "spectral" && st.args[0] != "xyz") {
                const float v = obj::number(st.args[0], where, st);
                m.diffuse = {v, v, v};
            } else if (st.args.size() >= 3 && st.args[0] != "spectral" && st.args[0] != "xyz") {
                m.diffuse = {obj::number(st.args[0], where, st), obj::number(st.args[1], where, st),
                             obj::number(st.args[2], where, st)};
            } else if (st.args.empty()) {
                obj::fail(where, st, "Kd without a colour");
            }
        } else if (st.keyword == "d" && !st.args.empty() && st.args[0] != "-halo") {
            m.dissolve = obj::number(st.args[0], where, st);
        } else if (st.keyword == "Tr" && !st.args.empty()) {
            m.dissolve = 1 - obj::number(st.args[0], where, st);
        } else if (st.keyword == "map_Kd") {
            m.diffuse_map = map_file(st, where);
        }
    });
    return out;
}

} // namespace msh::mtl
