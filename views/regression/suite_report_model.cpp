#include "views/regression/suite_report_model.h"

#include <QBrush>
#include <QColor>

#include <algorithm>

namespace npu::views {

using regression::CaseStatus;

namespace {

int statusRank(CaseStatus s) { return s == CaseStatus::error ? 0 : s == CaseStatus::fail ? 1 : 2; }

QString number(const std::optional<double>& v) { return v ? QString::number(*v, 'g', 8) : QStringLiteral("—"); }

}  // namespace

SuiteReportModel::SuiteReportModel(QObject* parent) : QAbstractTableModel(parent) {}

void SuiteReportModel::setReport(regression::SuiteReport report) {
    beginResetModel();
    m_report = std::move(report);
    m_rows.clear();
    std::vector<int> order(m_report.cases.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = int(i);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        const auto& ca = m_report.cases[size_t(a)];
        const auto& cb = m_report.cases[size_t(b)];
        if (statusRank(ca.status) != statusRank(cb.status)) return statusRank(ca.status) < statusRank(cb.status);
        return ca.index < cb.index;
    });
    for (int c : order) {
        const auto& result = m_report.cases[size_t(c)];
        if (result.metrics.empty() || result.status == CaseStatus::error) m_rows.push_back({c, -1});
        // Within a case, the failing metrics first too.
        std::vector<int> metrics(result.metrics.size());
        for (size_t m = 0; m < metrics.size(); ++m) metrics[m] = int(m);
        std::stable_sort(metrics.begin(), metrics.end(), [&](int a, int b) {
            auto bad = [](const regression::MetricResult& m) {
                return regression::isFailure(m.verdict) || m.verdict == regression::Verdict::error;
            };
            return bad(result.metrics[size_t(a)]) && !bad(result.metrics[size_t(b)]);
        });
        for (int m : metrics) m_rows.push_back({c, m});
    }
    endResetModel();
}

const regression::CaseResult* SuiteReportModel::caseAt(int row) const {
    if (row < 0 || row >= int(m_rows.size())) return nullptr;
    return &m_report.cases[size_t(m_rows[size_t(row)].caseIndex)];
}

int SuiteReportModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(m_rows.size()); }

int SuiteReportModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(kColumns); }

QVariant SuiteReportModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= int(m_rows.size())) return {};
    const Row& row = m_rows[size_t(index.row())];
    const auto& c = m_report.cases[size_t(row.caseIndex)];
    const regression::MetricResult* m = row.metricIndex >= 0 ? &c.metrics[size_t(row.metricIndex)] : nullptr;
    const bool failed = m ? (regression::isFailure(m->verdict) || m->verdict == regression::Verdict::error)
                          : c.status != CaseStatus::pass;
    if (role == Qt::ForegroundRole && failed) return QBrush(QColor(0xc6, 0x28, 0x28));
    if (role == Qt::TextAlignmentRole && index.column() >= baselineColumn && index.column() <= deltaColumn)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole) {
        if (!c.error.empty()) return QString::fromStdString(c.error);
        if (m && !m->reason.empty()) return QString::fromStdString(m->reason);
        return {};
    }
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
    case caseColumn: return QString::fromStdString(c.name);
    case metricColumn: return m ? QString::fromStdString(m->path) : QStringLiteral("—");
    case baselineColumn: return m ? number(m->baseline) : QStringLiteral("—");
    case nowColumn: return m ? number(m->now) : QStringLiteral("—");
    case deltaColumn: {
        if (!m || !m->delta()) return QStringLiteral("—");
        QString text = QString::number(*m->delta(), 'g', 6);
        if (*m->delta() > 0) text.prepend(QLatin1Char('+'));
        if (auto rel = m->relDelta()) text += QStringLiteral(" (%1%2 %)").arg(*rel > 0 ? QStringLiteral("+") : QString()).arg(100 * *rel, 0, 'f', 2);
        return text;
    }
    case verdictColumn: {
        if (!m) return QStringLiteral("%1: %2").arg(QLatin1String(regression::caseStatusName(c.status)), QString::fromStdString(c.error));
        QString text = QLatin1String(regression::verdictName(m->verdict));
        if (!m->reason.empty()) text += QStringLiteral(": ") + QString::fromStdString(m->reason);
        return text;
    }
    default: return {};
    }
}

QVariant SuiteReportModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* names[] = {"Case", "Metric", "Baseline", "Now", "Delta", "Verdict"};
    return section >= 0 && section < int(kColumns) ? QVariant(QLatin1String(names[section])) : QVariant();
}

}  // namespace npu::views
