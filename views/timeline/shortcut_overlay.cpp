#include "views/timeline/shortcut_overlay.h"

#include <QMouseEvent>

namespace npu::views {

QList<QPair<QString, QString>> timelineShortcuts() {
    return {
        {QStringLiteral("W / S"), QStringLiteral("zoom in / out around the mouse")},
        {QStringLiteral("A / D"), QStringLiteral("pan left / right by a fifth of the view")},
        {QStringLiteral("wheel"), QStringLiteral("zoom at the cursor")},
        {QStringLiteral("Shift+wheel"), QStringLiteral("scroll the tracks")},
        {QStringLiteral("drag"), QStringLiteral("pan")},
        {QStringLiteral("Shift+drag"), QStringLiteral("select an area on the tracks it crosses")},
        {QStringLiteral("drag on the ruler"), QStringLiteral("select a time range over every track")},
        {QStringLiteral("click"), QStringLiteral("select a slice: details, flows")},
        {QStringLiteral("F"), QStringLiteral("fit the range, else the slice, else the trace")},
        {QStringLiteral("M"), QStringLiteral("add a flag at the mouse")},
        {QStringLiteral("Ctrl+F"), QStringLiteral("find slices by name; Enter / Shift+Enter: next / previous")},
        {QStringLiteral("Esc"), QStringLiteral("close the find bar, then clear the range, then the selection")},
        {QStringLiteral("↑ / ↓"), QStringLiteral("scroll the tracks")},
        {QStringLiteral("right-click"), QStringLiteral("slice, track and ruler menus: pin, hide, colour by, flags")},
        {QStringLiteral("?"), QStringLiteral("show or hide this help")},
    };
}

ShortcutOverlay::ShortcutOverlay(QWidget* timeline) : QLabel(timeline) {
    QString html = QStringLiteral("<b>Timeline shortcuts</b><table cellspacing='0' cellpadding='3'>");
    for (const auto& [keys, action] : timelineShortcuts())
        html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(keys.toHtmlEscaped(), action.toHtmlEscaped());
    html += QStringLiteral("</table><span style='color:#666'>Press ? or Esc, or click, to close</span>");
    setText(html);
    setTextFormat(Qt::RichText);
    setAutoFillBackground(true);
    setStyleSheet(QStringLiteral("QLabel { background: rgba(255, 255, 255, 240); border: 1px solid #888; border-radius: 4px; padding: 10px; }"));
    setAccessibleName(QStringLiteral("Timeline shortcuts"));
    hide();
}

void ShortcutOverlay::toggle() {
    if (isVisible()) {
        hide();
        return;
    }
    place();
    show();
    raise();
}

void ShortcutOverlay::place() {
    const QWidget* p = parentWidget();
    const QSize want = sizeHint().boundedTo(p->size());
    setGeometry((p->width() - want.width()) / 2, std::max(0, (p->height() - want.height()) / 2), want.width(), want.height());
}

void ShortcutOverlay::mousePressEvent(QMouseEvent* event) {
    hide();
    event->accept();
}

}  // namespace npu::views
