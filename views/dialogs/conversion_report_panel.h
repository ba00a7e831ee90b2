#pragma once
// The conversion report as a panel: the model's figures, a table of op types with the
// unsupported ones highlighted in red, unbound dimensions and warnings. Shown at the end
// of the Convert Model wizard and wherever a converted model's report is opened.

#include "engine/onnx/conversion_report.h"

#include <QWidget>

class QLabel;
class QStandardItemModel;
class QTableView;
class QPlainTextEdit;

namespace npu::views {

class ConversionReportPanel : public QWidget {
    Q_OBJECT
public:
    explicit ConversionReportPanel(QWidget* parent = nullptr);
    void setReport(const engine::ConversionReport& report);

    QStandardItemModel* opTypeModel() const { return m_ops; }
    QString summaryText() const;
    QString messagesText() const;

private:
    QLabel* m_summary;
    QStandardItemModel* m_ops;
    QTableView* m_table;
    QPlainTextEdit* m_messages;
};

}  // namespace npu::views
