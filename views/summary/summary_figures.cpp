#include "views/summary/summary_figures.h"

#include "views/common/units.h"

#include <QStringList>

#include <algorithm>
#include <numeric>

namespace npu::views {

namespace {

double number(const nlohmann::json& j, const char* key) {
    return j.is_object() && j.contains(key) && j[key].is_number() ? j[key].get<double>() : -1.0;
}

SummaryCard stepTime(const SummaryInputs& in) {
    SummaryCard c{QStringLiteral("Step time"), {}, {}, {}};
    if (const double ms = number(in.summary, "step_time_ms"); ms > 0) {
        c.value = formatDuration(ms * 1e6);
        c.scope = in.cluster ? QStringLiteral("one step, all ranks") : QStringLiteral("one step, one device");
        c.toolTip = QStringLiteral("Simulated time of one training step, forward, backward and optimizer");
        return c;
    }
    if (!in.stepDurations.empty()) {
        const double mean = double(std::accumulate(in.stepDurations.begin(), in.stepDurations.end(), std::int64_t{0})) / double(in.stepDurations.size());
        c.value = formatDuration(mean);
        c.scope = in.stepDurations.size() == 1 ? QStringLiteral("the one recorded step") : QStringLiteral("mean of %1 steps").arg(in.stepDurations.size());
        c.toolTip = QStringLiteral("Mean duration of the run's steps (ProfilerStep# annotations)");
        return c;
    }
    c.scope = QStringLiteral("no steps");
    c.toolTip = QStringLiteral("The run marks no steps (no ProfilerStep# annotations and no simulated summary), so it has no step time");
    return c;
}

SummaryCard throughput(const SummaryInputs& in) {
    SummaryCard c{QStringLiteral("Throughput"), {}, {}, {}};
    const double samples = number(in.summary, "samples_per_s"), tokens = number(in.summary, "tokens_per_s");
    if (samples > 0 || tokens > 0) {
        QStringList parts;
        if (samples > 0) parts << QStringLiteral("%1 samples/s").arg(samples, 0, 'f', 1);
        if (tokens > 0) parts << QStringLiteral("%1 tokens/s").arg(formatCount(tokens));
        c.value = parts.join(QStringLiteral("\n"));
        c.scope = in.cluster ? QStringLiteral("all ranks") : QStringLiteral("one device");
        c.toolTip = QStringLiteral("Global batch (samples, and samples × sequence length) over the step time");
        return c;
    }
    c.scope = QStringLiteral("no batch size");
    c.toolTip = QStringLiteral("A trace records no batch size or sequence length: samples/s and tokens/s need them "
                               "(a simulated run has both)");
    return c;
}

SummaryCard mfu(const SummaryInputs& in) {
    SummaryCard c{QStringLiteral("MFU"), {}, {}, {}};
    if (const double m = number(in.summary, "mfu"); m >= 0) {
        c.value = formatPercent(m);
        c.scope = in.cluster ? QStringLiteral("all ranks") : QStringLiteral("one device");
        c.toolTip = QStringLiteral("Model FLOPs utilisation: the model's FLOPs per second over the devices' peak");
        return c;
    }
    c.scope = QStringLiteral("no model FLOPs");
    c.toolTip = QStringLiteral("MFU needs the model's FLOPs per step and the device's peak, which a trace does not record "
                               "(a simulated run has both)");
    return c;
}

SummaryCard peakMemory(const SummaryInputs& in) {
    SummaryCard c{QStringLiteral("Peak memory"), {}, {}, {}};
    const double capacity = number(in.summary, "capacity_bytes");
    const QString of = capacity > 0 ? QStringLiteral(" of %1").arg(formatBytes(capacity)) : QString();
    if (const double peak = number(in.summary, "peak_bytes"); peak > 0) {
        c.value = formatBytes(peak);
        c.scope = QStringLiteral("allocated, ") + (in.cluster ? QStringLiteral("busiest rank") : QStringLiteral("one device")) + of;
        // Two figures, named: the allocator's blocks are rounded up (512 B, 2 MiB), so this
        // peak sits a little above the Memory tab's "Memory (live bytes)" curve.
        c.toolTip = QStringLiteral("Peak allocated bytes over the step: the allocator's blocks, sizes rounded up as it hands them "
                                   "out (torch.cuda.max_memory_allocated). The Memory tab's \"Memory (live bytes)\" curve counts "
                                   "the tensors' own sizes, a little lower; its \"Total Reserved\" curve adds the cached segments.");
        return c;
    }
    // An import: the largest allocated peak of any device (the report's Devices rows).
    double peak = -1;
    QString device;
    if (in.report.is_object() && in.report.contains("devices") && in.report["devices"].is_array())
        for (const auto& d : in.report["devices"])
            if (const double p = number(d, "peak_allocated_bytes"); p > peak) {
                peak = p;
                device = d.contains("name") && d["name"].is_string() ? QString::fromStdString(d["name"].get<std::string>()) : QString();
            }
    if (peak > 0) {
        c.value = formatBytes(peak);
        c.scope = QStringLiteral("busiest device%1").arg(device.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(device));
        c.toolTip = QStringLiteral("Largest peak of allocated bytes of any device, from the trace's memory counters");
        return c;
    }
    c.scope = in.report.is_null() ? QStringLiteral("being computed") : QStringLiteral("no memory data");
    c.toolTip = in.report.is_null() ? QStringLiteral("The run's report is still being computed")
                                    : QStringLiteral("The run has no memory counters (allocated/reserved bytes), so no peak");
    return c;
}

SummaryCard communication(const SummaryInputs& in) {
    SummaryCard c{QStringLiteral("Communication / computation"), {}, {}, {}};
    if (!in.overview) {
        c.scope = QStringLiteral("being computed");
        c.toolTip = QStringLiteral("The per-rank communication is still being computed");
        return c;
    }
    const auto& o = *in.overview;
    if (!o.hasCommunication() || o.ranks.empty()) {
        c.scope = QStringLiteral("no communication");
        c.toolTip = QStringLiteral("No communication in this run: %1 device(s), no collectives or links").arg(o.ranks.size());
        return c;
    }
    // The rank the others wait on; without one (ranks equally busy), the highest ratio.
    std::size_t at = 0;
    if (o.slowestRank >= 0 && o.slowestRank < int(o.ranks.size())) at = std::size_t(o.slowestRank);
    else
        for (std::size_t i = 1; i < o.ranks.size(); ++i)
            if (o.ranks[i].comm_ratio > o.ranks[at].comm_ratio) at = i;
    const auto& r = o.ranks[at];
    c.value = formatPercent(r.comm_ratio);
    c.scope = o.ranks.size() > 1 ? QStringLiteral("busiest rank (%1)").arg(QString::fromStdString(r.label)) : QStringLiteral("one device");
    c.toolTip = QStringLiteral("Communication time over computing time (the Communication tab's ratio line): communication %1, "
                               "of which not overlapped %2; computing %3")
                    .arg(formatDuration(r.communication_ms * 1e6), formatDuration(r.comm_not_overlapped_ms * 1e6), formatDuration(r.computing_ms * 1e6));
    return c;
}

}  // namespace

std::vector<SummaryCard> headlineCards(const SummaryInputs& in) {
    return {stepTime(in), throughput(in), mfu(in), peakMemory(in), communication(in)};
}

}  // namespace npu::views
