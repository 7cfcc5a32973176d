#pragma once

#include <QHash>
#include <QStaticText>
#include <QStyledItemDelegate>

namespace paretoscope::ui {

/// Paints a table's plain text cells from laid-out text kept between paints (QStaticText), instead of laying out and
/// shaping each cell's text again on every paint as the style does: the readout repaints every cell on each slider
/// step, and most of them (hardware, engine, precision) read the same as the step before. Background, alternate
/// rows, selection, focus, the cell's colour, font, alignment and eliding are the style's and the model's as usual;
/// a cell with a check box or an icon is painted by the base class.
class CellTextDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

private:
    const QStaticText& laidOut(const QString& text, const QFont& font) const;
    mutable QHash<QString, QStaticText> m_texts; // by font and text
};

} // namespace paretoscope::ui
