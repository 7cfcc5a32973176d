#include "widgets/common/numberbox.h"

#include <QEvent>
#include <QFontMetrics>
#include <QGridLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <algorithm>
#include <cmath>

#include "core/analysis/typednumber.h"
#include "widgets/common/theme.h"

namespace paretoscope::ui {

NumberSyntax localeNumberSyntax()
{
    const QLocale locale;
    NumberSyntax s;
    s.decimal = locale.decimalPoint().toStdString();
    s.group = locale.groupSeparator().toStdString();
    return s;
}

QString latinDigits(const QString& text)
{
    QString out = text;
    for (QChar& c : out)
        if (c.isDigit() && c.unicode() > 0x7f)
            c = QChar(u'0' + c.digitValue());
        else if (c == QChar(0x2212)) // a locale's minus sign
            c = QLatin1Char('-');
    return out;
}

NumberBox::NumberBox(QWidget* parent)
    : QWidget(parent)
    , m_edit(new QLineEdit(this))
    , m_prefix(new QLabel(this))
    , m_suffix(new QLabel(this))
    , m_reason(new QLabel(this))
{
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setHorizontalSpacing(2);
    grid->setVerticalSpacing(0);
    grid->addWidget(m_prefix, 0, 0);
    grid->addWidget(m_edit, 0, 1);
    grid->addWidget(m_suffix, 0, 2);
    grid->addWidget(m_reason, 0, 3);
    grid->setColumnStretch(1, 1);
    m_prefix->hide();
    m_suffix->hide();
    m_reason->hide();
    m_reason->setObjectName(QStringLiteral("refusal"));
    m_reason->setStyleSheet(noteStyle(NoteKind::Error));
    m_reason->setTextFormat(Qt::PlainText);
    m_edit->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    // as wide as the numbers it takes, not as wide as the row: fitWidth
    m_edit->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    m_edit->installEventFilter(this);
    setFocusProxy(m_edit);
    connect(m_edit, &QLineEdit::editingFinished, this, [this] {
        take();
        emit editingFinished();
    });
    show(m_value);
}

void NumberBox::setRange(double min, double max, bool minExclusive)
{
    m_min = min;
    m_max = max;
    m_minExclusive = minExclusive;
    if (m_value < min || m_value > max)
        setValue(std::clamp(m_value, min, max));
    fitWidth();
}

void NumberBox::fitWidth()
{
    // the largest number it takes (16 characters at most: a larger one scrolls), or the special text
    const QFontMetrics fm(m_edit->font());
    QString sample = textOf(m_max);
    if (sample.size() > 16)
        sample = sample.right(16);
    const int text = std::max(fm.horizontalAdvance(sample), fm.horizontalAdvance(m_special));
    const int width = text + fm.horizontalAdvance(QLatin1Char('0')) + 10; // the frame and the text margins
    m_edit->setMinimumWidth(width);
    m_edit->setMaximumWidth(width + 4 * fm.horizontalAdvance(QLatin1Char('0')));
}

void NumberBox::setDecimals(int decimals)
{
    m_decimals = decimals;
    if (m_refusal.isEmpty())
        show(m_value);
    fitWidth();
}

void NumberBox::setPrefix(const QString& prefix)
{
    m_prefix->setText(prefix);
    m_prefix->setVisible(!prefix.isEmpty());
}

void NumberBox::setSuffix(const QString& suffix)
{
    m_suffix->setText(suffix.trimmed());
    m_suffix->setVisible(!suffix.trimmed().isEmpty());
}

void NumberBox::setSpecialValueText(const QString& text)
{
    m_special = text;
    m_edit->setPlaceholderText(text);
    if (m_refusal.isEmpty())
        show(m_value);
    fitWidth();
}

void NumberBox::setReasonBelow(bool below)
{
    auto* grid = static_cast<QGridLayout*>(layout());
    grid->removeWidget(m_reason);
    if (below) {
        grid->addWidget(m_reason, 1, 0, 1, 3);
        m_reason->setWordWrap(true);
    } else {
        grid->addWidget(m_reason, 0, 3);
        m_reason->setWordWrap(false);
    }
}

void NumberBox::setToolTip(const QString& tip)
{
    m_toolTip = tip;
    QWidget::setToolTip(tip);
    m_edit->setToolTip(tip);
}

void NumberBox::setValue(double value)
{
    value = std::clamp(value, m_min, m_max);
    const bool changed = value != m_value;
    m_value = value;
    m_refusal.clear();
    m_reason->clear();
    m_reason->hide();
    m_edit->setToolTip(m_toolTip);
    show(value);
    if (changed)
        emit valueChanged(value);
}

QString NumberBox::textOf(double value) const
{
    if (!m_special.isEmpty() && value == m_min)
        return QString();
    const QLocale locale;
    // as many decimals as the value needs, up to the box's
    QString text = locale.toString(value, 'f', m_decimals);
    if (m_decimals > 0 && text.contains(locale.decimalPoint())) {
        while (text.endsWith(QLatin1Char('0')))
            text.chop(1);
        if (text.endsWith(locale.decimalPoint()))
            text.chop(locale.decimalPoint().size());
    }
    return text;
}

void NumberBox::show(double value)
{
    m_edit->setText(textOf(value));
}

void NumberBox::take()
{
    const QString text = m_edit->text();
    const QString trimmed = text.trimmed();
    // the value as the box shows it, untouched: it stays what it is (the box may show fewer decimals than it holds)
    if (text == textOf(m_value)) {
        if (!m_refusal.isEmpty())
            setValue(m_value);
        return;
    }
    if (!m_special.isEmpty() && (trimmed.isEmpty() || trimmed.compare(m_special, Qt::CaseInsensitive) == 0)) {
        setValue(m_min);
        return;
    }
    auto v = checkTypedNumber(latinDigits(text).toStdString(), { m_min, m_max, m_minExclusive }, localeNumberSyntax());
    if (!v) {
        // the text stays as typed, the value as it was: say so beside the box
        m_refusal = QString::fromStdString(v.error());
        const QString still = m_special.isEmpty() || m_value != m_min ? textOf(m_value) : m_special;
        m_reason->setText(tr("%1 (still %2%3)").arg(m_refusal, m_prefix->text(), still));
        m_reason->show();
        m_edit->setToolTip(m_reason->text());
        return;
    }
    const double before = m_value;
    setValue(*v);
    if (*v == before) // the same value written another way: shown as the box writes it
        show(*v);
}

void NumberBox::step(int steps)
{
    const double base = m_value;
    double next = std::clamp(base + steps * m_step, m_min, m_max);
    if (m_minExclusive && next <= m_min)
        next = base;
    setValue(next);
}

bool NumberBox::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_edit && event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent*>(event)->key();
        if (key == Qt::Key_Up || key == Qt::Key_Down) {
            step(key == Qt::Key_Up ? 1 : -1);
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace paretoscope::ui
