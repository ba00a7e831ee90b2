#include "views/tables/distinguishing_elide.h"

#include <QApplication>
#include <QFontMetrics>
#include <QPainter>

#include <algorithm>
#include <numeric>

namespace npu::views {

namespace {
// Characters of the shared prefix kept before the first distinguishing one, so the kept
// part reads as a word ("…size128x64…", not "…8x64…").
constexpr int kLeadIn = 6;
// A shared prefix shorter than this is no family: the middle elision keeps both ends.
constexpr int kFamilyPrefix = 12;

int commonPrefix(const QString& a, const QString& b) {
    const int n = static_cast<int>(std::min(a.size(), b.size()));
    int i = 0;
    while (i < n && a[i] == b[i]) ++i;
    return i;
}
}  // namespace

std::vector<int> sharedPrefixLengths(const std::vector<QString>& names) {
    std::vector<int> order(names.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int a, int b) { return names[std::size_t(a)] < names[std::size_t(b)]; });
    // In sorted order the most similar name is a neighbour.
    std::vector<int> out(names.size(), 0);
    for (std::size_t k = 0; k + 1 < order.size(); ++k) {
        const auto a = std::size_t(order[k]), b = std::size_t(order[k + 1]);
        const int shared = commonPrefix(names[a], names[b]);
        out[a] = std::max(out[a], shared);
        out[b] = std::max(out[b], shared);
    }
    return out;
}

QString distinguishingElide(const QString& text, int distinctFrom, const QFontMetrics& fm, int width) {
    if (fm.horizontalAdvance(text) <= width) return text;
    if (distinctFrom < kFamilyPrefix || distinctFrom >= text.size()) return fm.elidedText(text, Qt::ElideMiddle, width);
    const QString tail = QStringLiteral("…") + text.mid(std::max(0, distinctFrom - kLeadIn));
    return fm.elidedText(tail, Qt::ElideRight, width);
}

DistinguishingElideDelegate::DistinguishingElideDelegate(int distinctFromRole, QObject* parent)
    : QStyledItemDelegate(parent), m_role(distinctFromRole) {}

void DistinguishingElideDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const {
    QStyleOptionViewItem o = option;
    initStyleOption(&o, index);
    const int margin = o.widget ? o.widget->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, o.widget) + 1 : 4;
    o.text = distinguishingElide(o.text, index.data(m_role).toInt(), o.fontMetrics, o.rect.width() - 2 * margin);
    const QWidget* w = o.widget;
    (w ? w->style() : QApplication::style())->drawControl(QStyle::CE_ItemViewItem, &o, painter, w);
}

}  // namespace npu::views
