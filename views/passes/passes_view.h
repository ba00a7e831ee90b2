#pragma once
// The Passes panel: what each graph pass of the open simulated run did (PassesModel),
// sortable, with a Total row. Clicking a pass asks for the nodes it produced to be
// framed in the Graph tab (passSelected); double-click / Enter also goes there
// (passActivated).

#include "engine/result/simulation_result.h"

#include <QWidget>

#include <memory>

class QLabel;
class QTableView;

namespace npu::profiler {
class ProfileDb;
}

namespace npu::views {

class PassesModel;
class PassesSortProxy;

class PassesView : public QWidget {
    Q_OBJECT
public:
    explicit PassesView(QWidget* parent = nullptr);

    // Reads PASS_STATS of `db` (nothing for imported runs or none).
    void setDatabase(const std::shared_ptr<const profiler::ProfileDb>& db);
    void setPasses(std::vector<engine::PassRecord> passes, int graphLevel, int kernelsPerStep, const QString& graphScope = {});

    PassesModel* model() const { return m_model; }
    PassesSortProxy* proxy() const { return m_proxy; }  // what the table shows
    QTableView* table() const { return m_table; }
    QString headline() const;

signals:
    void passSelected(const QString& pass);
    void passActivated(const QString& pass);

private:
    QString passAt(const QModelIndex& proxyIndex) const;

    PassesModel* m_model;
    PassesSortProxy* m_proxy;
    QTableView* m_table;
    QLabel* m_headline;
};

}  // namespace npu::views
