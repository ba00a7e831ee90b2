#include "views/compare/compare_view.h"

#include "profiler/analysis/kernel_matching.h"
#include "profiler/analysis/run_comparison.h"
#include "profiler/store/profile_db.h"
#include "views/common/units.h"
#include "views/tables/descending_first_sort.h"
#include "views/tables/record_table_model.h"
#include "views/timeline/timeline_widget.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace npu::views {

namespace {

QTableView* makeTable(RecordTableModel* model, QWidget* parent) {
    auto* proxy = new QSortFilterProxyModel(parent);
    proxy->setSourceModel(model);
    proxy->setSortRole(RecordTableModel::SortRole);
    auto* table = new QTableView(parent);
    table->setModel(proxy);
    table->setSortingEnabled(true);
    sortNumbersDescendingFirst(table, RecordTableModel::SortRole);
    table->verticalHeader()->setVisible(false);
    table->verticalHeader()->setDefaultSectionSize(22);
    table->setAlternatingRowColors(true);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setTextElideMode(Qt::ElideMiddle);
    table->horizontalHeader()->setDefaultSectionSize(95);
    return table;
}

RecordCell ns(std::int64_t v) { return RecordCell(formatDuration(double(v)), qlonglong(v)); }
RecordCell signedNs(std::int64_t v) {
    return RecordCell((v > 0 ? QStringLiteral("+") : QString()) + formatDuration(double(v)), qlonglong(v));
}

void fillSteps(RecordTableModel& m, const std::vector<profiler::StepBreakdownRow>& rows) {
    m.setHeaders({QStringLiteral("Step"), QStringLiteral("Device"), QStringLiteral("Computing"),
                  QStringLiteral("Comm (not overlapped)"), QStringLiteral("Overlapped"), QStringLiteral("Communication"),
                  QStringLiteral("Free"), QStringLiteral("Stage"), QStringLiteral("Bubble")});
    std::vector<std::vector<RecordCell>> out;
    for (const auto& r : rows)
        out.push_back({RecordCell(QString::fromStdString(r.step)),
                       RecordCell(r.type == "stage" ? QStringLiteral("stage") : QString::fromStdString(r.deviceName)),
                       ns(r.computing_ns), ns(r.comm_not_overlapped_ns), ns(r.overlapped_ns), ns(r.communication_ns),
                       ns(r.free_ns), ns(r.stage_ns), ns(r.bubble_ns)});
    m.setRows(std::move(out));
}

// "Step time A 36.3 ms · B 47.2 ms · +10.9 ms (+30.0 %)", the devices and steps compared and
// how many kernels matched.
QString headlineText(const profiler::KernelMatching& k) {
    if (k.step_a_ns <= 0 || k.step_b_ns <= 0) return QStringLiteral("Step time: one of the runs has no device kernels to compare.");
    const double delta = double(k.step_b_ns - k.step_a_ns);
    const QString sign = delta > 0 ? QStringLiteral("+") : QString();
    const auto where = [](const std::string& device, const std::string& step) {
        return QString::fromStdString(device) + (step.empty() ? QStringLiteral(", whole run") : QStringLiteral(", step ") + QString::fromStdString(step));
    };
    return QStringLiteral("<b>Step time</b> A %1 · B %2 · <b>%3%4 (%3%5)</b> &nbsp; <span style='color:#555'>(A: %6; B: %7) · "
                          "kernels matched by name and order: %8, only in A: %9, only in B: %10</span>")
        .arg(formatDuration(double(k.step_a_ns)), formatDuration(double(k.step_b_ns)), sign, formatDuration(delta),
             formatPercent(delta / double(k.step_a_ns)), where(k.device_a, k.step_a).toHtmlEscaped(), where(k.device_b, k.step_b).toHtmlEscaped())
        .arg(k.matched)
        .arg(k.only_a)
        .arg(k.only_b);
}

RecordCell optionalNs(std::int64_t v) { return v < 0 ? RecordCell(QStringLiteral("—"), qlonglong(-1)) : ns(v); }

}  // namespace

CompareView::CompareView(QWidget* parent) : QWidget(parent) {
    m_deltas = new RecordTableModel(this);
    m_stepsA = new RecordTableModel(this);
    m_stepsB = new RecordTableModel(this);
    m_grouping = new QComboBox(this);
    m_grouping->addItem(QStringLiteral("By name"));
    m_grouping->addItem(QStringLiteral("By category"));
    m_grouping->addItem(QStringLiteral("By kernel class (compute / communication / memory)"));
    m_grouping->addItem(QStringLiteral("Kernel by kernel (same name and order in the step)"));
    m_title = new QLabel(this);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_headline = new QLabel(this);
    m_headline->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_headline->setWordWrap(true);
    m_titleA = new QLabel(this);
    m_titleB = new QLabel(this);
    m_timelineA = new TimelineWidget(this);
    m_timelineB = new TimelineWidget(this);

    auto* deltaTable = makeTable(m_deltas, this);
    connect(m_deltas, &QAbstractItemModel::modelReset, deltaTable, [deltaTable] {
        deltaTable->setColumnWidth(0, 300);
        deltaTable->setColumnWidth(1, 100);
    });
    deltaTable->sortByColumn(2, Qt::DescendingOrder);
    deltaTable->horizontalHeader()->setStretchLastSection(true);
    auto* deltaBox = new QWidget(this);
    auto* deltaLayout = new QVBoxLayout(deltaBox);
    deltaLayout->setContentsMargins(0, 0, 0, 0);
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(QStringLiteral("<b>Deltas (B − A), by impact</b>"), this));
    bar->addWidget(m_grouping);
    bar->addStretch(1);
    deltaLayout->addLayout(bar);
    deltaLayout->addWidget(deltaTable, 1);

    auto* steps = new QWidget(this);
    auto* stepsLayout = new QHBoxLayout(steps);
    stepsLayout->setContentsMargins(0, 0, 0, 0);
    for (auto [model, label] : {std::pair{m_stepsA, QStringLiteral("Step breakdown A")}, {m_stepsB, QStringLiteral("Step breakdown B")}}) {
        auto* box = new QWidget(this);
        auto* l = new QVBoxLayout(box);
        l->setContentsMargins(0, 0, 0, 0);
        l->addWidget(new QLabel(QStringLiteral("<b>%1</b>").arg(label), this));
        l->addWidget(makeTable(model, this), 1);
        stepsLayout->addWidget(box);
    }

    auto* timelines = new QWidget(this);
    auto* tl = new QVBoxLayout(timelines);
    tl->setContentsMargins(0, 0, 0, 0);
    tl->addWidget(m_titleA);
    tl->addWidget(m_timelineA, 1);
    tl->addWidget(m_titleB);
    tl->addWidget(m_timelineB, 1);

    auto* top = new QSplitter(Qt::Horizontal, this);
    top->addWidget(deltaBox);
    top->addWidget(steps);
    top->setStretchFactor(0, 1);
    top->setStretchFactor(1, 1);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(top);
    split->addWidget(timelines);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_title);
    layout->addWidget(m_headline);
    layout->addWidget(split, 1);

    connect(m_grouping, &QComboBox::currentIndexChanged, this, [this] { fillDeltas(); });
    // One shared axis: a zoom or pan in either timeline moves the other.
    auto sync = [this](TimelineWidget* to) {
        return [this, to](qint64 t0, qint64 t1) {
            if (m_syncing) return;
            m_syncing = true;
            to->setViewRange(t0, t1);
            m_syncing = false;
        };
    };
    connect(m_timelineA, &TimelineWidget::viewRangeChanged, this, sync(m_timelineB));
    connect(m_timelineB, &TimelineWidget::viewRangeChanged, this, sync(m_timelineA));
    // Large runs load in the background and refit when done: put them back on one axis.
    for (TimelineWidget* t : {m_timelineA, m_timelineB})
        connect(t, &TimelineWidget::loadingFinished, this, [this] {
            if (!m_timelineA->isLoading() && !m_timelineB->isLoading()) applySharedAxis();
        });
}

CompareView::~CompareView() = default;

void CompareView::setRuns(std::shared_ptr<const profiler::ProfileDb> a, std::shared_ptr<const profiler::ProfileDb> b) {
    m_a = std::move(a);
    m_b = std::move(b);
    if (!m_a || !m_b) {
        m_comparison.reset();
        m_kernels.reset();
        m_headline->clear();
        m_deltas->clear();
        m_timelineA->setDatabase(nullptr);
        m_timelineB->setDatabase(nullptr);
        return;
    }
    m_comparison = std::make_unique<profiler::RunComparison>(profiler::compareRuns(*m_a, *m_b));
    m_kernels = std::make_unique<profiler::KernelMatching>(profiler::matchKernels(*m_a, *m_b));
    m_headline->setText(headlineText(*m_kernels));
    auto name = [](const profiler::ProfileDb& db) {
        return QStringLiteral("%1 [%2]").arg(QString::fromStdString(db.path().filename().string()),
                                            QString::fromStdString(db.meta("source", "?")));
    };
    m_title->setText(QStringLiteral("<b>A</b> %1 &nbsp; vs &nbsp; <b>B</b> %2 — timelines aligned at the first step start")
                         .arg(name(*m_a).toHtmlEscaped(), name(*m_b).toHtmlEscaped()));
    m_titleA->setText(QStringLiteral("A: ") + name(*m_a));
    m_titleB->setText(QStringLiteral("B: ") + name(*m_b));
    // Simulated op names and measured kernel names never match: a simulated run against a
    // measured one compares by category (imports file kernels under the simulator's).
    if ((m_a->meta("source") == "simulated") != (m_b->meta("source") == "simulated")) {
        const QSignalBlocker block(m_grouping);
        m_grouping->setCurrentIndex(1);
    }
    fillDeltas();
    fillSteps(*m_stepsA, m_comparison->stepsA);
    fillSteps(*m_stepsB, m_comparison->stepsB);

    m_timelineA->setDatabase(m_a);
    m_timelineB->setDatabase(m_b);
    m_timelineA->setTimeOffset(m_comparison->stepStartA_ns);
    m_timelineB->setTimeOffset(m_comparison->stepStartB_ns);
    applySharedAxis();
}

void CompareView::applySharedAxis() {
    // Each timeline clamps navigation to its own trace: without the union as bounds the
    // shorter run would stretch its own extent over the full width.
    const auto ra = m_timelineA->fullRange(), rb = m_timelineB->fullRange();
    const qint64 t0 = std::min(ra.first, rb.first), t1 = std::max(ra.second, rb.second);
    m_syncing = true;
    for (TimelineWidget* t : {m_timelineA, m_timelineB}) {
        t->setNavigationBounds(t0, t1);
        t->setViewRange(t0, t1);
    }
    m_syncing = false;
}

void CompareView::fillDeltas() {
    if (m_grouping->currentIndex() == 3) {
        fillKernelMatches();
        return;
    }
    m_deltas->setHeaders({QStringLiteral("Key"), QStringLiteral("Category"), QStringLiteral("Δ total"),
                          QStringLiteral("Total A"), QStringLiteral("Total B"), QStringLiteral("Count A"),
                          QStringLiteral("Count B"), QStringLiteral("Δ count")},
                         {QString(), QString(), QStringLiteral("Total time in B minus total time in A")});
    if (!m_comparison) return;
    const auto& src = m_grouping->currentIndex() == 0   ? m_comparison->byName
                      : m_grouping->currentIndex() == 1 ? m_comparison->byCategory
                                                        : m_comparison->byKernelClass;
    std::vector<std::vector<RecordCell>> rows;
    rows.reserve(src.size());
    for (const auto& d : src) {
        const QString key = QString::fromStdString(d.key);
        // Sorted by impact: |delta| is the sort key of the delta column.
        rows.push_back({RecordCell(key, key, key), RecordCell(QString::fromStdString(d.category)),
                        RecordCell(signedNs(d.delta_total_ns()).display, qlonglong(std::llabs(d.delta_total_ns()))),
                        ns(d.total_a_ns), ns(d.total_b_ns), RecordCell(QString::number(d.count_a), qlonglong(d.count_a)),
                        RecordCell(QString::number(d.count_b), qlonglong(d.count_b)),
                        RecordCell(QString::number(d.delta_count()), qlonglong(d.delta_count()))});
    }
    m_deltas->setRows(std::move(rows));
}

void CompareView::fillKernelMatches() {
    m_deltas->setHeaders({QStringLiteral("Kernel"), QStringLiteral("#"), QStringLiteral("Δ duration"), QStringLiteral("Duration A"),
                          QStringLiteral("Duration B"), QStringLiteral("Start A"), QStringLiteral("Start B")},
                         {QString(), QStringLiteral("Its order among the step's kernels of this name, from 0"),
                          QStringLiteral("Duration in B minus duration in A ('—': no such kernel in that run)"), QString(), QString(),
                          QStringLiteral("From the step's start"), QStringLiteral("From the step's start")});
    if (!m_kernels) return;
    std::vector<std::vector<RecordCell>> rows;
    rows.reserve(m_kernels->rows.size());
    for (const auto& m : m_kernels->rows) {
        const QString name = QString::fromStdString(m.name);
        rows.push_back({RecordCell(name, name, name), RecordCell(QString::number(m.occurrence), qlonglong(m.occurrence)),
                        RecordCell(signedNs(m.delta_ns()).display, qlonglong(std::llabs(m.delta_ns()))), optionalNs(m.dur_a_ns),
                        optionalNs(m.dur_b_ns), optionalNs(m.start_a_ns), optionalNs(m.start_b_ns)});
    }
    m_deltas->setRows(std::move(rows));
}

}  // namespace npu::views
