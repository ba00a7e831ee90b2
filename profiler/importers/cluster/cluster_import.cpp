#include "profiler/importers/cluster/cluster_import.h"

#include "profiler/importers/chrome_json/trace_file_reader.h"
#include "profiler/importers/chrome_json/trace_meta.h"
#include "profiler/importers/cluster/imported_rank.h"
#include "profiler/importers/cluster/rank_nodes.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

namespace npu::profiler {

namespace {

bool hasTraceExtension(const std::filesystem::path& p) {
    const std::string name = p.filename().string();
    return name.ends_with(".json") || name.ends_with(".json.gz");
}

// "rank-10" after "rank-9": compare digit runs by value.
bool naturalLess(const std::string& a, const std::string& b) {
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (std::isdigit(static_cast<unsigned char>(a[i])) && std::isdigit(static_cast<unsigned char>(b[j]))) {
            size_t ie = i, je = j;
            while (ie < a.size() && std::isdigit(static_cast<unsigned char>(a[ie]))) ++ie;
            while (je < b.size() && std::isdigit(static_cast<unsigned char>(b[je]))) ++je;
            const auto na = std::stoull(a.substr(i, std::min<size_t>(ie - i, 18)));
            const auto nb = std::stoull(b.substr(j, std::min<size_t>(je - j, 18)));
            if (na != nb) return na < nb;
            i = ie;
            j = je;
            continue;
        }
        if (a[i] != b[j]) return a[i] < b[j];
        ++i;
        ++j;
    }
    return a.size() - i < b.size() - j;
}

}  // namespace

std::vector<std::filesystem::path> findRankTraces(const std::filesystem::path& folder) {
    std::vector<std::filesystem::path> files;
    std::error_code ec;
    for (auto it = std::filesystem::recursive_directory_iterator(folder, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
        if (it.depth() > 2) it.disable_recursion_pending();
        if (it->is_regular_file(ec) && hasTraceExtension(it->path()) && sniffTraceFile(it->path()))
            files.push_back(it->path());
    }
    std::sort(files.begin(), files.end(), [&](const auto& a, const auto& b) {
        return naturalLess(std::filesystem::relative(a, folder, ec).string(), std::filesystem::relative(b, folder, ec).string());
    });
    return files;
}

int rankFromFileName(const std::filesystem::path& file) {
    std::string name = file.filename().string();
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    const auto at = name.rfind("rank");
    if (at == std::string::npos) return -1;
    size_t i = at + 4;
    while (i < name.size() && (name[i] == '-' || name[i] == '_' || name[i] == '.')) ++i;
    size_t e = i;
    while (e < name.size() && std::isdigit(static_cast<unsigned char>(name[e])) && e - i < 9) ++e;
    return e > i ? std::stoi(name.substr(i, e - i)) : -1;
}

Expected<ImportSummary> importFolder(const std::filesystem::path& folder, TraceSink& sink, const ImportOptions& options,
                                     const Progress& progress) {
    const auto files = findRankTraces(folder);
    if (files.empty())
        return makeError(folder.string() + ": no trace files found (expected per-rank *.json or *.json.gz Chrome traces)");
    std::uint64_t totalBytes = 0;
    std::error_code ec;
    for (const auto& f : files) totalBytes += std::filesystem::file_size(f, ec);

    using Result = Expected<std::unique_ptr<TraceBuilder>>;
    std::vector<std::optional<Result>> results(files.size());
    std::mutex mutex;
    std::condition_variable ready;
    std::atomic<size_t> nextFile{0};
    std::atomic<bool> stop{false};
    std::atomic<std::uint64_t> consumed{0};
    const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
    const size_t workers = std::min<size_t>(files.size(), options.threads > 0 ? options.threads : hw);
    std::vector<std::thread> pool;
    for (size_t w = 0; w < workers; ++w) {
        pool.emplace_back([&] {
            for (size_t k; (k = nextFile++) < files.size() && !stop;) {
                ReadOptions read;
                read.cancel = &stop;
                read.keepEventsBeforeCut = !options.refuseTruncated;
                read.onBytes = [&](std::uint64_t delta) { consumed += delta; };
                Result r = readTraceFile(files[k], read);
                std::lock_guard lock(mutex);
                results[k] = std::move(r);
                ready.notify_all();
            }
        });
    }
    struct Joiner {
        std::vector<std::thread>& pool;
        std::atomic<bool>& stop;
        ~Joiner() {
            stop = true;
            for (auto& t : pool) t.join();
        }
    } joiner{pool, stop};

    double lastReported = 0;
    auto report = [&](double fraction, std::string_view stage) {
        if (fraction < lastReported) return;
        lastReported = fraction;
        progress(fraction, stage);
    };
    ImportSummary summary;
    ImportDiagnostics diagnostics;
    std::vector<ImportedRank> ranks;
    std::vector<std::unique_ptr<TraceBuilder>> builders;
    std::set<int> ranksSeen;
    std::pair<int, std::string> worldSize{-1, {}};  // the first file's world size, and that file
    for (size_t k = 0; k < files.size(); ++k) {
        std::unique_lock lock(mutex);
        while (!results[k]) {
            ready.wait_for(lock, std::chrono::milliseconds(50));
            if (progress.cancelled()) {
                stop = true;
                return cancelledError("import cancelled");
            }
            report(kTraceReadShare * double(consumed) / double(std::max<std::uint64_t>(1, totalBytes)), "reading traces");
        }
        Result r = std::move(*results[k]);
        lock.unlock();
        if (!r) {
            stop = true;
            return r.error();
        }
        auto builder = std::move(r.value());
        // One job per import: traces of different world sizes are different jobs, whose
        // clocks and ranks have nothing in common (merged, they span years of "time").
        if (const int world = builder->worldSizeFromMetadata(); world > 0) {
            if (worldSize.first < 0) {
                worldSize = {world, files[k].filename().string()};
            } else if (world != worldSize.first) {
                stop = true;
                return makeError(folder.string() + ": the traces come from different jobs: " + worldSize.second +
                                 " has distributedInfo.world_size " + std::to_string(worldSize.first) + ", " + files[k].filename().string() +
                                 " has " + std::to_string(world) + "; expected one job's traces (one folder per job, or import a file alone)");
            }
        }
        int rank = builder->rankFromMetadata();
        if (rank < 0) rank = rankFromFileName(files[k]);
        if (rank < 0 || ranksSeen.count(rank)) {
            if (rank >= 0)
                diagnostics.add(DiagnosticKind::duplicate_rank, 1,
                                files[k].filename().string() + " claims rank " + std::to_string(rank) + " again; numbered by file order");
            rank = static_cast<int>(k);
            while (ranksSeen.count(rank)) ++rank;
        }
        ranksSeen.insert(rank);
        ImportedRank info;
        info.rank = rank;
        info.file = files[k].filename().string();
        info.host = traceHostName(*builder);
        if (info.host.empty()) info.host = hostFromAscendFolder(files[k]);
        info.nodeByRankOrder = kinetoNodeOfRank(*builder, rank);
        info.links = linksBesideCapture(files[k]);
        info.firstStepNs = builder->firstStepStartNs();
        info.source = builder->source();
        if (const std::string* v = topLevelValue(*builder, "distributedInfo")) info.distributedInfo = *v;
        if (const std::string* v = topLevelValue(*builder, "deviceProperties")) info.deviceProperties = *v;
        info.deviceName = deviceNameFrom(*builder);
        ranks.push_back(std::move(info));
        builders.push_back(std::move(builder));
    }
    const ClusterPlan plan = planCluster(ranks, options.alignRanksAtStepStart, diagnostics);
    for (size_t i = 0; i < plan.writeOrder.size(); ++i) {
        const size_t k = plan.writeOrder[i];
        TraceBuilder& builder = *builders[k];
        ImportedRank& rank = ranks[k];
        if (rank.shiftNs != 0) builder.shiftTime(rank.shiftNs);
        TraceEmitOptions emit;
        emit.devicePrefix = rank.devicePrefix = plan.placement.devicePrefix(rank.rank);
        summary.rankDevicePrefix[rank.rank] = emit.devicePrefix;
        emit.steps = k == 0;  // STEP has no rank column: the first rank's steps stand for the run
        const double from = kTraceReadShare + (1 - kTraceReadShare) * double(i) / double(files.size());
        const double to = kTraceReadShare + (1 - kTraceReadShare) * double(i + 1) / double(files.size());
        Progress sub{[&](double f, std::string_view stage) { report(f, stage); }, progress.cancel};
        auto stats = builder.writeTo(sink, emit, sub, from, to);
        if (!stats) return stats.error();
        rank.counts = builder.emittedCounts(*stats);
        summary.addCounts(rank.counts);
        diagnostics.merge(builder.diagnostics(), rank.file);
    }
    finishCluster(plan, ranks, sink, diagnostics);
    summary.diagnostics = diagnostics.total();
    report(1.0, "written");
    return summary;
}

}  // namespace npu::profiler
