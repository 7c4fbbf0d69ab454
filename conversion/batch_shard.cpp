#include "batch_shard.hpp"
#include "batch.hpp"

#include "sidecar/json_at.hpp"

#include <mshconv/batch.hpp>

#include <algorithm>
#include <memory>
#include <numeric>

namespace msh::conversion {

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

// An array of strings; a FormatError at the value's pointer otherwise.
std::vector<std::string> strings(const sidecar::JsonAt& array) {
    std::vector<std::string> out;
    for (size_t k = 0; k < array.size(); ++k) out.push_back(array[k].as<std::string>());
    return out;
}

// One item of a report as to_json(BatchResult) wrote it; a FormatError at the value's pointer.
mshconv::BatchItem item_of(const sidecar::JsonAt& j) {
    if (!j.is_object()) j.fail("expected an item object");
    const auto text = [&](const char* key) {
        return j.has(key) ? j[key].as<std::string>() : std::string();
    };
    mshconv::BatchItem item;
    item.input = text("input");
    item.kind = item_kind(text("kind"));
    const std::string status = text("status");
    item.status = status == "converted" ? mshconv::ItemStatus::Converted
                  : status == "failed"  ? mshconv::ItemStatus::Failed
                                        : mshconv::ItemStatus::Skipped;
    item.output = text("output");
    item.message = text(item.status == mshconv::ItemStatus::Failed ? "error" : "reason");
    if (j.has("warnings")) item.warnings = strings(j["warnings"]);
    item.seconds = j.has("seconds") ? j["seconds"].as<double>() : 0.0;
    item.unchanged = j.has("unchanged") && j["unchanged"].as<bool>();
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
    if (report_texts.size() != reports.size())
        throw std::invalid_argument("merge_batch_reports: a name for every report");
    std::vector<std::unique_ptr<sidecar::ParsedJson>> parsed;
    std::vector<sidecar::JsonAt> docs;
    size_t count = 0;
    std::string to;
    for (size_t i = 0; i < reports.size(); ++i) {
        const std::string& text = report_texts[i];
        parsed.push_back(std::make_unique<sidecar::ParsedJson>());
        parsed.back()->parse(ByteView(reinterpret_cast<const uint8_t*>(text.data()), text.size()),
                             reports[i]);
        const sidecar::JsonAt at(parsed.back()->root(), "", reports[i]);
        if (!at.is_object() || !at.has("schema") || !at["schema"].is_text("mshconv-batch/1"))
            at.fail("not a mshconv-batch/1 report");
        if (!at.has("shard")) at["shard"].fail("not the report of a --shard job");
        const size_t n = at["shard"]["count"].as<size_t>();
        const std::string t = at["to"].as<std::string>();
        if (i == 0) count = n, to = t;
        if (n != count)
            at["shard"]["count"].fail("a shard of " + std::to_string(n) + ", not of " +
                                      std::to_string(count));
        if (t != to) at["to"].fail("converted to " + t + ", the first report to " + to);
        docs.push_back(at);
    }
    std::vector<const sidecar::JsonAt*> by_index(count, nullptr);
    for (size_t i = 0; i < docs.size(); ++i) {
        const size_t k = docs[i]["shard"]["index"].as<size_t>();
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
    const sidecar::JsonAt& first = *by_index[0];
    result.output = first.has("output") ? first["output"].as<std::string>() : std::string();
    for (const sidecar::JsonAt* d : by_index) {
        const sidecar::JsonAt items = (*d)["items"];
        for (size_t k = 0; k < items.size(); ++k)
            result.items.push_back(msh::conversion::item_of(items[k]));
        if (d->has("warnings"))
            for (std::string& w : msh::conversion::strings((*d)["warnings"]))
                result.warnings.push_back(std::move(w));
        for (const std::string& in : msh::conversion::strings((*d)["inputs"]))
            if (std::find(result.inputs.begin(), result.inputs.end(), in) == result.inputs.end())
                result.inputs.push_back(in);
        const sidecar::JsonAt by_kind = (*d)["converted_by_kind"];
        for (const std::string& kind : by_kind.keys())
            result.converted_by_kind[kind] += by_kind[kind].as<size_t>();
        const double seconds = (*d)["seconds"].as<double>();
        result.seconds = std::max(result.seconds, seconds); // the wall of the run: its slowest job
        result.job_seconds += seconds;
        result.converted += (*d)["converted"].as<size_t>();
        result.failed += (*d)["failed"].as<size_t>();
        result.skipped += (*d)["skipped"].as<size_t>();
        if (d->has("unchanged")) result.unchanged += (*d)["unchanged"].as<size_t>();
    }
    return result;
}

mshconv::BatchShard mshconv::parse_batch_shard(const std::string& text) {
    const msh::conversion::Shard shard = msh::conversion::parse_shard(text);
    return {unsigned(shard.index), unsigned(shard.count)};
}
