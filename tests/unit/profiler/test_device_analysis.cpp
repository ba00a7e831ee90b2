// Kernel classification, HTA device metrics, Ascend step breakdown and memory peaks on
// the hand-made run of profiler_fixture.h; expected figures are worked out by hand.
#include "profiler/analysis/device_metrics.h"
#include "profiler/analysis/interval_set.h"
#include "profiler/analysis/memory_counter.h"
#include "profiler/analysis/memory_peaks.h"
#include "profiler/analysis/step_breakdown.h"
#include "profiler_fixture.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace npu::profiler;
using fixture::us;

class TestDeviceAnalysis : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::unique_ptr<ProfileDb> m_db;

private slots:
    void initTestCase() {
        m_db = fixture::writeTwoGpuRun(std::filesystem::path(m_dir.path().toStdString()) / "run.npudb");
        QVERIFY(m_db);
    }

    void classification() {
        QCOMPARE(classifyKernel("ncclDevKernel_AllReduce_Sum_bf16_RING_LL"), KernelClass::communication);
        QCOMPARE(classifyKernel("hcom_allReduce__123"), KernelClass::communication);
        QCOMPARE(classifyKernel("HcclAllGather"), KernelClass::communication);
        QCOMPARE(classifyKernel("c10d::allreduce_"), KernelClass::communication);
        QCOMPARE(classifyKernel("allgather_params_bucket_3"), KernelClass::communication);
        QCOMPARE(classifyKernel("pp_send_activations"), KernelClass::communication);
        QCOMPARE(classifyKernel("Memcpy DtoD (Device -> Device)"), KernelClass::memory);
        QCOMPARE(classifyKernel("Memset (Device)"), KernelClass::memory);
        QCOMPARE(classifyKernel("some_copy", "gpu_memcpy"), KernelClass::memory);
        QCOMPARE(classifyKernel("sm90_xmma_gemm_bf16"), KernelClass::compute);
        QCOMPARE(classifyKernel("ascend_layernorm"), KernelClass::compute);  // "send" inside a word
        QCOMPARE(classifyKernel("void cutlass::Kernel<EpilogueWithBroadcast>(Params)"), KernelClass::compute);
        // HCCL's task-level slices on the NPU hardware streams are communication; the
        // runtime's event and profiling tasks and Kineto's cuda_sync are neither (HTA: other).
        QCOMPARE(classifyKernel("Notify Wait"), KernelClass::communication);
        QCOMPARE(classifyKernel("SDMA"), KernelClass::communication);
        QCOMPARE(classifyKernel("Write Value"), KernelClass::communication);
        QCOMPARE(classifyKernel("EVENT_WAIT"), KernelClass::other);
        QCOMPARE(classifyKernel("PROFILING_ENABLE"), KernelClass::other);
        QCOMPARE(classifyKernel("Stream Sync", "cuda_sync"), KernelClass::other);
        QCOMPARE(classifyKernel("MEMCPY_ASYNC"), KernelClass::memory);
        QCOMPARE(classifyKernel("dma_copy_h2d"), KernelClass::memory);  // HTA's ^dma
        QCOMPARE(classifyKernel("aclnnMm_MatMulCommon_MemSet"), KernelClass::compute);  // an AI Core kernel
        QCOMPARE(classifyKernel("aclnnEqTensor_BroadcastToAiCore_BroadcastTo"), KernelClass::compute);
        QVERIFY(isReceiveKernel("hcom_receive_7"));
        QVERIFY(isReceiveKernel("ncclDevKernel_Recv"));
        QVERIFY(!isReceiveKernel("ncclDevKernel_SendRecv"));
        QVERIFY(isDeviceTrack(TrackKind::memcpy));
        QVERIFY(!isDeviceTrack(TrackKind::host_thread));
    }

    void intervals() {
        const auto m = mergeIntervals({{5, 10}, {0, 3}, {3, 4}, {8, 12}, {20, 20}});
        QCOMPARE(m.size(), size_t(2));  // [0,4) [5,12); the empty one is dropped
        QCOMPARE(totalLength(m), std::int64_t(11));
        QCOMPARE(totalLength(intersect(m, mergeIntervals({{2, 6}, {11, 30}}))), std::int64_t(2 + 1 + 1));
    }

    void htaMetrics() {
        const auto all = computeAllDeviceMetrics(*m_db);
        QCOMPARE(all.size(), size_t(2));  // the cpu device has no kernels
        const auto& g0 = all[0];
        QCOMPARE(g0.name, std::string("gpu0"));
        QCOMPARE(g0.kernels, 7);
        // all activity: [0,100) [150,400) [500,550) [650,800) = 100+250+50+150 = 550 of 800
        QCOMPARE(g0.kernel_time_ns, us(800));
        QCOMPARE(g0.idle_ns, us(250));
        // compute: [0,100) [150,300) [650,700) = 300
        QCOMPARE(g0.compute_ns, us(300));
        QCOMPARE(g0.non_compute_ns, us(800 - 300 - 250));
        // comm: [200,400) [700,800) = 300, overlapped with compute only in [200,300)
        QCOMPARE(g0.comm_ns, us(300));
        QCOMPARE(g0.comm_comp_overlap_ns, us(100));
        QCOMPARE(g0.comm_comp_overlap_pct, 100.0 / 3.0);
        const auto& g1 = all[1];
        QCOMPARE(g1.kernel_time_ns, us(400));
        QCOMPARE(g1.idle_ns, 0);
        QCOMPARE(g1.comm_comp_overlap_pct, 0.0);
    }

    void stepBreakdown() {
        const auto rows = computeStepBreakdown(*m_db);
        // step 1: gpu0, gpu1, stage; step 2: gpu0, gpu1 (no kernels: zero row), stage
        QCOMPARE(rows.size(), size_t(6));
        const auto& s1 = rows[0];
        QCOMPARE(s1.step, std::string("ProfilerStep#1"));
        QCOMPARE(s1.deviceName, std::string("gpu0"));
        QCOMPARE(s1.computing_ns, us(250));
        QCOMPARE(s1.communication_ns, us(200));
        QCOMPARE(s1.overlapped_ns, us(100));
        QCOMPARE(s1.comm_not_overlapped_ns, us(100));
        // E2E is first to last compute/communication kernel (Ascend's definition): the
        // memcpy at [500,550) after the all-reduce neither opens nor closes the step.
        QCOMPARE(s1.free_ns, us(400 - 250 - 100));
        QCOMPARE(s1.stage_ns, us(400));
        QCOMPARE(s1.bubble_ns, 0);
        QCOMPARE(s1.preparing_ns, 0);
        QCOMPARE(rows[2].type, std::string("stage"));
        QCOMPARE(rows[2].index, std::string("(0, 1)"));
        QCOMPARE(rows[2].computing_ns, us(400));  // gpu1's gemm is the max
        const auto& s2 = rows[3];
        QCOMPARE(s2.step, std::string("ProfilerStep#2"));
        QCOMPARE(s2.computing_ns, us(50));
        QCOMPARE(s2.communication_ns, us(100));
        QCOMPARE(s2.overlapped_ns, 0);
        QCOMPARE(s2.free_ns, 0);
        QCOMPARE(s2.bubble_ns, us(100));  // hcom_receive_1
        QCOMPARE(s2.stage_ns, us(150 - 100));
        QCOMPARE(s2.comm_not_overlapped_exclude_receive_ns, 0);
        QCOMPARE(s2.preparing_ns, us(50));
        QCOMPARE(rows[4].computing_ns, 0);
    }

    void wholeRunWithoutSteps() {
        const auto path = std::filesystem::path(m_dir.path().toStdString()) / "nosteps.npudb";
        auto w = ProfileDbWriter::create(path);
        QVERIFY(w.ok());
        const auto d = (*w)->addDevice("npu0", "npu");
        const auto t = (*w)->addTrack(d, -1, TrackKind::compute, "Compute", 0);
        (*w)->addSlice(t, 1000, 500, 0, "MatMul", "matmul");
        (*w)->addSlice(t, 2000, 500, 0, "Add", "elementwise");
        QVERIFY((*w)->commit().ok());
        auto db = ProfileDb::open(path);
        QVERIFY(db.ok());
        const auto rows = computeStepBreakdown(**db);
        QCOMPARE(rows.size(), size_t(1));
        QCOMPARE(rows[0].step, std::string());
        QCOMPARE(rows[0].computing_ns, std::int64_t(1000));
        QCOMPARE(rows[0].free_ns, std::int64_t(500));
        QCOMPARE(rows[0].step_start_ns, std::int64_t(1000));
    }

    void memoryCounterNames() {
        using K = MemoryCounterKind;
        QCOMPARE(classifyMemoryCounter("Total Allocated").kind, K::allocated);  // Kineto [memory]
        QCOMPARE(classifyMemoryCounter("PTA+GE Total Reserved").kind, K::reserved);  // Ascend MEMORY_RECORD
        QCOMPARE(classifyMemoryCounter("Memory (live bytes)").kind, K::allocated);  // simulator
        const auto app = classifyMemoryCounter("APP/HBM KB");  // Ascend trace_view.json, KiB
        QCOMPARE(app.kind, K::other);
        QCOMPARE(app.bytesPerUnit, 1024.0);
        QCOMPARE(app.displayName, std::string("APP/HBM"));
        for (const char* notMemory : {"HBM 0/Read Read(MB/s)", "AI Core Freq MHz", "LLC 0 Read/Hit Rate Hit Rate(%)",
                                      "read_bandwidth value", "QoS OTHERS value", "L2 Buffer Bw Level L2 Buffer Bw Level"})
            QCOMPARE(classifyMemoryCounter(notMemory).kind, K::none);
    }

    void memoryPeaks() {
        const auto peaks = computeMemoryPeaks(*m_db);
        QCOMPARE(peaks.size(), size_t(1));
        QCOMPARE(peaks[0].deviceName, std::string("gpu0"));
        QCOMPARE(peaks[0].peak_allocated_bytes, 50.0);
        QCOMPARE(peaks[0].peak_allocated_ts_ns, us(100));
        QCOMPARE(peaks[0].peak_reserved_bytes, 128.0);
    }
};

QTEST_GUILESS_MAIN(TestDeviceAnalysis)
#include "test_device_analysis.moc"
