#include "views/charts/qcustomplot_include.h"  // first: see there

#include "views/charts/loss_scale_chart.h"

#include "profiler/store/loss_scale_store.h"
#include "profiler/store/profile_db.h"

#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>

namespace npu::views {

LossScaleChart::LossScaleChart(QWidget* parent) : QWidget(parent) {
    m_title = new QLabel(this);
    m_plot = new QCustomPlot(this);
    m_plot->setMinimumHeight(180);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->axisRect()->setRangeDrag(Qt::Horizontal);
    m_plot->axisRect()->setRangeZoom(Qt::Horizontal);
    m_plot->xAxis->setLabel(QStringLiteral("step"));
    m_plot->yAxis->setLabel(QStringLiteral("loss scale"));
    m_plot->yAxis->setScaleType(QCPAxis::stLogarithmic);
    auto ticker = QSharedPointer<QCPAxisTickerLog>::create();
    ticker->setLogBase(2);
    m_plot->yAxis->setTicker(ticker);
    m_plot->yAxis->setNumberFormat(QStringLiteral("gb"));
    // No legend box: over a log axis it would hide the last steps; the title says what the marks are.
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_title);
    layout->addWidget(m_plot, 1);
    hide();
}

void LossScaleChart::setDatabase(const std::shared_ptr<const profiler::ProfileDb>& db) {
    m_plot->clearGraphs();
    m_steps = m_skipped = 0;
    const std::vector<profiler::LossScaleStep> rows = db ? profiler::readLossScaleSteps(*db) : std::vector<profiler::LossScaleStep>{};
    if (rows.empty()) {
        hide();
        return;
    }
    QVector<double> step, scale, skippedStep, skippedScale;
    for (const profiler::LossScaleStep& r : rows) {
        step << r.step;
        scale << r.scale;
        if (r.skipped) {
            skippedStep << r.step;
            skippedScale << r.scale;
        }
    }
    QCPGraph* line = m_plot->addGraph();
    line->setName(QStringLiteral("scale used by the step"));
    line->setLineStyle(QCPGraph::lsStepLeft);
    line->setPen(QPen(QColor(52, 120, 198), 2));
    line->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 4));
    line->setData(step, scale, /*alreadySorted=*/true);
    QCPGraph* skipped = m_plot->addGraph();
    skipped->setName(QStringLiteral("overflow: optimizer step skipped"));
    skipped->setLineStyle(QCPGraph::lsNone);
    skipped->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCross, QPen(QColor(192, 57, 43), 2), Qt::NoBrush, 10));
    skipped->setData(skippedStep, skippedScale, true);
    m_steps = int(rows.size());
    m_skipped = int(skippedStep.size());
    const auto [lo, hi] = std::minmax_element(scale.begin(), scale.end());
    m_plot->xAxis->setRange(-0.5, step.back() + 0.5);
    m_plot->yAxis->setRange(*lo / 2, *hi * 2);
    m_title->setText(QStringLiteral("<b>Loss scale per step</b> · %1 step(s) · <span style='color:#c0392b'>✕</span> %2 "
                                    "overflow(s): optimizer step skipped")
                         .arg(m_steps)
                         .arg(m_skipped));
    m_plot->replot();
    show();
}

}  // namespace npu::views
