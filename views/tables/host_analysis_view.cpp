#include "views/charts/qcustomplot_include.h"  // first: see there

#include "views/tables/host_analysis_view.h"

#include "profiler/store/profile_db.h"
#include "views/common/units.h"
#include "views/tables/descending_first_sort.h"
#include "views/tables/record_table_model.h"

#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <tuple>

namespace npu::views {

namespace {

QTableView* table(RecordTableModel* model, QWidget* parent, int sortColumn) {
    auto* proxy = new QSortFilterProxyModel(parent);
    proxy->setSourceModel(model);
    proxy->setSortRole(RecordTableModel::SortRole);
    auto* t = new QTableView(parent);
    t->setModel(proxy);
    t->setSortingEnabled(true);
    t->sortByColumn(sortColumn, Qt::DescendingOrder);
    sortNumbersDescendingFirst(t, RecordTableModel::SortRole);
    t->verticalHeader()->setVisible(false);
    t->verticalHeader()->setDefaultSectionSize(20);
    t->setAlternatingRowColors(true);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setTextElideMode(Qt::ElideMiddle);
    t->horizontalHeader()->setStretchLastSection(true);
    t->horizontalHeader()->setDefaultSectionSize(95);
    return t;
}

RecordCell ns(double v) { return RecordCell(formatDuration(v), v); }
RecordCell num(qlonglong v) { return RecordCell(QString::number(v), v); }
RecordCell text(const std::string& s) {
    const QString q = QString::fromStdString(s);
    return RecordCell(q, q, q);
}

QWidget* titled(const QString& title, QWidget* content, QWidget* parent) {
    auto* box = new QWidget(parent);
    auto* l = new QVBoxLayout(box);
    l->setContentsMargins(0, 0, 0, 0);
    l->addWidget(new QLabel(QStringLiteral("<b>%1</b>").arg(title), box));
    l->addWidget(content, 1);
    return box;
}

}  // namespace

HostAnalysisView::HostAnalysisView(QWidget* parent) : QWidget(parent) {
    m_cpuOps = new RecordTableModel(this);
    m_opKernels = new RecordTableModel(this);
    m_streams = new RecordTableModel(this);
    m_status = new QLabel(this);
    m_queuePlot = new QCustomPlot(this);
    m_queuePlot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_queuePlot->axisRect()->setRangeDrag(Qt::Horizontal);
    m_queuePlot->axisRect()->setRangeZoom(Qt::Horizontal);
    m_queuePlot->yAxis->setLabel(QStringLiteral("queue length"));
    m_queuePlot->setMinimumHeight(140);

    auto* ops = table(m_cpuOps, this, 3);
    auto* launches = table(m_opKernels, this, 2);
    auto* streams = table(m_streams, this, 1);
    // A reset model resets the header: the figures' columns fit their headers and cells
    // ("Mean launch delay" was cut at the default 95 px), the name column gets its room back.
    for (auto [model, view, width] : {std::tuple{m_cpuOps, ops, 300}, {m_opKernels, launches, 240}, {m_streams, streams, 200}})
        connect(model, &QAbstractItemModel::modelReset, view, [view, width] {
            view->resizeColumnsToContents();
            view->setColumnWidth(0, width);
        });
    connect(ops, &QTableView::doubleClicked, this, [this, ops](const QModelIndex& i) {
        emit opActivated(ops->model()->index(i.row(), 0).data(RecordTableModel::SortRole).toString());
    });
    connect(launches, &QTableView::doubleClicked, this, [this, launches](const QModelIndex& i) {
        emit opActivated(launches->model()->index(i.row(), 0).data(RecordTableModel::SortRole).toString());
    });

    auto* top = new QSplitter(Qt::Horizontal, this);
    top->addWidget(titled(QStringLiteral("CPU ops (self and total time)"), ops, this));
    top->addWidget(titled(QStringLiteral("Kernels launched per op (launch flows)"), launches, this));
    auto* bottom = new QSplitter(Qt::Horizontal, this);
    bottom->addWidget(titled(QStringLiteral("Launch delay and queue length per stream (HTA)"), streams, this));
    bottom->addWidget(titled(QStringLiteral("Queue length over time"), m_queuePlot, this));
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(top);
    split->addWidget(bottom);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_status);
    layout->addWidget(split, 1);
    connect(&m_watcher, &QFutureWatcher<Result>::finished, this, [this] { show(m_watcher.result()); });
}

HostAnalysisView::~HostAnalysisView() {
    disconnect(&m_watcher, nullptr, this, nullptr);
    m_watcher.waitForFinished();
}

void HostAnalysisView::setDatabase(const std::filesystem::path& path) {
    m_watcher.waitForFinished();
    if (path.empty()) {
        show({});
        return;
    }
    m_status->setText(QStringLiteral("Analysing host activity…"));
    m_watcher.setFuture(QtConcurrent::run([path] {
        Result r;
        auto db = profiler::ProfileDb::open(path);  // own connection: this runs off the GUI thread
        if (!db) {
            r.error = db.message();
            return r;
        }
        r.cpuOps = profiler::computeCpuOpStatistics(**db);
        const auto launches = profiler::loadKernelLaunches(**db);
        r.opKernels = profiler::opKernelTable(**db, launches);
        r.streams = profiler::streamLaunchStats(**db, launches);
        return r;
    }));
}

void HostAnalysisView::show(const Result& r) {
    m_cpuOps->setHeaders({QStringLiteral("Op"), QStringLiteral("Calls"), QStringLiteral("Total"), QStringLiteral("Self"),
                          QStringLiteral("Max")},
                         {QString(), QString(), QStringLiteral("Inclusive time"),
                          QStringLiteral("Total minus the cpu_ops nested directly inside (PyTorch's Self CPU)")});
    std::vector<std::vector<RecordCell>> rows;
    for (const auto& o : r.cpuOps)
        rows.push_back({text(o.name), num(o.count), ns(double(o.total_ns)), ns(double(o.self_ns)), ns(double(o.max_ns))});
    m_cpuOps->setRows(std::move(rows));

    m_opKernels->setHeaders({QStringLiteral("Op"), QStringLiteral("Launches"), QStringLiteral("Kernel time"),
                             QStringLiteral("Kernels"), QStringLiteral("Mean launch delay"), QStringLiteral("Top kernel")},
                            {QStringLiteral("The cpu_op around the runtime call"), QString(), QString(),
                             QStringLiteral("Distinct kernels"), QStringLiteral("Kernel start minus runtime call end")});
    rows.clear();
    for (const auto& o : r.opKernels)
        rows.push_back({text(o.op), num(o.launches), ns(double(o.kernel_time_ns)), num(o.distinct_kernels),
                        ns(o.mean_delay_ns), text(o.top_kernel)});
    m_opKernels->setRows(std::move(rows));

    m_streams->setHeaders({QStringLiteral("Stream"), QStringLiteral("Launches"), QStringLiteral("Mean delay"),
                           QStringLiteral("p50 delay"), QStringLiteral("p95 delay"), QStringLiteral("Max delay"),
                           QStringLiteral("Short kernels"), QStringLiteral("Max queue"), QStringLiteral("Mean queue")},
                          {QString(), QString(), QStringLiteral("Launch delay: kernel start minus runtime call end"),
                           QString(), QString(), QString(), QStringLiteral("Kernels shorter than their runtime call"),
                           QStringLiteral("Launched but not finished")});
    rows.clear();
    m_queuePlot->clearGraphs();
    std::int64_t t0 = std::numeric_limits<std::int64_t>::max();
    for (const auto& s : r.streams)
        if (!s.queue.ts_ns.empty()) t0 = std::min(t0, s.queue.ts_ns.front());
    double xMax = 0, yMax = 1;
    for (const auto& s : r.streams) {
        rows.push_back({text(s.name), num(s.launches), ns(s.mean_delay_ns), ns(double(s.p50_delay_ns)),
                        ns(double(s.p95_delay_ns)), ns(double(s.max_delay_ns)), num(s.short_kernels), num(s.max_queue),
                        RecordCell(QString::number(s.mean_queue, 'f', 1), s.mean_queue)});
        QVector<double> x, y;
        for (size_t i = 0; i < s.queue.ts_ns.size(); ++i) {
            x << double(s.queue.ts_ns[i] - t0) / 1e6;
            y << s.queue.value[i];
        }
        QCPGraph* g = m_queuePlot->addGraph();
        g->setName(QString::fromStdString(s.name));
        g->setLineStyle(QCPGraph::lsStepLeft);
        g->setData(x, y, true);
        if (!x.isEmpty()) xMax = std::max(xMax, x.back());
        yMax = std::max(yMax, double(s.max_queue));
    }
    m_streams->setRows(std::move(rows));
    m_queuePlot->xAxis->setLabel(QStringLiteral("time (ms)"));
    m_queuePlot->xAxis->setRange(0, std::max(xMax, 1e-3));
    m_queuePlot->yAxis->setRange(0, yMax * 1.1);
    m_queuePlot->replot();
    if (!r.error.empty()) m_status->setText(QString::fromStdString(r.error));
    else if (r.cpuOps.empty() && r.streams.empty()) m_status->setText(QStringLiteral("No CPU ops or kernel launches (ac2g / HostToDevice flows) in this run."));
    else
        m_status->setText(QStringLiteral("%1 CPU op names · %2 streams with launches · double-click an op to see its slices")
                              .arg(r.cpuOps.size())
                              .arg(r.streams.size()));
    emit computed();
}

}  // namespace npu::views
