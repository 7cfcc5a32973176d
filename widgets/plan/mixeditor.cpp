#include "widgets/plan/mixeditor.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <charconv>
#include <cmath>

#include "core/analysis/numberformat.h"
#include "core/analysis/typednumber.h"
#include "widgets/common/numberbox.h"
#include "widgets/common/theme.h"

namespace paretoscope::ui {

namespace {

enum Column { Isl, Osl, Share, Target, Columns };

} // namespace

MixEditor::MixEditor(QWidget* parent)
    : QWidget(parent)
    , m_table(new QTableWidget(0, Columns, this))
    , m_reason(new QLabel(this))
{
    m_table->setObjectName(QStringLiteral("mixParts"));
    m_table->setHorizontalHeaderLabels(
        { tr("Input tokens"), tr("Output tokens"), tr("Share of the demand, %"), tr("Target tok/s/user") });
    m_table->horizontalHeaderItem(Target)->setToolTip(tr("Empty: the readout's target"));
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->verticalHeader()->hide();
    m_reason->setObjectName(QStringLiteral("refusal"));
    m_reason->setStyleSheet(noteStyle(NoteKind::Error));
    m_reason->setTextFormat(Qt::PlainText);
    m_reason->setWordWrap(true);
    auto* add = new QPushButton(tr("Add part"), this);
    auto* remove = new QPushButton(tr("Remove part"), this);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(add);
    buttons->addWidget(remove);
    buttons->addWidget(m_reason, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_table, 1);
    layout->addLayout(buttons);
    // the header, three parts and the buttons in view: a shorter editor hides what it is for
    setMinimumHeight(m_table->horizontalHeader()->sizeHint().height()
        + 3 * m_table->verticalHeader()->defaultSectionSize() + add->sizeHint().height() + 16);
    addRow(1024, 1024, 70, QString());
    addRow(8192, 1024, 30, QString());
    connect(add, &QPushButton::clicked, this, [this] {
        if (m_table->rowCount() < int(kMaxMixParts))
            addRow(1024, 8192, 0, QString());
        check();
        emit changed();
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        const int row = m_table->currentRow() >= 0 ? m_table->currentRow() : m_table->rowCount() - 1;
        if (row >= 0 && m_table->rowCount() > 1)
            m_table->removeRow(row);
        check();
        emit changed();
    });
    connect(m_table, &QTableWidget::itemChanged, this, [this] {
        check();
        emit changed();
    });
    check();
}

void MixEditor::addRow(int isl, int osl, double sharePercent, const QString& target)
{
    const QSignalBlocker block(m_table);
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    const QLocale locale;
    m_table->setItem(row, Isl, new QTableWidgetItem(locale.toString(isl)));
    m_table->setItem(row, Osl, new QTableWidgetItem(locale.toString(osl)));
    // every digit a share has: a mix read back adds up to 100% as it did
    m_table->setItem(
        row, Share, new QTableWidgetItem(locale.toString(sharePercent, 'g', QLocale::FloatingPointShortest)));
    m_table->setItem(row, Target, new QTableWidgetItem(target));
    for (int c = 0; c < Columns; ++c)
        m_table->item(row, c)->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
}

QString MixEditor::specText() const
{
    QStringList parts;
    for (int row = 0; row < m_table->rowCount(); ++row) {
        auto cell = [&](int c) {
            const QTableWidgetItem* item = m_table->item(row, c);
            return item ? latinDigits(item->text()).toStdString() : std::string();
        };
        auto isl = parseTypedNumber(cell(Isl), localeNumberSyntax());
        auto osl = parseTypedNumber(cell(Osl), localeNumberSyntax());
        auto share = parseTypedNumber(cell(Share), localeNumberSyntax());
        if (!isl || !osl || !share)
            return {};
        // lengths as typed (a fraction is refused by the parser), the share as a fraction
        std::string part = exactNumber(*isl) + "/" + exactNumber(*osl) + ":" + exactNumber(*share / 100);
        if (!QString::fromStdString(cell(Target)).trimmed().isEmpty()) {
            auto target = parseTypedNumber(cell(Target), localeNumberSyntax());
            if (!target)
                return {};
            part += "@" + exactNumber(*target);
        }
        parts << QString::fromStdString(part);
    }
    return parts.join(QLatin1Char(','));
}

Result<std::vector<MixPart>> MixEditor::parts(const Scope& base) const
{
    for (int row = 0; row < m_table->rowCount(); ++row)
        for (int c = 0; c < Columns; ++c) {
            const QTableWidgetItem* item = m_table->item(row, c);
            const QString text = item ? item->text().trimmed() : QString();
            if (c == Target && text.isEmpty())
                continue;
            const std::string where = "part " + std::to_string(row + 1) + ", "
                + m_table->horizontalHeaderItem(c)->text().toLower().toStdString() + ": ";
            auto v = parseTypedNumber(latinDigits(text).toStdString(), localeNumberSyntax());
            if (!v)
                return Error { where + v.error() };
            if (c == Share && !(*v > 0 && *v <= 100)) // typed in %: said in %
                return Error { where + "a share is above 0% and at most 100% (not " + text.toStdString() + ")" };
        }
    double percent = 0;
    for (int row = 0; row < m_table->rowCount(); ++row)
        percent
            += *parseTypedNumber(latinDigits(m_table->item(row, Share)->text()).toStdString(), localeNumberSyntax());
    if (std::abs(percent - 100) > 1e-4)
        return Error { "the shares add up to " + QLocale().toString(percent, 'g', 6).toStdString() + "%, not 100%" };
    const QString spec = specText();
    auto parts = parseMixSpec(spec.toStdString(), base);
    if (!parts) // the shares are typed in %: say so in the message
        return Error { QString::fromStdString(parts.error())
                           .replace(QStringLiteral("--mix: "), QString())
                           .replace(QStringLiteral("--mix "), QString())
                           .toStdString() };
    return parts;
}

bool MixEditor::setSpecText(const QString& spec)
{
    auto parts = parseMixSpec(spec.toStdString(), Scope {});
    if (!parts)
        return false;
    {
        const QSignalBlocker block(m_table);
        m_table->setRowCount(0);
        for (const MixPart& p : *parts)
            // in %, without the last bit a product carries (0.7 x 100 is 70.00000000000001)
            addRow(*p.scope.isl, *p.scope.osl, std::round(p.share * 100 * 1e9) / 1e9,
                p.target ? QLocale().toString(*p.target, 'g', QLocale::FloatingPointShortest) : QString());
    }
    check();
    emit changed();
    return true;
}

QString MixEditor::refusal() const
{
    return m_reason->text();
}

void MixEditor::check()
{
    auto p = parts(Scope {});
    m_reason->setText(p ? QString() : QString::fromStdString(p.error()));
}

} // namespace paretoscope::ui
