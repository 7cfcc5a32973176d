#pragma once

#include <QString>
#include <QWidget>

#include "core/analysis/typednumber.h"

class QLabel;
class QLineEdit;

namespace paretoscope::ui {

/// The locale's decimal mark and thousands separator, as core's number parser takes them.
NumberSyntax localeNumberSyntax();
/// Text as core's number parser reads it: a locale's own digits (Arabic-Indic, Bengali ...) as ASCII digits.
QString latinDigits(const QString& text);

/// A number box that takes a number as a person types it (core's checkTypedNumber, in the locale's syntax: 2e6,
/// 2,000,000) and changes nothing it does not take: refused text stays as typed, the value stays the last one taken,
/// and the reason shows beside the box (docs/architecture.md section 12.11). A value is taken when editing ends (Enter,
/// or the focus leaving); the arrow keys step it.
class NumberBox : public QWidget {
    Q_OBJECT
public:
    explicit NumberBox(QWidget* parent = nullptr);

    /// [min, max]; min itself left out with minExclusive.
    void setRange(double min, double max, bool minExclusive = false);
    double minimum() const { return m_min; }
    double maximum() const { return m_max; }
    bool minimumExcluded() const { return m_minExclusive; }
    /// Decimals the value is shown with (typed text may have more: the value keeps them).
    void setDecimals(int decimals);
    void setSingleStep(double step) { m_step = step; }
    void setPrefix(const QString& prefix);
    void setSuffix(const QString& suffix);
    /// Text shown for the minimum (a limit's "no limit"); an empty box, or this text, reads as the minimum.
    void setSpecialValueText(const QString& text);
    /// Shows the value (clamped to the range) and clears any refusal; emits valueChanged when it changes.
    void setValue(double value);
    double value() const { return m_value; }
    /// Why the text in the box was refused; empty when it was taken.
    QString refusal() const { return m_refusal; }
    QLineEdit* lineEdit() const { return m_edit; }
    QLabel* reasonLabel() const { return m_reason; }
    /// The reason under the box rather than beside it (a narrow column).
    void setReasonBelow(bool below);
    void setToolTip(const QString& tip);

signals:
    void valueChanged(double value);
    /// Editing ended: taken or refused.
    void editingFinished();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void take();
    void step(int steps);
    void show(double value);
    QString textOf(double value) const;
    void fitWidth();

    QLineEdit* m_edit;
    QLabel* m_prefix;
    QLabel* m_suffix;
    QLabel* m_reason;
    double m_min = 0, m_max = 99, m_value = 0, m_step = 1;
    bool m_minExclusive = false;
    int m_decimals = 2;
    QString m_special, m_refusal, m_toolTip;
};

} // namespace paretoscope::ui
