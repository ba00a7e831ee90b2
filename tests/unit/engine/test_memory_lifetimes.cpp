// Lifetimes and categories on a hand-built step (engine/memory/memory_model,
// memory_category): residents from t = 0, an activation from its producer's start to its
// last reader's end, a view and an in-place ReLU sharing their input's block (one
// allocation, freed after the backward op that reads the alias, counted as saved for
// backward), a forward-only temporary, the weight gradient until the optimizer, the loss
// to the end of the step; and lazily created optimizer states for the first step.
#include "engine/memory/allocation_trace.h"
#include "engine/memory/memory_category.h"
#include "engine/memory/memory_model.h"

#include <QtTest>

using namespace npu::engine;

namespace {

struct Step {
    Graph g;
    int x = -1, w = -1, state = -1, a = -1, relu = -1, view = -1, tmp = -1, loss = -1, grad = -1;
    std::vector<NodeTiming> times;
};

Step buildStep() {
    Step s;
    Graph& g = s.g;
    s.x = g.addTensor("x", {256}, DType::f32, TensorRole::input);           // 1 KiB
    s.w = g.addTensor("w", {256, 256}, DType::f32, TensorRole::weight);     // 256 KiB
    s.state = g.addTensor("w.exp_avg", {256, 256}, DType::f32, TensorRole::optimizer_state);
    s.a = g.addTensor("a", {256}, DType::f32, TensorRole::activation);
    s.relu = g.addTensor("a.relu", {256}, DType::f32, TensorRole::activation);
    s.view = g.addTensor("a.view", {16, 16}, DType::f32, TensorRole::activation);
    s.tmp = g.addTensor("tmp", {512}, DType::f32, TensorRole::activation);
    s.loss = g.addTensor("loss", {1}, DType::f32, TensorRole::activation);
    s.grad = g.addTensor("w.grad", {256, 256}, DType::f32, TensorRole::gradient);
    g.inputs = {s.x};
    g.outputs = {s.loss};
    const int fc = g.addNode("MatMul", "fc", {s.x, s.w}, {s.a});
    const int relu = g.addNode("Relu", "relu", {s.a}, {s.relu}, {{"inplace", std::int64_t{1}}});
    const int view = g.addNode("Reshape", "view", {s.relu}, {s.view}, {{"shape", std::vector<std::int64_t>{16, 16}}});
    const int add = g.addNode("Add", "tmp_add", {s.x, s.x}, {s.tmp});
    const int lossNode = g.addNode("ReduceSum", "loss", {s.tmp, s.view}, {s.loss});
    const int bwd = g.addNode("MatMul", "fc.backward", {s.view, s.loss}, {s.grad}, {}, Phase::backward);
    const int opt = g.addNode("AdamW", "optimizer.adamw", {s.w, s.grad, s.state}, {}, {}, Phase::optimizer);
    // One node every 100 ns, each 50 ns long.
    int i = 0;
    for (int n : {fc, relu, view, add, lossNode, bwd, opt}) {
        s.times.push_back({n, 100 * i, 100 * i + 50});
        ++i;
    }
    return s;
}

// (alloc time, free time) of a tensor's block; free -1 when never freed.
std::pair<std::int64_t, std::int64_t> lifetime(const MemoryTimeline& m, int tensor) {
    std::int64_t alloc = -1, release = -1;
    for (const MemoryEvent& e : m.events) {
        if (e.tensor != tensor) continue;
        if (e.delta_bytes > 0) alloc = e.t_ns;
        else release = e.t_ns;
    }
    return {alloc, release};
}

}  // namespace

class TestMemoryLifetimes : public QObject {
    Q_OBJECT
private slots:
    void lifetimesFollowProducersAndReaders() {
        const Step s = buildStep();
        const MemoryTimeline m = trackMemory(s.g, {s.times});
        using P = std::pair<std::int64_t, std::int64_t>;
        QCOMPARE(lifetime(m, s.w), (P{0, -1}));
        QCOMPARE(lifetime(m, s.state), (P{0, -1}));
        QCOMPARE(lifetime(m, s.x), (P{0, -1}));
        // The block of `a` serves the in-place ReLU and the view: one allocation, freed when
        // the backward op reading the view ends; the alias tensors have no events of their own.
        QCOMPARE(lifetime(m, s.a), (P{0, 550}));
        QCOMPARE(lifetime(m, s.relu), (P{-1, -1}));
        QCOMPARE(lifetime(m, s.view), (P{-1, -1}));
        QCOMPARE(lifetime(m, s.tmp), (P{300, 450}));
        QCOMPARE(lifetime(m, s.grad), (P{500, 650}));  // until the optimizer read it
        QCOMPARE(lifetime(m, s.loss), (P{400, 650}));  // the loss lives to the end of the step
        const std::vector<int> root = storageRoots(s.g);
        QCOMPARE(root[static_cast<std::size_t>(s.view)], s.a);
        QCOMPARE(root[static_cast<std::size_t>(s.relu)], s.a);
        // At equal times frees come before allocations; live bytes never go negative.
        for (std::size_t i = 1; i < m.events.size(); ++i) {
            QVERIFY(m.events[i - 1].t_ns <= m.events[i].t_ns);
            if (m.events[i - 1].t_ns == m.events[i].t_ns) QVERIFY(m.events[i - 1].delta_bytes <= m.events[i].delta_bytes);
            QVERIFY(m.events[i].live_bytes >= 0);
        }
    }

    void categoriesFollowTheStorage() {
        const Step s = buildStep();
        const std::vector<MemoryCategory> c = memoryCategories(s.g);
        auto name = [&](int t) { return std::string(memoryCategoryName(c[static_cast<std::size_t>(t)])); };
        QCOMPARE(name(s.w), std::string("weights"));
        QCOMPARE(name(s.state), std::string("optimizer_state"));
        QCOMPARE(name(s.grad), std::string("gradients"));
        QCOMPARE(name(s.x), std::string("inputs"));
        QCOMPARE(name(s.tmp), std::string("temporaries"));
        // `a` itself is read only by the forward ReLU, but its block is the view a backward op
        // reads: saved for backward, as the allocation trace (keyed by storage) must say.
        QCOMPARE(name(s.a), std::string("activations"));
        QCOMPARE(name(s.view), std::string("activations"));
        const MemoryTimeline m = trackMemory(s.g, {s.times});
        const AllocationTrace trace = allocationTrace(m.events, c);
        bool aSeen = false;
        for (const BufferLifetime& b : trace.buffers)
            if (b.tensor == s.a) {
                aSeen = true;
                QCOMPARE(std::string(memoryCategoryName(b.category)), std::string("activations"));
            }
        QVERIFY(aSeen);
    }

    // The first step of training: states appear when the optimizer op reading them starts
    // (PyTorch's lazy Adam state), a later step has them from its start.
    void lazyOptimizerStateInTheFirstStep() {
        const Step s = buildStep();
        const MemoryTimeline lazy = trackMemory(s.g, {s.times}, true);
        QCOMPARE(lifetime(lazy, s.state).first, std::int64_t{600});
        QCOMPARE(lifetime(lazy, s.w).first, std::int64_t{0});  // weights exist before the first step
        QCOMPARE(lazy.residentBytes, trackMemory(s.g, {s.times}).residentBytes);
    }
};

QTEST_GUILESS_MAIN(TestMemoryLifetimes)
#include "test_memory_lifetimes.moc"
