#include "widgets/common/celltextdelegate.h"

#include <QApplication>
#include <QPainter>
#include <cmath>

namespace paretoscope::ui {

namespace {

bool plainText(const QStyleOptionViewItem& opt)
{
    return !(opt.features & (QStyleOptionViewItem::HasCheckIndicator | QStyleOptionViewItem::HasDecoration))
        && !opt.text.contains(QLatin1Char('\n'));
}

int textMargin(const QStyleOptionViewItem& opt)
{
    // QCommonStyle's margin around an item's text, so that widths match the style's own
    const QStyle* style = opt.widget ? opt.widget->style() : QApplication::style();
    return style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, opt.widget) + 1;
}

} // namespace

const QStaticText& CellTextDelegate::laidOut(const QString& text, const QFont& font) const
{
    if (m_texts.size() > 4096) // a long drag's numbers: keep the cache small
        m_texts.clear();
    const QString key = font.key() + QChar(0x1f) + text;
    auto it = m_texts.find(key);
    if (it == m_texts.end()) {
        QStaticText st(text);
        st.setTextFormat(Qt::PlainText);
        st.setPerformanceHint(QStaticText::AggressiveCaching);
        st.prepare(QTransform(), font);
        it = m_texts.insert(key, st);
    }
    return *it;
}

void CellTextDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    if (!plainText(opt)) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    const QString text = opt.text;
    opt.text.clear(); // the style draws the cell (background, selection, focus) without its text
    const QStyle* style = opt.widget ? opt.widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, opt.widget);
    if (text.isEmpty())
        return;
    const int margin = textMargin(opt);
    const QRect r = opt.rect.adjusted(margin, 0, -margin, 0);
    painter->save();
    painter->setFont(opt.font);
    const QPalette::ColorGroup group = opt.state & QStyle::State_Enabled ? QPalette::Normal : QPalette::Disabled;
    painter->setPen(
        opt.palette.color(group, opt.state & QStyle::State_Selected ? QPalette::HighlightedText : QPalette::Text));
    painter->setClipRect(opt.rect, Qt::IntersectClip);
    const QStaticText* st = &laidOut(text, opt.font);
    QStaticText elided;
    if (st->size().width() > r.width()) { // too narrow: elided as the style would (rare, so not kept)
        elided = QStaticText(QFontMetrics(opt.font).elidedText(text, opt.textElideMode, r.width()));
        elided.setTextFormat(Qt::PlainText);
        elided.prepare(QTransform(), opt.font);
        st = &elided;
    }
    // placed as the style places its text layout: a whole-pixel box aligned in the text rectangle
    const QSizeF size = st->size();
    const QRect box = QStyle::alignedRect(opt.direction, opt.displayAlignment,
        QSize(static_cast<int>(std::ceil(size.width())), static_cast<int>(std::ceil(size.height()))), r);
    const double x = (QStyle::visualAlignment(opt.direction, opt.displayAlignment) & Qt::AlignRight)
        ? box.right() + 1 - size.width()
        : box.left();
    painter->drawStaticText(QPointF(x, box.top()), *st);
    painter->restore();
}

QSize CellTextDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    if (!plainText(opt))
        return QStyledItemDelegate::sizeHint(option, index);
    const QSizeF text
        = opt.text.isEmpty() ? QSizeF(0, QFontMetricsF(opt.font).height()) : laidOut(opt.text, opt.font).size();
    return QSize(static_cast<int>(std::ceil(text.width())) + 2 * textMargin(opt),
        static_cast<int>(std::ceil(text.height())) + 2);
}

} // namespace paretoscope::ui
