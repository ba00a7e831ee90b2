#include "views/timeline/slice_label.h"

namespace npu::views {

namespace {
const QChar kEllipsis(0x2026);

// Characters of `name` that an elided text keeps (the ellipsis does not count).
int keptChars(const QString& text) { return static_cast<int>(text.size()) - (text.contains(kEllipsis) ? 1 : 0); }
}  // namespace

QString sliceLabel(const QString& name, const QFontMetrics& fm, int width)
{
    if (width <= 0 || name.isEmpty())
        return {};
    if (fm.horizontalAdvance(name) <= width)
        return name;
    const bool scoped = name.contains(QLatin1Char('.')) && !name.contains(QLatin1Char(' '));
    QString text;
    if (scoped) {
        const QString last = name.mid(name.lastIndexOf(QLatin1Char('.')) + 1);
        text = fm.elidedText(name, Qt::ElideLeft, width);
        // Never cut into the last component from the left: show it whole, or its start.
        if (keptChars(text) < last.size()) {
            const QString whole = QString(kEllipsis) + last;
            text = fm.horizontalAdvance(whole) <= width ? whole : fm.elidedText(last, Qt::ElideRight, width);
        }
    } else {
        text = fm.elidedText(name, Qt::ElideRight, width);
    }
    return keptChars(text) >= kSliceLabelMinChars ? text : QString();
}

}  // namespace npu::views
