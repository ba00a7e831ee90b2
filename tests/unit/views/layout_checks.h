#pragma once
// What "readable at this window size" can be asserted offscreen (issue 24: GUI tests run at
// 1280x720 as well as the default size): each key widget a tab shows (its tables and
// trees, charts, the timeline) gets a usable size, and no column header's text is cut by
// its section's width (the style elides it: "Tim…", "Computin").

#include <QAbstractItemView>
#include <QFontMetrics>
#include <QHeaderView>
#include <QScrollBar>
#include <QStringList>
#include <QStyle>
#include <QTabWidget>
#include <QTest>
#include <QTableView>
#include <QWidget>

#include <algorithm>

namespace npu::views::testing {

// The horizontal header sections of `view` too narrow for their text, as "text (W < N px)".
inline QStringList cutHeaderSections(const QTableView* view) {
    QStringList cut;
    const QHeaderView* h = view->horizontalHeader();
    if (!view->model() || h->isHidden()) return cut;
    const QFontMetrics fm(h->font());
    const int margin = h->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, h);
    const int mark = h->style()->pixelMetric(QStyle::PM_HeaderMarkSize, nullptr, h);
    for (int i = 0; i < h->count(); ++i) {
        if (h->isSectionHidden(i)) continue;
        const QString text = view->model()->headerData(i, Qt::Horizontal, Qt::DisplayRole).toString();
        if (text.isEmpty()) continue;
        int width = 0;
        for (const QString& line : text.split(QLatin1Char('\n'))) width = std::max(width, fm.horizontalAdvance(line));
        int need = width + 2 * margin;
        if (h->isSortIndicatorShown() && h->sortIndicatorSection() == i) need += mark + margin;
        if (h->sectionSize(i) < need) cut << QStringLiteral("%1 (%2 < %3 px)").arg(text).arg(h->sectionSize(i)).arg(need);
    }
    return cut;
}

// The key widgets of `tab` that are shown but squashed below `minimum`: tables and trees
// with content (lower only when they show all their rows), QCustomPlot charts, the
// timeline. As "Class objectName WxH".
inline QStringList squashedWidgets(const QWidget* tab, QSize minimum) {
    QStringList squashed;
    for (const QWidget* w : tab->findChildren<QWidget*>()) {
        if (!w->isVisible()) continue;
        const auto* items = qobject_cast<const QAbstractItemView*>(w);
        if (qobject_cast<const QHeaderView*>(w)) continue;  // a table's part, 18 px high by design
        const bool key = (items && items->model() && items->model()->rowCount() > 0) || w->inherits("QCustomPlot") ||
                         w->inherits("npu::views::TimelineWidget");
        // A table sized to its rows (all shown, no vertical scrolling) is not squashed.
        const bool allRowsShown = items && items->verticalScrollBar()->maximum() == 0;
        if (key && (w->width() < minimum.width() || (w->height() < minimum.height() && !allRowsShown)))
            squashed << QStringLiteral("%1 %2 %3x%4")
                            .arg(QString::fromLatin1(w->metaObject()->className()), w->objectName())
                            .arg(w->width())
                            .arg(w->height());
    }
    return squashed;
}

// Both checks over the tables of `tab` that are shown.
inline QStringList layoutProblems(const QWidget* tab, QSize minimum) {
    QStringList problems = squashedWidgets(tab, minimum);
    for (const QTableView* t : tab->findChildren<QTableView*>())
        if (t->isVisible())
            for (const QString& c : cutHeaderSections(t)) problems << QStringLiteral("header cut: ") + c;
    return problems;
}

// The data rows of a slot run at `usual` (the test's default window) and at 1280x720, in
// a column "size".
// Shows a window at `size` and waits until it is exposed (false if it never is).
template <class Window>
bool showAt(Window& w, QSize size) {
    w.resize(size);
    w.show();
    return QTest::qWaitForWindowExposed(&w);
}

inline void addWindowSizes(QSize usual) {
    QTest::addColumn<QSize>("size");
    QTest::newRow(qPrintable(QStringLiteral("%1x%2").arg(usual.width()).arg(usual.height()))) << usual;
    QTest::newRow("1280x720") << QSize(1280, 720);
}

// Shows (and paints) every visible tab of `tabs` in turn: layoutProblems of each, as
// "Tab: problem".
inline QStringList problemsInEveryTab(QTabWidget* tabs, QSize minimum) {
    QStringList problems;
    for (int i = 0; i < tabs->count(); ++i) {
        if (!tabs->isTabVisible(i)) continue;
        tabs->setCurrentIndex(i);
        if (tabs->window()->grab().isNull()) problems << tabs->tabText(i) + QStringLiteral(": not painted");
        QTest::qWait(50);
        for (const QString& p : layoutProblems(tabs->currentWidget(), minimum)) problems << tabs->tabText(i) + QStringLiteral(": ") + p;
    }
    return problems;
}

}  // namespace npu::views::testing
