#pragma once
// The Summary's headline cards (after MindStudio Insight's overview): one figure each, big,
// with its title above and its scope under it ("all ranks", "busiest rank", "one device").
// A figure the run cannot give shows "—", and its tooltip says why: never a blank.

#include <QString>
#include <QWidget>

#include <vector>

class QHBoxLayout;
class QLabel;

namespace npu::views {

struct SummaryCard {
    QString title;    // "Step time"
    QString value;    // "2.38 s"; empty: missing, shown as "—"
    QString scope;    // "all ranks"
    QString toolTip;  // what the figure is; for a missing one, why it is missing
};

class SummaryCards : public QWidget {
    Q_OBJECT
public:
    explicit SummaryCards(QWidget* parent = nullptr);
    void setCards(const std::vector<SummaryCard>& cards);

    // What is shown, for tests: the card titled `title`'s value ("—" when missing),
    // scope line and tooltip; empty when there is no such card.
    QString valueOf(const QString& title) const;
    QString scopeOf(const QString& title) const;
    QString toolTipOf(const QString& title) const;
    int count() const { return int(m_cards.size()); }

private:
    struct Shown {
        QString title;
        QWidget* frame;
        QLabel* value;
        QLabel* scope;
    };
    const Shown* find(const QString& title) const;
    QHBoxLayout* m_layout;
    std::vector<Shown> m_cards;
};

}  // namespace npu::views
