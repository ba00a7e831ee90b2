#include "views/timeline/timeline_search_bar.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QTimer>
#include <QToolButton>

namespace npu::views {

TimelineSearchBar::TimelineSearchBar(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    m_edit = new QLineEdit(this);
    m_edit->setPlaceholderText(tr("Find slices by name (case-insensitive)"));
    m_edit->setClearButtonEnabled(true);
    m_edit->installEventFilter(this);
    m_count = new QLabel(this);
    m_count->setMinimumWidth(90);
    auto* prev = new QToolButton(this);
    prev->setText(tr("Previous"));
    prev->setToolTip(tr("Previous match (Shift+Enter)"));
    auto* next = new QToolButton(this);
    next->setText(tr("Next"));
    next->setToolTip(tr("Next match (Enter)"));
    auto* close = new QToolButton(this);
    close->setText(tr("Close"));
    close->setToolTip(tr("Close (Esc)"));
    layout->addWidget(new QLabel(tr("Find:"), this));
    layout->addWidget(m_edit, 1);
    layout->addWidget(m_count);
    layout->addWidget(prev);
    layout->addWidget(next);
    layout->addWidget(close);

    // Typing into a million-slice trace should not search on every keystroke.
    m_debounce = new QTimer(this);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(150);
    connect(m_edit, &QLineEdit::textChanged, m_debounce, qOverload<>(&QTimer::start));
    connect(m_debounce, &QTimer::timeout, this, [this] { emit queryChanged(m_edit->text()); });
    connect(prev, &QToolButton::clicked, this, &TimelineSearchBar::previousRequested);
    connect(next, &QToolButton::clicked, this, &TimelineSearchBar::nextRequested);
    connect(close, &QToolButton::clicked, this, &TimelineSearchBar::closeRequested);
}

QString TimelineSearchBar::query() const { return m_edit->text(); }

void TimelineSearchBar::setQuery(const QString& text)
{
    m_edit->setText(text);
    m_debounce->stop();
    emit queryChanged(text);
}

void TimelineSearchBar::focusQuery()
{
    m_edit->setFocus(Qt::ShortcutFocusReason);
    m_edit->selectAll();
}

void TimelineSearchBar::setMatchInfo(int current, int total)
{
    if (m_edit->text().trimmed().isEmpty())
        m_count->clear();
    else if (total == 0)
        m_count->setText(tr("no matches"));
    else if (current < 0)
        m_count->setText(tr("%n match(es)", nullptr, total));
    else
        m_count->setText(tr("%1 / %2").arg(current + 1).arg(total));
}

bool TimelineSearchBar::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_edit && event->type() == QEvent::KeyPress) {
        auto* key = static_cast<QKeyEvent*>(event);
        if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
            // A pending debounced query runs first so Enter acts on what was typed.
            if (m_debounce->isActive()) {
                m_debounce->stop();
                emit queryChanged(m_edit->text());
            }
            if (key->modifiers() & Qt::ShiftModifier)
                emit previousRequested();
            else
                emit nextRequested();
            return true;
        }
        if (key->key() == Qt::Key_Escape) {
            emit closeRequested();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

}  // namespace npu::views
