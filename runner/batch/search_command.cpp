#include "runner/batch/search_command.h"

#include "base/units.h"
#include "runner/batch/batch_io.h"
#include "runner/batch/batch_runner.h"
#include "runner/reports/simulation_report.h"
#include "engine/planner/strategy_search.h"
#include "base/atomic_file.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <ostream>

namespace npu::runner {

namespace {

// Left-aligned in `width` columns; labels hold "·", two bytes and one column in UTF-8.
std::string padded(const std::string& text, std::size_t width) {
    std::size_t columns = 0;
    for (unsigned char c : text) columns += (c & 0xC0) != 0x80;
    return text + std::string(columns < width ? width - columns : 1, ' ');
}

// The table, the project's own strategy, the other statuses and the bounds.
void printSearch(const engine::StrategySearchResult* r, double seconds, int top, std::ostream& out) {
    char line[256];
    std::snprintf(line, sizeof line, "%d devices: %zu strategies, %d simulated in %.1f s, %d fit in %s per device\n", r->devices,
                  r->strategies.size(), r->simulations, seconds, r->feasibleCount, units::bytes(static_cast<double>(r->capacity_bytes)).c_str());
    out << line;
    if (r->truncated)
        out << "stopped at the simulation cap: the strategies marked not_run were not simulated (see bounds)\n";
    if (r->feasibleCount > 0) {
        std::snprintf(line, sizeof line, "%4s  %s%10s %10s %11s\n", "rank", padded("strategy", 72).c_str(), "step ms", "tokens/s", "peak");
        out << line;
        for (int i = 0; i < std::min(top, r->feasibleCount); ++i) {
            const engine::StrategyTrial& t = r->strategies[static_cast<std::size_t>(i)];
            std::snprintf(line, sizeof line, "%4d  %s%10.1f %10.0f %11s\n", i + 1, padded(t.config.label(), 72).c_str(), t.step_time_ms, t.tokens_per_s,
                          units::bytes(static_cast<double>(t.peak_bytes)).c_str());
            out << line;
        }
    } else {
        out << "no strategy fits the devices' memory\n";
    }
    if (const engine::StrategyTrial* own = r->current()) {
        const int rank = own->feasible() ? static_cast<int>(own - r->strategies.data()) + 1 : 0;
        if (rank > 0)
            std::snprintf(line, sizeof line, "project's strategy: rank %d, %.0f tokens/s (the best is %.0f %% faster): %s\n", rank,
                          own->tokens_per_s, 100.0 * (r->best()->tokens_per_s / own->tokens_per_s - 1), own->config.label().c_str());
        else
            std::snprintf(line, sizeof line, "project's strategy: %s (%s)%s%.120s\n", std::string(engine::trialStatusName(own->status)).c_str(),
                          own->config.label().c_str(), own->reason.empty() ? "" : ": ", own->reason.c_str());
        out << line;
    }
    std::map<std::string_view, int> others;
    for (const auto& t : r->strategies)
        if (!t.feasible()) ++others[engine::trialStatusName(t.status)];
    for (const auto& [status, n] : others) out << "  " << n << " " << status << "\n";
    out << "bounds:\n";
    for (const std::string& b : r->bounds) out << "  - " << b << "\n";
}

bool writeSearchReport(const std::string& file, nlohmann::json report, std::ostream& err) {
    if (file.empty()) return true;
    if (auto s = npu::writeFileAtomically(file, report.dump(2) + "\n"); !s) {
        err << "npustudio: " << s.message() << "\n";
        return false;
    }
    return true;
}

}  // namespace

int runSearchCommand(const SearchCommandOptions& options, std::ostream& out, std::ostream& err) {
    if (options.top < 1) {
        err << "npustudio: --top: expected a positive integer\n";
        return kExitBadInput;
    }
    auto project = loadBatchProject(options.project, err);
    if (!project) return kExitBadInput;
    engine::StrategySearchOptions search;
    search.shardIndex = options.shardIndex - 1;
    search.shardCount = options.shardCount;
    const auto start = std::chrono::steady_clock::now();
    auto r = engine::searchStrategies(*project, search);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!r) {
        err << "npustudio: " << r.message() << "\n";
        return kExitBadInput;
    }
    if (options.shardCount > 1)
        out << "shard " << options.shardIndex << " of " << options.shardCount << ": merge the shards' reports with --merge for the ranking\n";
    printSearch(&*r, seconds, options.top, out);
    nlohmann::json report = r->toJson();
    report["project"] = options.project;
    report["search_seconds"] = seconds;
    if (!writeSearchReport(options.report, std::move(report), err)) return kExitRunFailed;
    // A shard may hold no strategy that fits: only the merged ranking says whether one does.
    return r->feasibleCount > 0 || options.shardCount > 1 ? kExitOk : kExitRunFailed;
}

namespace {

// The file's JSON; an error naming the file when it cannot be read or parsed.
Expected<nlohmann::json> readJson(const std::string& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return makeError(file + ": cannot open the search report");
    std::stringstream text;
    text << in.rdbuf();
    auto j = nlohmann::json::parse(text.str(), nullptr, false);
    if (j.is_discarded()) return makeError(file + ": not valid JSON");
    return j;
}

}  // namespace

bool isSearchReportFile(const std::string& file) {
    const auto j = readJson(file);
    return j && engine::isStrategySearchReport(*j);
}

int runSearchMerge(const std::vector<std::string>& reports, const std::string& report, int top, std::ostream& out, std::ostream& err) {
    std::vector<engine::StrategySearchResult> parts;
    std::string project;
    double seconds = 0;
    for (const std::string& file : reports) {
        const auto read = readJson(file);
        if (!read) {
            err << "npustudio: " << read.message() << "\n";
            return kExitBadInput;
        }
        const nlohmann::json& j = *read;
        auto part = engine::strategySearchFromJson(j, file);
        if (!part) {
            err << "npustudio: " << part.message() << "\n";
            return kExitBadInput;
        }
        if (project.empty()) project = j.value("project", std::string());
        seconds = std::max(seconds, j.value("search_seconds", 0.0));  // the shards ran side by side
        parts.push_back(std::move(*part));
    }
    auto merged = engine::mergeStrategySearches(std::move(parts), reports);
    if (!merged) {
        err << "npustudio: " << merged.message() << "\n";
        return kExitBadInput;
    }
    printSearch(&*merged, seconds, top, out);
    nlohmann::json j = merged->toJson();
    j["project"] = project;
    j["search_seconds"] = seconds;
    if (!writeSearchReport(report, std::move(j), err)) return kExitRunFailed;
    return merged->feasibleCount > 0 ? kExitOk : kExitRunFailed;
}

}  // namespace npu::runner
