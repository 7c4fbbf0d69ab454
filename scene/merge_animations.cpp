#include "merge_animations.hpp"

#include <charconv>
#include <map>
#include <stdexcept>
#include <utility>

namespace msh::scene {

namespace {

std::string label(const Animation& an, size_t index) {
    return "animation " + std::to_string(index) + (an.name.empty() ? "" : " '" + an.name + "'");
}

} // namespace

void merge_animations(Scene& s, const std::string& choice) {
    if (choice != "all") {
        size_t index = s.animations.size();
        for (size_t i = 0; i < s.animations.size() && index == s.animations.size(); ++i)
            if (s.animations[i].name == choice) index = i;
        size_t number = 0;
        const auto r = std::from_chars(choice.data(), choice.data() + choice.size(), number);
        if (index == s.animations.size() && r.ec == std::errc() &&
            r.ptr == choice.data() + choice.size() && number < s.animations.size())
            index = number;
        if (index == s.animations.size()) {
            std::string names;
            for (size_t i = 0; i < s.animations.size(); ++i)
                names += (i ? ", " : "") + label(s.animations[i], i);
            throw std::invalid_argument("--animation " + choice +
                                        ": no such animation (the file has " +
                                        (names.empty() ? std::string("none") : names) + ")");
        }
        Animation picked = std::move(s.animations[index]);
        s.animations.clear();
        s.animations.push_back(std::move(picked));
        return;
    }
    if (s.animations.size() <= 1) return;
    Animation merged;
    std::map<std::pair<int, Path>, size_t> owner; // (node, path) -> animation driving it
    for (size_t a = 0; a < s.animations.size(); ++a) {
        Animation& an = s.animations[a];
        merged.name += (a ? "+" : "") + an.name;
        for (size_t c = 0; c < an.channels.size(); ++c) {
            Channel& ch = an.channels[c];
            const auto [it, fresh] = owner.emplace(std::make_pair(ch.node, ch.path), a);
            if (!fresh && it->second != a) {
                const std::string node = ch.node >= 0 && size_t(ch.node) < s.nodes.size()
                                             ? "node '" + s.nodes[size_t(ch.node)].name + "'"
                                             : "node " + std::to_string(ch.node);
                throw std::invalid_argument(
                    label(s.animations[it->second], it->second) + " and " + label(an, a) +
                    " both drive the " + (ch.path == Path::Rotation ? "rotation" : "translation") +
                    " of " + node +
                    "; MSH models have one timeline: pick one with --animation NAME|INDEX");
            }
            merged.channels.push_back(std::move(ch));
        }
    }
    s.animations.clear();
    s.animations.push_back(std::move(merged));
}

} // namespace msh::scene
