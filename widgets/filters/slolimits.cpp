#include "widgets/filters/slolimits.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>

namespace paretoscope::ui {

namespace {

// A value is taken when it is entered or stepped, not at each key: every change reloads the scope.
NumberBox* limitBox(int decimals, double step, double max, QWidget* parent)
{
    auto* box = new NumberBox(parent);
    box->setDecimals(decimals);
    box->setRange(0, max);
    box->setSingleStep(step);
    box->setSuffix(QObject::tr("s"));
    box->setSpecialValueText(QObject::tr("no limit")); // an empty box, 0
    box->setReasonBelow(true); // the filter column is narrow
    return box;
}

std::optional<double> limitOf(const NumberBox* box)
{
    return box->value() > 0 ? std::optional<double>(box->value()) : std::nullopt;
}

} // namespace

SloLimits::SloLimits(QWidget* parent)
    : QWidget(parent)
    , m_ttft(limitBox(2, 0.1, 600, this))
    , m_stat(new QComboBox(this))
    , m_tpot(limitBox(4, 0.001, 10, this))
{
    m_ttft->setObjectName(QStringLiteral("filterTtft"));
    m_tpot->setObjectName(QStringLiteral("filterTpot"));
    m_stat->addItem(tr("median TTFT"), int(LatencyStat::Median));
    m_stat->addItem(tr("p99 TTFT"), int(LatencyStat::P99));
    m_ttft->setToolTip(tr("Only runs whose time to first token (the median, or the p99) is at or below this count in "
                          "frontiers, readings and the summary; a run without that statistic does not meet it"));
    m_stat->setToolTip(m_ttft->toolTip());
    m_tpot->setToolTip(tr("Only runs whose median time per output token is at or below this count (1 / interactivity "
                          "where a run gives only that); 0: no limit"));
    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    // one box a row: the filter column is narrow
    form->addRow(tr("TTFT ≤"), m_ttft);
    form->addRow(tr("of the"), m_stat);
    form->addRow(tr("TPOT ≤"), m_tpot);
    connect(m_ttft, &NumberBox::valueChanged, this, &SloLimits::changed);
    connect(m_tpot, &NumberBox::valueChanged, this, &SloLimits::changed);
    connect(m_stat, &QComboBox::currentIndexChanged, this, [this] {
        if (m_ttft->value() > 0) // the statistic alone changes nothing while there is no TTFT limit
            emit changed();
    });
}

void SloLimits::applyTo(Scope& scope) const
{
    scope.ttftMax = limitOf(m_ttft);
    scope.ttftStat = scope.ttftMax ? static_cast<LatencyStat>(m_stat->currentData().toInt()) : LatencyStat::Median;
    scope.tpotMax = limitOf(m_tpot);
}

void SloLimits::setFrom(const Scope& scope)
{
    const QSignalBlocker b1(m_ttft), b2(m_stat), b3(m_tpot);
    m_ttft->setValue(scope.ttftMax.value_or(0));
    m_stat->setCurrentIndex(m_stat->findData(int(scope.ttftStat)));
    m_tpot->setValue(scope.tpotMax.value_or(0));
}

void SloLimits::clear()
{
    setFrom(Scope {});
}

} // namespace paretoscope::ui
