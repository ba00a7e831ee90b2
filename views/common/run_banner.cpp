#include "views/common/run_banner.h"

#include "profiler/store/profile_db.h"

namespace npu::views {

QString runBannerText(const profiler::ProfileDb& db) {
    for (const auto& d : db.diagnostics())
        if (d.kind == "truncated")
            return QStringLiteral("Incomplete trace: %1. Figures are of the part before the cut "
                                  "(Diagnostics tab: truncated).")
                .arg(QString::fromStdString(d.example));
    return {};
}

RunBanner::RunBanner(QWidget* parent) : QLabel(parent) {
    setObjectName(QStringLiteral("runBanner"));
    setWordWrap(true);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    // The warning colours of the palette's tooltip role would follow the theme but are
    // often white on black; a fixed amber bar reads as a warning in light and dark themes.
    setStyleSheet(QStringLiteral("QLabel#runBanner { background: #fff3cd; color: #664d03; "
                                 "border-bottom: 1px solid #e0c36c; padding: 4px 8px; }"));
    hide();
}

void RunBanner::setDatabase(const profiler::ProfileDb* db) {
    const QString text = db ? runBannerText(*db) : QString();
    setText(text);
    setVisible(!text.isEmpty());
}

}  // namespace npu::views
