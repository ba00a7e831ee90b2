#pragma once
// The Output panel: a timestamped log of what the application did (opened files,
// simulation and import progress, errors), newest at the bottom.

#include <QPlainTextEdit>

namespace npu::views {

class OutputPanel : public QPlainTextEdit {
    Q_OBJECT
public:
    enum class Level { info, warning, error };
    explicit OutputPanel(QWidget* parent = nullptr);

    void log(Level level, const QString& message);
    int errorCount() const { return m_errors; }

private:
    int m_errors = 0;
};

}  // namespace npu::views
