#include "views/summary/summary_cards.h"

#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace npu::views {

namespace {
const QString kMissing = QStringLiteral("—");
}

SummaryCards::SummaryCards(QWidget* parent) : QWidget(parent) {
    m_layout = new QHBoxLayout(this);
    m_layout->setContentsMargins(0, 0, 0, 0);
    m_layout->setSpacing(8);
}

void SummaryCards::setCards(const std::vector<SummaryCard>& cards) {
    for (const Shown& s : m_cards) delete s.frame;
    m_cards.clear();
    for (const SummaryCard& c : cards) {
        auto* frame = new QFrame(this);
        frame->setFrameShape(QFrame::StyledPanel);
        frame->setAutoFillBackground(true);
        frame->setBackgroundRole(QPalette::Base);
        frame->setMinimumWidth(150);
        auto* title = new QLabel(c.title, frame);
        QFont small = title->font();
        small.setPointSizeF(small.pointSizeF() * 0.9);
        title->setFont(small);
        title->setForegroundRole(QPalette::PlaceholderText);
        title->setWordWrap(true);  // "Communication / computation" on a 1280 px card
        auto* value = new QLabel(c.value.isEmpty() ? kMissing : c.value, frame);
        QFont big = value->font();
        big.setPointSizeF(big.pointSizeF() * 1.4);
        big.setBold(true);
        value->setFont(big);
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        // Two figures (samples/s and tokens/s) are two lines, each whole ("tokens/ s" wrapped).
        value->setWordWrap(false);
        auto* scope = new QLabel(c.scope, frame);
        scope->setFont(small);
        scope->setForegroundRole(QPalette::PlaceholderText);
        scope->setWordWrap(true);
        frame->setToolTip(c.toolTip);
        auto* box = new QVBoxLayout(frame);
        box->setContentsMargins(10, 6, 10, 6);
        box->setSpacing(2);
        box->addWidget(title);
        box->addWidget(value);
        box->addWidget(scope);
        box->addStretch(1);
        m_layout->addWidget(frame, 1);
        m_cards.push_back({c.title, frame, value, scope});
    }
}

const SummaryCards::Shown* SummaryCards::find(const QString& title) const {
    for (const Shown& s : m_cards)
        if (s.title == title) return &s;
    return nullptr;
}

QString SummaryCards::valueOf(const QString& title) const {
    const Shown* s = find(title);
    return s ? s->value->text() : QString();
}

QString SummaryCards::scopeOf(const QString& title) const {
    const Shown* s = find(title);
    return s ? s->scope->text() : QString();
}

QString SummaryCards::toolTipOf(const QString& title) const {
    const Shown* s = find(title);
    return s ? s->frame->toolTip() : QString();
}

}  // namespace npu::views
