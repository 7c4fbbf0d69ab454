// `mshconv info IN [--json]`
#include "address.hpp"
#include "commands.hpp"
#include "options.hpp"
#include "summary.hpp"

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

} // namespace

int run_info(const Args& args) {
    po::options_description desc("info options");
    desc.add_options()("input", po::value<std::string>()->required(),
                       "file or archive entry")("json", "print JSON");
    po::positional_options_description pos;
    pos.add("input", 1);
    po::variables_map vm;
    if (!parse_options(args, "info IN [--json]", desc, pos, vm)) return 0;

    Loaded in = load(parse_address(vm["input"].as<std::string>()));
    std::string where = in.address.display();
    nlohmann::json j;
    switch (classify(in.bytes)) {
    case Kind::Model: {
        DiagnosticSink sink(ReadMode::Tolerant);
        j = {{"kind", "model"}, {"model", summarize_model(read_model(in.bytes, sink, where))}};
        j["diagnostics"] = sink.diagnostics().size();
        break;
    }
    case Kind::Archive:
        j = summarize_archive(nres::read(in.bytes, ReadMode::Tolerant, where), where);
        break;
    case Kind::Other:
        throw FormatError(where, 0, "not an NRes archive or model (no 'NRes' magic)");
    }
    j["file"] = where;
    j["size"] = in.bytes.size();
    if (vm.count("json")) {
        std::printf("%s\n", j.dump(2).c_str());
        return 0;
    }
    if (j["kind"] == "model") {
        std::printf("%s: model, %zu bytes\n", where.c_str(), in.bytes.size());
        print_model_text(j["model"], "  ");
        return 0;
    }
    std::printf("%s: NRes archive, %zu entries, %zu bytes\n", where.c_str(),
                j["entry_count"].get<size_t>(), in.bytes.size());
    for (const auto& e : j["entries"]) {
        std::printf("  %3zu  %-36s %-6s %9zu  attrs %u %u %u\n", e["index"].get<size_t>(),
                    e["name"].get<std::string>().c_str(), e["type"].get<std::string>().c_str(),
                    e["size"].get<size_t>(), e["attr1"].get<uint32_t>(), e["attr2"].get<uint32_t>(),
                    e["attr3"].get<uint32_t>());
        if (e.contains("model")) print_model_text(e["model"], "       ");
        if (e.contains("error"))
            std::printf("       error: %s\n", e["error"].get<std::string>().c_str());
    }
    return 0;
}

} // namespace msh::cli
