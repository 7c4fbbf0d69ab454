#include "options.hpp"

#include "formats/names.hpp"

#include <algorithm>
#include <cctype>
#include <iostream>

namespace msh::cli {

namespace {

namespace style = po::command_line_style;

// Whole option names only: an abbreviation guessed into an option would give one word two
// spellings, and a typo a meaning.
constexpr int kStyle = style::default_style & ~style::allow_guessing;

std::string lower(std::string text) {
    for (char& c : text) c = char(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

std::string without_dashes(const std::string& name) {
    return name.substr(std::min(name.find_first_not_of('-'), name.size()));
}

// The command's words for its options and positionals, as the synopsis spells them.
class Names {
  public:
    Names(const po::options_description& listed, const po::options_description& hidden,
          const std::vector<Positional>& positionals)
        : listed_(listed), hidden_(hidden), positionals_(positionals) {}

    // `-o` for an option with a short name, else `--name`; IN for a positional.
    std::string shown(const std::string& key) const {
        for (const Positional& p : positionals_)
            if (p.key == key) return p.shown;
        if (const po::option_description* od = find(key)) return shown(*od);
        return "--" + key;
    }

    static std::string shown(const po::option_description& od) {
        const std::string s = od.canonical_display_name(style::allow_dash_for_short);
        return s.size() == 2 && s[0] == '-' ? s : "--" + od.long_name();
    }

    // The listed options' spellings, the candidates of a suggestion.
    std::vector<std::string> listed_spellings() const {
        std::vector<std::string> out;
        for (const auto& od : listed_.options()) {
            out.push_back("--" + od->long_name());
            const std::string s = shown(*od);
            if (s.size() == 2) out.push_back(s);
        }
        return out;
    }

    bool is_positional(const std::string& key) const {
        return std::any_of(positionals_.begin(), positionals_.end(),
                           [&](const Positional& p) { return p.key == key; });
    }

    std::string positionals_text() const {
        std::string text;
        for (const Positional& p : positionals_) text += (text.empty() ? "" : " ") + p.shown;
        return text;
    }

  private:
    // By long name (`fps`) or short one (`j`).
    const po::option_description* find(const std::string& name) const {
        for (const po::options_description* d : {&listed_, &hidden_})
            for (const auto& od : d->options())
                if (od->long_name() == name ||
                    od->canonical_display_name(style::allow_dash_for_short) == "-" + name)
                    return od.get();
        return nullptr;
    }

    const po::options_description& listed_;
    const po::options_description& hidden_;
    const std::vector<Positional>& positionals_;
};

std::string unknown_option(const std::string& token, const Names& names) {
    const std::string typed = token.substr(0, token.find('='));
    return "unknown option '" + typed + "'" +
           did_you_mean(closest_words(typed, names.listed_spellings()));
}

// Boost's message with the option named as the user knows it.
std::string in_user_words(po::error_with_option_name& e, const Names& names) {
    const std::string key = without_dashes(e.get_option_name());
    if (!key.empty()) {
        e.set_option_name("");
        e.set_original_token(names.shown(key));
    }
    return e.what();
}

// The first argument no positional takes, found by parsing again with room for it.
std::string first_extra_argument(const Args& args, const po::options_description& all,
                                 const po::positional_options_description& pos) {
    const std::string extra = "\x01extra";
    po::options_description with_extra;
    with_extra.add(all).add_options()(extra.c_str(), po::value<std::vector<std::string>>());
    po::positional_options_description more = pos;
    more.add(extra.c_str(), -1);
    try {
        for (const po::option& o : po::command_line_parser(args)
                                       .options(with_extra)
                                       .positional(more)
                                       .style(kStyle)
                                       .run()
                                       .options)
            if (o.string_key == extra && !o.value.empty()) return o.value.front();
    } catch (const po::error&) {
    }
    return {};
}

} // namespace

std::vector<std::string> closest_words(const std::string& typed,
                                       const std::vector<std::string>& known) {
    const std::string word = lower(typed), bare = without_dashes(word);
    const size_t limit = 1 + bare.size() / 5;
    size_t best = limit + 1;
    std::vector<std::string> out;
    for (const std::string& k : known) {
        const size_t d = edit_distance(word, lower(k));
        if (d > limit || d > best || bare.size() < 2) continue;
        if (d < best) out.clear();
        best = d;
        if (std::find(out.begin(), out.end(), k) == out.end()) out.push_back(k);
    }
    if (out.empty() && bare.size() >= 2)
        for (const std::string& k : known)
            if (without_dashes(lower(k)).starts_with(bare)) out.push_back(k);
    if (out.size() > 3) out.resize(3);
    return out;
}

std::string did_you_mean(const std::vector<std::string>& words) {
    if (words.empty()) return {};
    std::string text = "; did you mean ";
    for (size_t i = 0; i < words.size(); ++i)
        text += (i == 0 ? "" : i + 1 == words.size() ? " or " : ", ") + ("'" + words[i] + "'");
    return text + "?";
}

bool parse_options(const Args& args, const std::string& usage, po::options_description& desc,
                   const std::vector<Positional>& positionals, po::variables_map& vm,
                   const po::options_description& hidden) {
    desc.add_options()("help,h", "show this help");
    po::options_description all;
    all.add(desc).add(hidden);
    po::positional_options_description pos;
    for (const Positional& p : positionals) {
        if (p.many)
            all.add_options()(p.key.c_str(), po::value<std::vector<std::string>>());
        else
            all.add_options()(p.key.c_str(), po::value<std::string>());
        pos.add(p.key.c_str(), p.many ? -1 : 1);
    }
    const Names names(desc, hidden, positionals);
    const std::string command = usage.substr(0, usage.find(' '));
    try {
        const po::parsed_options parsed =
            po::command_line_parser(args).options(all).positional(pos).style(kStyle).run();
        // A positional's key typed as an option (`--input`) is no option of the command.
        for (const po::option& o : parsed.options)
            if (o.position_key == -1 && names.is_positional(o.string_key))
                throw UsageError(unknown_option("--" + o.string_key, names));
        po::store(parsed, vm);
    } catch (const po::unknown_option& e) {
        throw UsageError(unknown_option(e.get_option_name(), names));
    } catch (const po::too_many_positional_options_error&) {
        const std::string extra = first_extra_argument(args, all, pos);
        throw UsageError("too many arguments" + (extra.empty() ? "" : " ('" + extra + "')") + ": " +
                         command + " takes " + names.positionals_text());
    } catch (po::error_with_option_name& e) {
        throw UsageError(in_user_words(e, names));
    }
    if (vm.count("help")) {
        std::cout << "usage: mshconv " << usage << "\n" << desc;
        return false;
    }
    for (const Positional& p : positionals)
        if (p.required && !vm.count(p.key)) throw UsageError("missing " + p.shown);
    for (const auto& od : desc.options())
        if (od->semantic()->is_required() && !vm.count(od->long_name()))
            throw UsageError("missing " + Names::shown(*od));
    try {
        po::notify(vm);
    } catch (po::error_with_option_name& e) {
        throw UsageError(in_user_words(e, names));
    }
    return true;
}

} // namespace msh::cli
