#include "views/log/output_panel.h"

#include <QDateTime>
#include <QFontDatabase>
#include <QScrollBar>

namespace npu::views {

OutputPanel::OutputPanel(QWidget* parent) : QPlainTextEdit(parent) {
    setReadOnly(true);
    setMaximumBlockCount(5000);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setLineWrapMode(QPlainTextEdit::NoWrap);
}

void OutputPanel::log(Level level, const QString& message) {
    const QString time = QDateTime::currentDateTime().toString(QStringLiteral("HH:mm:ss"));
    QString color = QStringLiteral("#202020");
    QString tag;
    if (level == Level::warning) {
        color = QStringLiteral("#a66300");
        tag = QStringLiteral("warning: ");
    } else if (level == Level::error) {
        color = QStringLiteral("#b00020");
        tag = QStringLiteral("error: ");
        ++m_errors;
    }
    appendHtml(QStringLiteral("<span style=\"color:#808080\">%1</span> <span style=\"color:%2\">%3%4</span>")
                   .arg(time, color, tag, message.toHtmlEscaped()));
    // The newest line is what matters (an error at the end must not go unseen), even when
    // the view was not at the bottom or is not laid out yet.
    moveCursor(QTextCursor::End);
    ensureCursorVisible();
    verticalScrollBar()->setValue(verticalScrollBar()->maximum());
}

}  // namespace npu::views
