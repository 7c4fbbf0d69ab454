#include "batch_shard.hpp"
#include "batch.hpp"

#include "sidecar/json_at.hpp"

#include <mshconv/batch.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <numeric>

namespace msh::conversion {

using nlohmann::json;

Shard parse_shard(const std::string& text) {
    Shard s;
    const size_t slash = text.find('/');
    try {
        size_t used = 0;
        if (slash == std::string::npos) throw std::invalid_argument("no '/'");
        s.index = std::stoul(text.substr(0, slash), &used);
        if (used != slash) throw std::invalid_argument("index");
        s.count = std::stoul(text.substr(slash + 1), &used);
        if (used != text.size() - slash - 1) throw std::invalid_argument("count");
        if (s.index > UINT32_MAX || s.count > UINT32_MAX) throw std::out_of_range("I/N");
    } catch (const std::exception&) {
        throw mshconv::UsageError("--shard takes I/N (job I of N, 1 <= I <= N), not '" + text +
                                  "'");
    }
    return checked_shard({unsigned(s.index), unsigned(s.count)});
}

Shard checked_shard(const mshconv::BatchShard& shard) {
    if (shard.count < 1 || shard.index < 1 || shard.index > shard.count)
        throw mshconv::UsageError("--shard takes I/N with 1 <= I <= N, not '" +
                                  std::to_string(shard.index) + "/" + std::to_string(shard.count) +
                                  "'");
    return {shard.index, shard.count};
}

std::vector<bool> shard_members(const std::vector<ShardUnit>& units, const Shard& shard) {
    std::vector<size_t> order(units.size());
    std::iota(order.begin(), order.end(), size_t(0));
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        if (units[a].bytes != units[b].bytes) return units[a].bytes > units[b].bytes;
        return units[a].key < units[b].key;
    });
    std::vector<uint64_t> load(shard.count, 0);
    std::vector<bool> mine(units.size(), false);
    for (size_t u : order) {
        const size_t to = size_t(std::min_element(load.begin(), load.end()) - load.begin());
        load[to] += std::max<uint64_t>(units[u].bytes, 1);
        mine[u] = to + 1 == shard.index;
    }
    return mine;
}

namespace {

// One item of a report as to_json(BatchResult) wrote it.
mshconv::BatchItem item_of(const nlohmann::json& j) {
    mshconv::BatchItem item;
    item.input = j.value("input", "");
    item.kind = item_kind(j.value("kind", ""));
    const std::string status = j.value("status", "");
    item.status = status == "converted" ? mshconv::ItemStatus::Converted
                  : status == "failed"  ? mshconv::ItemStatus::Failed
                                        : mshconv::ItemStatus::Skipped;
    item.output = j.value("output", "");
    item.message = j.value(item.status == mshconv::ItemStatus::Failed ? "error" : "reason", "");
    item.warnings = j.value("warnings", std::vector<std::string>());
    item.seconds = j.value("seconds", 0.0);
    item.unchanged = j.value("unchanged", false);
    return item;
}

} // namespace

} // namespace msh::conversion

// The reports of the N shards of one run merged into one: items concatenated in shard order,
// totals summed, `seconds` the slowest job's. Checks that they are shards 1..N of the same N and
// direction, each once.
mshconv::BatchResult mshconv::merge_batch_reports(const std::vector<std::string>& report_texts,
                                                  const std::vector<std::string>& reports) {
    using namespace msh;
    using nlohmann::json;
    if (report_texts.size() != reports.size())
        throw std::invalid_argument("merge_batch_reports: a name for every report");
    std::vector<json> docs(reports.size());
    size_t count = 0;
    std::string to;
    for (size_t i = 0; i < reports.size(); ++i) {
        const std::string& text = report_texts[i];
        docs[i] = sidecar::parse_json(
            ByteView(reinterpret_cast<const uint8_t*>(text.data()), text.size()), reports[i]);
        const sidecar::JsonAt at(docs[i], "", reports[i]);
        if (!docs[i].is_object() || !docs[i].contains("schema") ||
            docs[i]["schema"] != "mshconv-batch/1")
            at.fail("not a mshconv-batch/1 report");
        if (!docs[i].contains("shard")) at["shard"].fail("not the report of a --shard job");
        const size_t n = at["shard"]["count"].as<size_t>();
        const std::string t = at["to"].as<std::string>();
        if (i == 0) count = n, to = t;
        if (n != count)
            at["shard"]["count"].fail("a shard of " + std::to_string(n) + ", not of " +
                                      std::to_string(count));
        if (t != to) at["to"].fail("converted to " + t + ", the first report to " + to);
    }
    std::vector<const json*> by_index(count, nullptr);
    for (size_t i = 0; i < docs.size(); ++i) {
        const size_t k = docs[i]["shard"]["index"].get<size_t>();
        if (k < 1 || k > count || by_index[k - 1])
            throw mshconv::UsageError(reports[i] + ": shard " + std::to_string(k) + " of " +
                                      std::to_string(count) + " is given twice or out of range");
        by_index[k - 1] = &docs[i];
    }
    std::string missing;
    for (size_t k = 0; k < count; ++k)
        if (!by_index[k]) missing += (missing.empty() ? "" : ", ") + std::to_string(k + 1);
    if (!missing.empty())
        throw mshconv::UsageError("the reports of shard(s) " + missing + " of " +
                                  std::to_string(count) + " are missing");

    BatchResult result;
    result.to = parse_batch_formats(to);
    result.shards = unsigned(count);
    result.output = by_index[0]->value("output", "");
    for (const json* d : by_index) {
        for (const json& item : (*d)["items"])
            result.items.push_back(msh::conversion::item_of(item));
        for (const json& w : d->value("warnings", json::array()))
            result.warnings.push_back(w.get<std::string>());
        for (const json& j : (*d)["inputs"]) {
            const std::string in = j.get<std::string>();
            if (std::find(result.inputs.begin(), result.inputs.end(), in) == result.inputs.end())
                result.inputs.push_back(in);
        }
        for (const auto& [kind, n] : (*d)["converted_by_kind"].items())
            result.converted_by_kind[kind] += n.get<size_t>();
        const double seconds = (*d)["seconds"].get<double>();
        result.seconds = std::max(result.seconds, seconds); // the wall of the run: its slowest job
        result.job_seconds += seconds;
        result.converted += (*d)["converted"].get<size_t>();
        result.failed += (*d)["failed"].get<size_t>();
        result.skipped += (*d)["skipped"].get<size_t>();
        result.unchanged += d->value("unchanged", size_t(0));
    }
    return result;
}

mshconv::BatchShard mshconv::parse_batch_shard(const std::string& text) {
    const msh::conversion::Shard shard = msh::conversion::parse_shard(text);
    return {unsigned(shard.index), unsigned(shard.count)};
}
