// The step breakdown of the shared two-rank Ascend text capture held against Ascend's own
// analysis of it: each rank's step_trace_time.csv (written by torch_npu beside the
// trace), every column to 0.1%. Imported once as the two-rank folder (cluster) and once
// as rank 0's trace_view.json alone. Also: top-kernel shares over both ranks stay <= 100%.

#include "profiler/analysis/kernel_launches.h"
#include "profiler/analysis/memory_live_blocks.h"
#include "profiler/analysis/op_statistics.h"
#include "profiler/analysis/run_report.h"
#include "profiler/analysis/step_breakdown.h"
#include "profiler/importers/trace_importer.h"
#include "profiler/store/profile_db.h"

#include <QTemporaryDir>
#include <QtTest>

#include <sqlite3.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

using namespace npu::profiler;

namespace {

const std::filesystem::path kSet = std::filesystem::path(NPU_SHARED_DATA_DIR) / "third_party/msinsight/pt_text_level1";

std::filesystem::path rankOutput(int rank) {
    return kSet / ("rank" + std::to_string(rank) + "_ascend_pt") / "ASCEND_PROFILER_OUTPUT";
}

std::vector<std::string> splitCsv(const std::string& line) {
    std::vector<std::string> out;
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, ',')) {
        while (!cell.empty() && (cell.back() == '\r' || cell.back() == '\t' || cell.back() == ' ')) cell.pop_back();
        if (cell.starts_with("\xEF\xBB\xBF")) cell.erase(0, 3);  // UTF-8 BOM
        out.push_back(cell);
    }
    return out;
}

// step_trace_time.csv: a header and one row per step, times in microseconds.
std::map<std::string, double> expectedRow(int rank) {
    std::ifstream in(rankOutput(rank) / "step_trace_time.csv");
    std::string header, row;
    std::getline(in, header);
    std::getline(in, row);
    const auto names = splitCsv(header), values = splitCsv(row);
    std::map<std::string, double> out;
    for (size_t i = 0; i < names.size() && i < values.size(); ++i) out[names[i]] = std::stod(values[i]);
    if (out.size() < 10) qWarning("step_trace_time.csv of rank %d: %zu columns", rank, out.size());
    return out;
}

void compareRow(const StepBreakdownRow& r, const std::map<std::string, double>& want, const std::string& label) {
    if (!want.count("Step")) QFAIL("step_trace_time.csv has no Step column");
    QCOMPARE(r.step, "ProfilerStep#" + std::to_string(static_cast<int>(want.at("Step"))));
    const std::map<std::string, std::int64_t> got = {
        {"Computing", r.computing_ns},
        {"Communication(Not Overlapped)", r.comm_not_overlapped_ns},
        {"Overlapped", r.overlapped_ns},
        {"Communication", r.communication_ns},
        {"Free", r.free_ns},
        {"Stage", r.stage_ns},
        {"Bubble", r.bubble_ns},
        {"Communication(Not Overlapped and Exclude Receive)", r.comm_not_overlapped_exclude_receive_ns},
        {"Preparing", r.preparing_ns}};
    for (const auto& [column, ns] : got) {
        if (!want.count(column)) QFAIL(qPrintable(QStringLiteral("step_trace_time.csv has no column ") + QString::fromStdString(column)));
        const double expectedUs = want.at(column), us = double(ns) / 1000.0;
        // 0.1% of the value; columns that are 0 in the csv must be 0 to 1 ns.
        const double tolerance = std::max(1e-3 * std::abs(expectedUs), 1e-3);
        if (std::abs(us - expectedUs) > tolerance)
            QFAIL(qPrintable(QStringLiteral("%1 %2: %3 us, step_trace_time.csv says %4 us")
                                 .arg(QString::fromStdString(label), QString::fromStdString(column))
                                 .arg(us, 0, 'f', 3)
                                 .arg(expectedUs, 0, 'f', 3)));
    }
}

}  // namespace

class TestAscendStepTrace : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    std::unique_ptr<ProfileDb> importAndOpen(const std::filesystem::path& in, const char* name) {
        const auto out = std::filesystem::path(m_dir.path().toStdString()) / name;
        auto r = importTrace(in, out);
        if (!r) {
            qWarning("%s", r.message().c_str());
            return nullptr;
        }
        auto db = ProfileDb::open(out);
        return db ? std::move(db.value()) : nullptr;
    }

private slots:
    void initTestCase() {
        if (!std::filesystem::exists(rankOutput(0) / "step_trace_time.csv"))
            QSKIP("shared data third_party/msinsight/pt_text_level1 not present");
    }

    void singleRankEqualsStepTraceTime() {
        auto db = importAndOpen(rankOutput(0) / "trace_view.json", "rank0.npudb");
        QVERIFY(db);
        const auto rows = computeStepBreakdown(*db);
        QCOMPARE(rows.size(), size_t(1));
        compareRow(rows[0], expectedRow(0), "rank 0");
    }

    // One rank's folder (rank0_ascend_pt) names its NPU "rank0 NPU 0", as a cluster does:
    // memory_record.csv's counters must land on that device, not on a new "NPU 0" without kernels.
    void oneRankFolderKeepsMemoryOnItsNpu() {
        auto db = importAndOpen(rankOutput(0).parent_path(), "rank0_folder.npudb");
        QVERIFY(db);
        const auto report = runReport(*db);
        int npus = 0;
        for (const auto& d : report["devices"]) {
            if (d["kind"] != "npu") continue;
            ++npus;
            QCOMPARE(d["name"].get<std::string>(), std::string("rank0 NPU 0"));
            QVERIFY(d["kernels"].get<int>() > 0);
            QVERIFY(d["peak_allocated_bytes"].is_number() && d["peak_allocated_bytes"].get<double>() > 0);
        }
        QCOMPARE(npus, 1);

        // The Memory tab's click lists the operator allocations live at an instant (no
        // addresses in a text export): the same set as operator_memory.csv read here, times
        // parsed as integer microseconds + fraction (what Ascend writes: "1736408883694624.810").
        auto ns = [](std::string c) -> std::int64_t {
            while (!c.empty() && (c.back() == '\t' || c.back() == '\r' || c.back() == ' ')) c.pop_back();
            if (c.empty()) return -1;
            const auto dot = c.find('.');
            std::string frac = dot == std::string::npos ? std::string() : c.substr(dot + 1);
            frac = (frac + "000").substr(0, 3);
            return std::stoll(c.substr(0, dot)) * 1000 + std::stoll(frac);
        };
        std::vector<std::pair<std::int64_t, std::int64_t>> allocations;  // alloc, release (-1: live at the end)
        std::ifstream in(rankOutput(0) / "operator_memory.csv");
        std::string line;
        std::getline(in, line);  // Name,Size(KB),Allocation Time(us),Release Time(us),...
        while (std::getline(in, line)) {
            const auto cells = splitCsv(line);
            if (cells.size() < 4 || std::stod(cells[1]) <= 0) continue;
            allocations.push_back({ns(cells[2]), ns(cells[3])});
        }
        QVERIFY(allocations.size() > 10);
        std::vector<std::int64_t> starts;
        for (const auto& a : allocations) starts.push_back(a.first);
        std::sort(starts.begin(), starts.end());
        const std::int64_t t = starts[starts.size() / 2];
        const auto expected = std::count_if(allocations.begin(), allocations.end(),
                                            [&](const auto& a) { return a.first <= t && (a.second < 0 || a.second > t); });
        std::int64_t device = -1;
        for (const auto& d : db->devices())
            if (d.name == "rank0 NPU 0") device = d.id;
        QVERIFY(hasOperatorAllocations(*db, device));
        const LiveBlocks live = liveBlocks(*db, {device, t, t, false, 0});
        QCOMPARE(live.count, std::int64_t(expected));
        QVERIFY(live.count > 0);
        QCOMPARE(live.blocks.front().addr, std::int64_t{-1});
        QVERIFY(!live.blocks.front().name.empty());  // the op (aten::empty_strided, ...)
    }

    // torch_npu's HostToDevice flows (CANN node launch -> NPU task) are the launches of
    // the Host tab, as Kineto's ac2g are; the op comes from the task's async_npu flow.
    void hostToDeviceFlowsAreLaunches() {
        auto db = importAndOpen(kSet, "launches.npudb");
        QVERIFY(db);
        // Independently: HostToDevice flow ids with both a start and an end, per rank file.
        size_t expected = 0;
        for (int rank = 0; rank < 2; ++rank) {
            std::ifstream in(rankOutput(rank) / "trace_view.json");
            const auto doc = nlohmann::json::parse(in);
            const auto& events = doc.is_array() ? doc : doc["traceEvents"];
            std::set<std::string> starts, ends;
            for (const auto& e : events) {
                if (e.value("cat", "") != "HostToDevice" || !e.contains("id")) continue;
                const std::string ph = e.value("ph", ""), id = e["id"].dump();
                if (ph == "s") starts.insert(id);
                else if (ph == "f" || ph == "t") ends.insert(id);
            }
            for (const auto& id : starts) expected += ends.count(id);
        }
        QCOMPARE(expected, size_t(420));
        const auto launches = loadKernelLaunches(*db);
        QCOMPARE(launches.size(), expected);
        const auto named = std::count_if(launches.begin(), launches.end(), [](const KernelLaunch& l) { return l.opName >= 0; });
        QVERIFY2(named > 0, "no launch found its PyTorch op through async_npu");
    }

    void clusterEqualsEachRanksStepTraceTime() {
        auto db = importAndOpen(kSet, "cluster.npudb");
        QVERIFY(db);
        const auto rows = computeStepBreakdown(*db);
        int matched = 0;
        for (int rank = 0; rank < 2; ++rank) {
            const std::string prefix = "rank" + std::to_string(rank) + " ";
            for (const auto& r : rows) {
                if (r.type != "rank" || !r.deviceName.starts_with(prefix)) continue;
                compareRow(r, expectedRow(rank), r.deviceName);
                ++matched;
            }
        }
        QCOMPARE(matched, 2);

        // Kernel shares are of the summed kernel time: HCCL tasks overlap on several
        // streams, yet the shares add up to 100%.
        const auto stats = computeOpStatistics(*db);
        QVERIFY(!stats.rows.empty());
        double shares = 0;
        for (const auto& r : stats.rows) shares += r.share;
        QVERIFY2(std::abs(shares - 1.0) < 1e-9, qPrintable(QString::number(shares)));

        // communication.ranks[] equals the "Total Op Info" Ascend writes into each rank's
        // communication.json (its own sums over the rank's ops).
        const auto report = runReport(*db);
        const auto& ranks = report["communication"]["ranks"];
        QCOMPARE(ranks.size(), size_t(2));
        for (int rank = 0; rank < 2; ++rank) {
            std::ifstream in(rankOutput(rank) / "communication.json");
            const auto doc = nlohmann::json::parse(in);
            const auto& total = doc["step50"]["collective"]["Total Op Info"]["Communication Time Info"];
            const auto& mine = ranks[static_cast<size_t>(rank)];
            QCOMPARE(mine["rank"].get<int>(), rank);
            QCOMPARE(mine["ops"].get<int>(), 4);
            for (const auto& [key, theirs] : {std::pair{"elapse_ms", "Elapse Time(ms)"}, {"transit_ms", "Transit Time(ms)"},
                                              {"wait_ms", "Wait Time(ms)"}, {"synchronization_ms", "Synchronization Time(ms)"}})
                QVERIFY2(std::abs(mine[key].get<double>() - total[theirs].get<double>()) < 1e-5, key);
            QVERIFY(std::abs(mine["wait_ratio"].get<double>() - total["Wait Time Ratio"].get<double>()) < 1e-3);
        }
        // The matrix: rank 0 -> 1 over HCCS, from the allreduce-total entry of rank 0's file.
        bool found = false;
        for (const auto& l : report["communication"]["matrix"]) {
            if (l["src"] != 0 || l["dst"] != 1) continue;
            found = true;
            QCOMPARE(l["transport"].get<std::string>(), std::string("HCCS"));
            QVERIFY(std::abs(l["size_mb"].get<double>() - 61.210624) < 1e-6);
            QVERIFY(std::abs(l["time_ms"].get<double>() - 3.88393759375) < 1e-6);
            QVERIFY(std::abs(l["bandwidth_gbps"].get<double>() - 15.7599) < 1e-3);  // the file's Bandwidth(GB/s)
        }
        QVERIFY(found);
        QCOMPARE(report["communication"]["matrix"].size(), size_t(16));  // 8 links from each rank

        // operator_memory.csv: one allocation per data line, per rank; msprof's trailing tab
        // after the times is counted, not fatal.
        for (int rank = 0; rank < 2; ++rank) {
            std::ifstream in(rankOutput(rank) / "operator_memory.csv");
            std::int64_t lines = -1;  // the header
            for (std::string line; std::getline(in, line);)
                if (!line.empty() && line != "\r") ++lines;
            sqlite3_stmt* st = nullptr;
            // "NPU:<k>" after the rank prefix, k numbered as the trace's NPUs (the csv's physical NPU:1 on rank 1 is k 0).
            const std::string sql = "SELECT COUNT(*) FROM OP_MEMORY_ALLOC WHERE device LIKE 'rank" + std::to_string(rank) + " NPU:%'";
            QCOMPARE(sqlite3_prepare_v2(db->handle(), sql.c_str(), -1, &st, nullptr), SQLITE_OK);
            QCOMPARE(sqlite3_step(st), SQLITE_ROW);
            QCOMPARE(sqlite3_column_int64(st, 0), lines);
            sqlite3_finalize(st);
        }
        bool trailingTab = false;
        for (const auto& d : db->diagnostics()) trailingTab = trailingTab || d.kind == "trailing_tab";
        QVERIFY(trailingTab);

        // memory_record.csv: counters in bytes (Ascend's MB is MiB) on each rank's NPU, so
        // the peaks are the largest Total Allocated / Reserved of any component, read here
        // from the csv by a plain split (rank 0: 1261.04296875 MB allocated, PTA+GE).
        const auto& devices = report["devices"];
        for (int rank = 0; rank < 2; ++rank) {
            std::ifstream in(rankOutput(rank) / "memory_record.csv");
            std::string line;
            std::getline(in, line);  // Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),...
            double allocatedMb = 0, reservedMb = 0;
            while (std::getline(in, line)) {
                std::vector<std::string> cells;
                std::stringstream row(line);
                for (std::string c; std::getline(row, c, ',');) cells.push_back(c);
                if (cells.size() > 2 && !cells[2].empty()) allocatedMb = std::max(allocatedMb, std::stod(cells[2]));
                if (cells.size() > 3 && !cells[3].empty()) reservedMb = std::max(reservedMb, std::stod(cells[3]));
            }
            const std::string name = "rank" + std::to_string(rank) + " NPU 0";
            bool seen = false;
            for (const auto& d : devices) {
                if (d["name"] != name) continue;
                seen = true;
                QCOMPARE(d["peak_allocated_bytes"].get<double>(), allocatedMb * 1024 * 1024);
                QCOMPARE(d["peak_reserved_bytes"].get<double>(), reservedMb * 1024 * 1024);
            }
            QVERIFY2(seen, name.c_str());  // the counters joined the trace's device, not a new one
        }
        QCOMPARE(db->devices().size(), size_t(4));  // rank0/rank1 CPU and NPU
    }
};

QTEST_GUILESS_MAIN(TestAscendStepTrace)
#include "test_ascend_step_trace.moc"
