#pragma once
// The timeline's find bar (Ctrl+F): a query field, previous/next, the match count.
// Enter goes to the next match, Shift+Enter to the previous, Escape closes.

#include <QWidget>

class QLabel;
class QLineEdit;
class QTimer;

namespace npu::views {

class TimelineSearchBar : public QWidget {
    Q_OBJECT
public:
    explicit TimelineSearchBar(QWidget* parent = nullptr);

    QString query() const;
    void setQuery(const QString& text);
    void focusQuery();
    // current is 0-based, -1 when no match is current yet.
    void setMatchInfo(int current, int total);

signals:
    void queryChanged(const QString& text);  // debounced while typing
    void nextRequested();
    void previousRequested();
    void closeRequested();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QLineEdit* m_edit = nullptr;
    QLabel* m_count = nullptr;
    QTimer* m_debounce = nullptr;
};

}  // namespace npu::views
