#include "views/charts/qcustomplot_include.h"  // first: see there

#include "views/charts/memory_chart.h"

#include "profiler/analysis/counter_reducer.h"
#include "profiler/analysis/memory_counter.h"
#include "profiler/analysis/memory_live_blocks.h"
#include "profiler/analysis/memory_map_series.h"
#include "profiler/store/memory_block_store.h"
#include "views/charts/memory_blocks_panel.h"
#include "views/charts/memory_map.h"
#include "views/charts/memory_what_if_bar.h"
#include "views/charts/model_state_table.h"
#include "views/charts/rank_memory_table.h"
#include "views/common/units.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace npu::views {

namespace {
const QColor kPalette[] = {QColor(52, 120, 198), QColor(230, 126, 34), QColor(39, 174, 96),
                           QColor(142, 68, 173), QColor(192, 57, 43), QColor(22, 160, 133)};

// The capacity of the run's device, where the writer or importer recorded it.
double capacityFromMeta(const profiler::ProfileDb& db) {
    for (const char* key : {"capacity_bytes", "memory.capacity_bytes", "summary.capacity_bytes", "device_memory_bytes"}) {
        const std::string v = db.meta(key);
        if (!v.empty()) {
            try {
                return std::stod(v);
            } catch (...) {
            }
        }
    }
    return 0;
}
}  // namespace

MemoryChart::MemoryChart(QWidget* parent) : QWidget(parent) {
    m_plot = new QCustomPlot(this);
    // Its own minimum (legend rows, axis margins) would hold the window above 720 px with
    // the map and the details under it; the splitter gives it the most of what is there.
    m_plot->setMinimumHeight(140);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->axisRect()->setRangeDrag(Qt::Horizontal);
    m_plot->axisRect()->setRangeZoom(Qt::Horizontal);
    m_plot->legend->setVisible(true);
    // The legend in a row above the plot, wrapped to its width (fitLegend): inside the
    // axis rect it covered the curves and the peak label, even at 1600 px (issue 24).
    m_plot->axisRect()->insetLayout()->take(m_plot->legend);
    m_plot->plotLayout()->insertRow(0);
    m_plot->plotLayout()->addElement(0, 0, m_plot->legend);
    m_plot->plotLayout()->setRowStretchFactor(0, 0.001);
    m_plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    m_plot->legend->setBorderPen(Qt::NoPen);
    m_plot->legend->setFont(QFont(font().family(), 8));
    m_plot->legend->setMargins(QMargins(4, 2, 4, 0));
    m_plot->setNoAntialiasingOnDrag(true);
    // Room on the left for the memory map's address labels, whose time axis lines up with this one.
    m_plot->axisRect()->setMinimumMargins(QMargins(72, 15, 15, 15));
    m_plot->setToolTip(QStringLiteral("Wheel: zoom time · drag: pan · click: blocks live at that instant · "
                                      "Shift+drag: blocks alive in a range · double-click: reset"));

    m_info = new QLabel(this);
    m_info->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_info->setWordWrap(true);
    m_device = new QComboBox(this);
    m_device->setToolTip(QStringLiteral("The device whose memory counters are drawn"));
    m_readout = new QLabel(this);
    m_readout->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_readout->setWordWrap(true);  // one reading per counter: 15 on an Ascend capture would widen the window
    m_toPeak = new QPushButton(QStringLiteral("Peak in Timeline"), this);
    m_toPeak->setToolTip(QStringLiteral("Show the instant of the peak in the Timeline tab"));
    connect(m_toPeak, &QPushButton::clicked, this, [this] {
        if (m_peakTs >= 0) emit timeActivated(m_peakTs);
    });
    auto* bar = new QHBoxLayout;
    bar->addWidget(m_device);
    bar->addWidget(m_info, 1);
    bar->addWidget(m_toPeak);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(m_whatIf = new MemoryWhatIfBar(this));
    m_whatIf->hide();  // shown by the app for a simulated run of the open project
    m_map = new MemoryMap(this);
    m_blocks = new MemoryBlocksPanel(this);
    // Under the chart and the map, one pane of tabs: the blocks live at the selected
    // instant, the model states, a cluster run's memory per rank class. Stacked, the three
    // did not fit 1280x720 beside a chart of readable height once cluster ranks had blocks.
    m_details = new QTabWidget(this);
    m_details->setDocumentMode(true);
    const auto page = [this](QWidget* content, const QString& title) {
        auto* holder = new QWidget(m_details);
        auto* l = new QVBoxLayout(holder);
        l->setContentsMargins(0, 2, 0, 0);
        if (content) l->addWidget(content);
        l->addStretch(1);
        m_details->addTab(holder, title);
        return holder;
    };
    m_blocksPage = page(m_blocks, QStringLiteral("Live blocks"));
    m_rankPage = page(m_rankMemory = new RankMemoryTable(this), QStringLiteral("Memory per rank class"));  // shown for a cluster run
    m_statesPage = page(m_modelStates = new ModelStateTable(this), QStringLiteral("Model states"));      // shown for a simulated run
    // The memory map's tab, used when the tab is too low for the map under the chart (placeMap).
    m_mapPage = new QWidget(this);
    (new QVBoxLayout(m_mapPage))->setContentsMargins(0, 2, 0, 0);
    m_mapPage->hide();
    m_details->setMinimumHeight(140);  // the tab bar, a headline and two rows of blocks
    auto* split = m_split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_plot);
    split->addWidget(m_map);
    split->addWidget(m_details);
    // The chart first; the details take what is left.
    for (const auto& [widget, stretch] : {std::pair{0, 5}, {1, 2}, {2, 2}}) split->setStretchFactor(widget, stretch);
    split->setSizes({500, 200, 200});
    split->setChildrenCollapsible(false);
    layout->addWidget(split, 1);
    // Without memory data: a message where the axes were (no empty axes, stray legend or
    // dead "Peak in Timeline").
    m_empty = new QLabel(this);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_empty->hide();
    layout->addWidget(m_empty, 1);
    layout->addWidget(m_readout);
    connect(m_device, &QComboBox::currentIndexChanged, this, [this] {
        showDevice();
        updateDetailTabs();
    });
    m_plot->setMouseTracking(true);  // hover, not only drags, reaches the readout
    connect(m_plot, &QCustomPlot::mouseMove, this, &MemoryChart::onMouseMove);

    connect(m_plot->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this] {
        if (!m_reducing) reduceVisible();
    });
    connect(m_plot, &QCustomPlot::mouseDoubleClick, this, [this] { resetZoom(); });
    buildSelection();  // memory_chart_selection.cpp
    // The map's time axis under the chart's: same left and right edges, once laid out.
    connect(m_plot, &QCustomPlot::afterReplot, this, [this] {
        const QRect axis = m_plot->axisRect()->rect();
        m_map->setHorizontalMargins(axis.left(), m_plot->width() - axis.right() - 1);
    });
    rebuild();  // "No run open." until a run is set, not empty axes
}

void MemoryChart::setDatabase(std::shared_ptr<const profiler::ProfileDb> db) {
    m_db = std::move(db);
    m_modelStates->setDatabase(m_db.get());
    m_rankMemory->setDatabase(m_db.get());
    rebuild();
    // A new run opens on its summary: the rank classes of a cluster, else the model states.
    for (QWidget* tab : {m_rankPage, m_statesPage, m_blocksPage})
        if (m_details->isTabVisible(m_details->indexOf(tab))) {
            m_details->setCurrentWidget(tab);
            break;
        }
}

int MemoryChart::pointCount() const {
    int n = 0;
    for (int i = 0; i < m_plot->graphCount(); ++i) n += m_plot->graph(i)->dataCount();
    return n;
}

void MemoryChart::rebuild() {
    m_all.clear();
    if (m_db) {
        for (const auto& track : m_db->tracks()) {
            if (track.kind != profiler::TrackKind::counter) continue;
            // Bandwidth, frequency and ratio counters stay on the timeline; memory ones are drawn in bytes.
            const profiler::MemoryCounter counter = profiler::classifyMemoryCounter(track.name);
            if (counter.kind == profiler::MemoryCounterKind::none) continue;
            Series s;
            s.name = QString::fromStdString(counter.displayName);
            s.device = track.device;
            s.samples = m_db->counter(track.id);
            if (counter.bytesPerUnit != 1)
                for (double& v : s.samples.value) v *= counter.bytesPerUnit;
            if (!s.samples.ts_ns.empty()) m_all.push_back(std::move(s));
        }
    }
    // One entry per device with counters; the default is the one with the highest peak
    // (the accelerator, not the host's few bytes).
    const QSignalBlocker block(m_device);
    m_device->clear();
    double best = -1;
    int bestIndex = 0;
    if (m_db)
        for (const auto& d : m_db->devices()) {
            double peak = -1;
            for (const Series& s : m_all)
                if (s.device == d.id) peak = std::max(peak, profiler::counterPeak(s.samples).value);
            if (peak < 0) continue;
            m_device->addItem(QString::fromStdString(d.name), QVariant::fromValue<qlonglong>(d.id));
            if (peak > best) {
                best = peak;
                bestIndex = m_device->count() - 1;
            }
        }
    m_device->setCurrentIndex(bestIndex);
    m_device->setVisible(m_device->count() > 1);
    showDevice();
    updateDetailTabs();
}

void MemoryChart::showDevice() {
    m_plot->clearGraphs();
    m_plot->clearItems();
    m_capacityLine = nullptr;
    m_cursorLine = nullptr;
    m_peakMarker = nullptr;
    m_peakLabel = nullptr;
    m_selectionBox = nullptr;
    m_selectionLine = nullptr;
    m_selFrom = m_selTo = -1;
    m_series.clear();
    m_capacity = 0;
    m_peakValue = 0;
    m_peakTs = -1;
    m_readout->clear();
    m_map->setData({}, 0);
    m_map->hide();
    m_blocks->setDatabase(nullptr, 0, 0);
    m_blocks->hide();
    const auto showEmpty = [this](const QString& why) {
        m_split->hide();
        m_toPeak->hide();
        m_empty->setText(why);
        m_empty->show();
        m_plot->replot();
    };
    m_split->show();
    m_toPeak->show();
    m_empty->hide();
    if (!m_db) {
        m_info->setText(QStringLiteral("No run open."));
        showEmpty(QStringLiteral("No run open."));
        return;
    }
    const QVariant device = m_device->currentData();
    bool hostDevice = false;
    for (const auto& d : m_db->devices())
        if (device.isValid() && d.id == device.toLongLong()) hostDevice = d.kind == "cpu";
    for (const Series& s : m_all)
        if (!device.isValid() || s.device == device.toLongLong()) m_series.push_back(s);
    if (m_series.empty()) {
        m_info->setText(QStringLiteral("This run has no memory counter tracks."));
        showEmpty(QStringLiteral("No memory data in this run: it has no memory counter tracks (allocated or reserved bytes) "
                                 "and no memory blocks.\nA PyTorch trace records them with profile_memory=True, an Ascend "
                                 "capture with its memory data switched on; a simulated run always has them."));
        return;
    }

    m_t0 = m_series.front().samples.ts_ns.front();
    m_t1 = m_series.front().samples.ts_ns.back();
    profiler::CounterPeak peak;
    QStringList peaks;
    for (const Series& s : m_series) {
        m_t0 = std::min(m_t0, s.samples.ts_ns.front());
        m_t1 = std::max(m_t1, s.samples.ts_ns.back());
        const profiler::CounterPeak p = profiler::counterPeak(s.samples);
        if (p.valid) peaks << QStringLiteral("%1 %2").arg(s.name, formatBytes(p.value));
        if (p.valid && (!peak.valid || p.value > peak.value)) peak = p;
    }
    const auto range = m_db->timeRange();
    if (range.second > range.first) {
        m_t0 = std::min(m_t0, range.first);
        m_t1 = std::max(m_t1, range.second);
    }
    if (m_t1 <= m_t0) m_t1 = m_t0 + 1;
    // The recorded capacity is the accelerator's; a host's counters are not held to it.
    m_capacity = hostDevice ? 0 : capacityFromMeta(*m_db);
    m_peakValue = peak.value;
    m_peakTs = peak.valid ? peak.ts_ns : -1;

    m_mapSeries = {};
    if (device.isValid()) {
        auto blocks = profiler::readMemoryMap(*m_db, device.toLongLong());
        if (!blocks.empty()) {
            m_mapSeries = profiler::memoryMapSeries(blocks);
            m_map->setData(std::move(blocks), m_t0);
            m_map->show();
            m_blocks->setDatabase(m_db, device.toLongLong(), m_t0);
            m_blocks->show();
        } else if (profiler::hasOperatorAllocations(*m_db, device.toLongLong())) {
            // Ascend: no addresses to map, but the operator allocations to list.
            m_blocks->setDatabase(m_db, device.toLongLong(), m_t0);
            m_blocks->show();
        }
    }

    const TimeUnit tu = timeUnitFor(double(m_t1 - m_t0));
    // The capacity line joins the y range only when the peak comes near it: a 9 GB curve
    // under a 140 GB axis is a flat line, and the info line states the capacity anyway.
    const bool showCapacity = m_capacity > 0 && m_peakValue >= 0.5 * m_capacity;
    const ByteUnit bu = byteUnitFor(showCapacity ? std::max(m_peakValue, m_capacity) : m_peakValue);
    m_timeDiv = tu.divisor;
    m_byteDiv = bu.divisor;
    m_plot->xAxis->setLabel(QStringLiteral("time (%1)").arg(tu.suffix));
    m_plot->yAxis->setLabel(QStringLiteral("memory (%1)").arg(bu.suffix));

    for (size_t i = 0; i < m_series.size(); ++i) {
        QCPGraph* g = m_plot->addGraph();
        g->setName(m_series[i].name);
        g->setLineStyle(QCPGraph::lsStepLeft);
        const QColor c = kPalette[i % std::size(kPalette)];
        g->setPen(QPen(c, 1.5));
        if (i == 0) g->setBrush(QColor(c.red(), c.green(), c.blue(), 40));
    }

    if (showCapacity) {
        m_capacityLine = new QCPItemStraightLine(m_plot);
        m_capacityLine->point1->setCoords(0, m_capacity / m_byteDiv);
        m_capacityLine->point2->setCoords(1, m_capacity / m_byteDiv);
        m_capacityLine->setPen(QPen(QColor(192, 57, 43), 1.5, Qt::DashLine));
        auto* label = new QCPItemText(m_plot);
        label->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
        label->position->setCoords(0.99, m_capacity / m_byteDiv);
        label->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
        label->setText(QStringLiteral("capacity %1").arg(formatBytes(m_capacity)));
        label->setColor(QColor(192, 57, 43));
    }
    if (peak.valid) {
        m_peakMarker = new QCPItemTracer(m_plot);
        m_peakMarker->setStyle(QCPItemTracer::tsCircle);
        m_peakMarker->setSize(8);
        m_peakMarker->setPen(QPen(Qt::black, 1.5));
        m_peakMarker->setBrush(QColor(241, 196, 15));
        m_peakMarker->position->setCoords(double(peak.ts_ns - m_t0) / m_timeDiv, peak.value / m_byteDiv);
        m_peakLabel = new QCPItemText(m_plot);
        m_peakLabel->position->setParentAnchor(m_peakMarker->position);
        m_peakLabel->position->setCoords(6, -6);
        m_peakLabel->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
        m_peakLabel->setText(QStringLiteral("peak %1 at %2").arg(formatBytes(peak.value), formatDuration(double(peak.ts_ns - m_t0))));
        m_peakLabel->setBrush(QColor(255, 255, 255, 210));
        m_peakLabel->setPadding(QMargins(2, 1, 2, 1));
    }
    addMapSeries();
    m_cursorLine = new QCPItemStraightLine(m_plot);
    m_cursorLine->setPen(QPen(QColor(90, 90, 90), 1, Qt::DotLine));
    m_cursorLine->setVisible(false);

    // One series names itself in the info line; the legend would only cover the capacity label.
    m_plot->legend->setVisible(m_series.size() > 1 || !m_mapSeries.ts_ns.empty());
    // Every series' peak, named: an imported trace has allocated and reserved, and users
    // read the allocated one.
    QString info = QStringLiteral("Peak ") + peaks.join(QStringLiteral(" · "));
    if (m_capacity > 0)
        info += QStringLiteral(" · highest %1 of %2 capacity").arg(formatPercent(m_peakValue / m_capacity), formatBytes(m_capacity));
    info += QStringLiteral(" · %1 counter track(s)").arg(m_series.size());
    m_info->setText(info);

    // The axis always holds the capacity line when it is drawn.
    const double top = (showCapacity ? std::max(m_peakValue, m_capacity) : m_peakValue * 1.1) / m_byteDiv;
    // Room above the peak for its label: at 720 px high the plot is 200 px, and 8 % of it
    // cut the label at the top edge.
    m_plot->yAxis->setRange(0, top * 1.18 + 1e-9);
    fitLegend();
    resetZoom();
    placePeakLabel();
}

QString MemoryChart::headline() const { return m_info->text(); }

QStringList MemoryChart::seriesNames() const {
    QStringList out;
    for (const Series& s : m_series) out << s.name;
    return out;
}

QString MemoryChart::readout() const { return m_readout->text(); }

}  // namespace npu::views
