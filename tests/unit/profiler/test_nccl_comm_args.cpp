// NCCL collectives in Kineto traces get their sizes and bandwidths from PyTorch's args
// (profiler/analysis/nccl_comm_args): the Communication view's per-collective rows of
// HTA's nccl_parser_config trace (rank 0 of 2, NCCL 2.17.1) against figures computed
// independently from the JSON with Python:
//   for e in traceEvents: kernel with "In msg nelems":
//       size += max(In, Out msg nelems) x sizeof(dtype); time += dur
//   ncclKernel_AllReduce_RING_LL_Sum_float: 15 calls, 306,684,384 B, 46,762.159 us -> 6.55839 GB/s
//   ncclKernel_Broadcast_RING_LL_Sum_int8_t: 6 calls, 638,712 B, 114.334 us -> 5.58637 GB/s
// One rank: no other rank to wait for, so transit = the kernels' time; group of 2, so
// busbw = algbw for both (2(n-1)/n = 1 for all-reduce).
// Older PyTorch wrote these args only on the CPU op record_param_comms: no real trace of
// that form is at hand (HTA's older traces carry no NCCL args at all), so the second case
// is a copy of the same trace with the NCCL keys removed from the kernels (the CPU ops
// keep theirs), which must give the same figures (importers/nccl_launch_args).

#include "profiler/analysis/communication_overview.h"
#include "profiler/analysis/nccl_comm_args.h"
#include "profiler/importers/common/byte_source.h"
#include "profiler/importers/profile_import.h"
#include "profiler/store/profile_db.h"
#include "profiler/store/sqlite_statement.h"

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>

using namespace npu::profiler;

namespace {
const std::filesystem::path kTrace = std::filesystem::path(NPU_SHARED_DATA_DIR) / "third_party/hta_tests/nccl_parser_config/nccl_data.json.gz";

double bandwidth(const CollectiveRow& r, const std::string& kind) {
    for (const auto& [k, v] : r.bandwidth_gbps)
        if (k == kind) return v;
    return -1;
}

std::string readAll(const std::filesystem::path& file) {
    auto src = ByteSource::open(file);
    if (!src) return {};
    std::string out;
    char buf[1 << 16];
    for (;;) {
        auto n = (*src)->read(buf, sizeof buf);
        if (!n || *n == 0) break;
        out.append(buf, *n);
    }
    return out;
}

// The Communication view's rows for the two collectives of the trace, against the
// figures from Python above; the kernels' args name where their NCCL args came from.
void checkCollectives(const std::filesystem::path& trace, const QString& argsFrom) {
    QTemporaryDir dir;
    const auto out = std::filesystem::path(dir.path().toStdString()) / "nccl.npudb";
    auto imported = importProfile(trace, out);
    QVERIFY2(imported.ok(), imported.ok() ? "" : imported.message().c_str());
    auto db = ProfileDb::open(out);
    QVERIFY(db.ok());
    const CommunicationOverview o = communicationOverview(**db);
    struct Expected {
        const char* prefix;
        std::int64_t count;
        double bytes, us;
    };
    for (const Expected& e : {Expected{"ncclKernel_AllReduce_RING_LL_Sum_float", 15, 306684384, 46762.159},
                              Expected{"ncclKernel_Broadcast_RING_LL_Sum_int8_t", 6, 638712, 114.334}}) {
        const CollectiveRow* row = nullptr;
        for (const auto& c : o.collectives)
            if (c.name.rfind(e.prefix, 0) == 0) row = &c;
        QVERIFY2(row, e.prefix);
        QCOMPARE(row->count, e.count);
        QVERIFY2(std::abs(row->size_mb - e.bytes / 1e6) < 1e-9, qPrintable(QString::number(row->size_mb, 'f', 6)));
        QVERIFY(std::abs(row->transit_ms - e.us / 1e3) < 1e-5);
        QCOMPARE(row->wait_ms, 0.0);
        const double algbw = e.bytes / (e.us * 1e-6) / 1e9;
        QVERIFY2(std::abs(bandwidth(*row, "algbw") - algbw) < 1e-6 * algbw, qPrintable(QString::number(bandwidth(*row, "algbw"), 'f', 6)));
        QVERIFY(std::abs(bandwidth(*row, "busbw") - algbw) < 1e-6 * algbw);
        QCOMPARE(row->group, std::string("0"));
    }
    // The 21 NCCL kernels (15 all-reduce, 6 broadcast) name record_param_comms as their args' source, or none does.
    SqliteStatement from((*db)->handle(), "SELECT COUNT(*) FROM TASK t JOIN ARGS a ON a.id = t.args_id "
                                          "WHERE a.json LIKE '%NCCL args from%record_param_comms%'");
    QVERIFY(from.valid() && from.step() == SQLITE_ROW);
    QCOMPARE(from.int64(0), argsFrom.isEmpty() ? std::int64_t{0} : std::int64_t{21});
}
}  // namespace

class TestNcclCommArgs : public QObject {
    Q_OBJECT
private slots:
    void argsGiveSizeAndBusFactor() {
        const auto a = parseNcclCommArgs(R"({"Collective name": "allgather", "In msg nelems": 1024, "Out msg nelems": 4096,
                                             "dtype": "BFloat16", "Group size": 4, "Process Group Name": "3"})");
        QVERIFY(a.has_value());
        QCOMPARE(a->bytes(), 8192.0);  // the gathered output, 2 bytes an element
        QCOMPARE(a->busFactor(), 0.75);
        QCOMPARE(a->group, std::string("3"));
        const auto ar = parseNcclCommArgs(R"({"Collective name": "allreduce", "In msg nelems": 10, "Out msg nelems": 10, "dtype": "Float", "Group size": 8})");
        QVERIFY(ar.has_value());
        QCOMPARE(ar->bytes(), 40.0);
        QCOMPARE(ar->busFactor(), 1.75);
        QVERIFY(!parseNcclCommArgs(R"({"External id": 3})").has_value());
        const auto unknown = parseNcclCommArgs(R"({"In msg nelems": 10, "dtype": "Quantum"})");
        QVERIFY(unknown.has_value());
        QCOMPARE(unknown->bytes(), 0.0);  // no size rather than a guessed one
    }

    void kinetoCollectivesHaveSizesAndBandwidth() {
        if (!std::filesystem::exists(kTrace)) QSKIP("shared data third_party/hta_tests/nccl_parser_config not present");
        checkCollectives(kTrace, {});
    }

    void argsOnlyOnRecordParamComms() {
        if (!std::filesystem::exists(kTrace)) QSKIP("shared data third_party/hta_tests/nccl_parser_config not present");
        auto j = nlohmann::json::parse(readAll(kTrace), nullptr, false);
        QVERIFY(j.is_object() && j.contains("traceEvents"));
        int stripped = 0, withArgs = 0;
        for (auto& e : j["traceEvents"]) {
            if (e.value("cat", "") != "kernel" || !e.contains("args")) continue;
            auto& a = e["args"];
            if (!a.contains("In msg nelems")) continue;
            for (const char* key : {"Collective name", "In msg nelems", "Out msg nelems", "Group size", "dtype", "In split size",
                                    "Out split size", "Process Group Name", "Process Group Description", "Process Group Ranks"})
                a.erase(key);
            ++stripped;
        }
        for (const auto& e : j["traceEvents"])
            if (e.value("name", "") == "record_param_comms" && e.contains("args") && e["args"].contains("In msg nelems")) ++withArgs;
        QCOMPARE(stripped, 21);
        QCOMPARE(withArgs, 27);  // 21 launched a kernel; the rest (barriers, ...) did not
        QTemporaryDir dir;
        const auto copy = std::filesystem::path(dir.path().toStdString()) / "nccl_cpu_args.json";
        std::ofstream(copy) << j.dump();
        checkCollectives(copy, QStringLiteral("record_param_comms"));
    }
};

QTEST_GUILESS_MAIN(TestNcclCommArgs)
#include "test_nccl_comm_args.moc"
