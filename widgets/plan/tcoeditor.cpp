#include "widgets/plan/tcoeditor.h"

#include <QComboBox>
#include <QHeaderView>
#include <cmath>

#include "widgets/common/displaynames.h"

namespace paretoscope::ui {

namespace {

QTableWidgetItem* numberItem(double v, int decimals)
{
    auto* item = new QTableWidgetItem(QString::number(v, 'f', decimals));
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

QTableWidgetItem* readOnly(const QString& text)
{
    auto* item = new QTableWidgetItem(text);
    item->setFlags(item->flags() & ~Qt::ItemIsEditable);
    return item;
}

} // namespace

TcoEditor::TcoEditor(QWidget* parent)
    : QTableWidget(parent)
{
    setColumnCount(ColumnCount);
    setHorizontalHeaderLabels({ tr("Hardware"), tr("Capital $/GPU"), tr("Years"), tr("Power basis"), tr("kW/GPU"),
        tr("$/kWh"), tr("PUE"), tr("Other $/GPU-hr"), tr("= $/GPU-hr"), tr("capital"), tr("energy") });
    horizontalHeaderItem(Effective)->setToolTip(tr("The effective price: capital + energy + other, $ per GPU-hour"));
    verticalHeader()->hide();
    setWordWrap(false);
    setMinimumHeight(60);
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    connect(this, &QTableWidget::cellChanged, this, &TcoEditor::cellEdited);
}

void TcoEditor::setTcoModel(TcoModel model)
{
    m_model = std::move(model);
    m_edited = false;
    fill();
}

void TcoEditor::setMeasuredPower(std::map<std::string, double> watts)
{
    m_measured = std::move(watts);
    for (int r = 0; r < rowCount(); ++r)
        fillEffective(r);
}

TcoEntry* TcoEditor::entryAt(int row)
{
    if (row < 0 || row >= rowCount())
        return nullptr;
    auto it = m_model.byHardware.find(item(row, Hardware)->data(Qt::UserRole).toString().toStdString());
    return it == m_model.byHardware.end() ? nullptr : &it->second;
}

void TcoEditor::fill()
{
    m_filling = true;
    setRowCount(int(m_model.byHardware.size()));
    int row = 0;
    for (const auto& [hw, e] : m_model.byHardware) {
        QTableWidgetItem* name = readOnly(hardwareName(hw));
        name->setData(Qt::UserRole, QString::fromStdString(hw));
        setItem(row, Hardware, name);
        setItem(row, Capex, numberItem(e.capexPerGpuUsd, 0));
        setItem(row, Years, numberItem(e.amortizationYears, 1));
        auto* basis = new QComboBox;
        basis->addItem(tr("all-in"), int(PowerBasis::AllIn));
        basis->addItem(tr("IT"), int(PowerBasis::It));
        basis->addItem(tr("measured"), int(PowerBasis::Measured));
        basis->addItem(tr("TDP"), int(PowerBasis::Tdp));
        basis->setToolTip(
            tr("all-in: provisioned power with the facility (no PUE); IT, measured or TDP: times the PUE"));
        basis->setCurrentIndex(basis->findData(int(e.powerBasis)));
        connect(basis, &QComboBox::currentIndexChanged, this, [this, basis, hw = hw] {
            auto it = m_model.byHardware.find(hw);
            if (it == m_model.byHardware.end())
                return;
            it->second.powerBasis = PowerBasis(basis->currentData().toInt());
            // a given power belongs to the all-in and IT bases; measured and TDP take theirs from elsewhere
            const bool given = it->second.powerBasis == PowerBasis::AllIn || it->second.powerBasis == PowerBasis::It;
            if (given && !it->second.powerKw)
                it->second.powerKw = 1.0;
            if (!given)
                it->second.powerKw.reset();
            m_edited = true;
            // the kW cell only: refilling the table would delete this combo box while it signals
            for (int r = 0; r < rowCount(); ++r) {
                if (item(r, Hardware)->data(Qt::UserRole).toString().toStdString() != hw)
                    continue;
                m_filling = true;
                setItem(r, Kw, given ? numberItem(*it->second.powerKw, 2) : readOnly(tr("from the runs or TDP")));
                m_filling = false;
                fillEffective(r);
            }
            emit modelEdited();
        });
        setCellWidget(row, Basis, basis);
        const bool given = e.powerKw.has_value();
        QTableWidgetItem* kw = given ? numberItem(*e.powerKw, 2) : readOnly(tr("from the runs or TDP"));
        setItem(row, Kw, kw);
        setItem(row, UsdPerKwh, numberItem(e.electricityUsdPerKwh, 3));
        setItem(row, Pue, numberItem(e.pue, 2));
        setItem(row, Other, numberItem(e.otherOpexUsdPerGpuHour, 3));
        for (int c : { int(Effective), int(CapitalPart), int(EnergyPart) })
            setItem(row, c, readOnly(QString()));
        ++row;
    }
    for (int r = 0; r < rowCount(); ++r)
        fillEffective(r);
    m_filling = false;
}

void TcoEditor::fillEffective(int row)
{
    TcoEntry* e = entryAt(row);
    if (!e)
        return;
    const bool was = m_filling;
    m_filling = true;
    const auto watts = m_measured.find(e->hardware);
    auto cost = tcoCost(*e, bundledHardwarePower().find(e->hardware),
        watts == m_measured.end() ? std::nullopt : std::optional<double>(watts->second));
    QTableWidgetItem* cell = item(row, Effective);
    if (cost) {
        cell->setText(QStringLiteral("$") + QString::number(cost->usdPerGpuHour, 'f', 3));
        item(row, CapitalPart)->setText(QString::number(cost->capital, 'f', 3));
        item(row, EnergyPart)->setText(QString::number(cost->energy, 'f', 3));
        cell->setToolTip(
            plainToolTip(tr("capital %1 + energy %2 + other %3, $ per GPU-hour")
                             .arg(QString::number(cost->capital, 'f', 3), QString::number(cost->energy, 'f', 3),
                                 QString::number(cost->other, 'f', 3))
                + (cost->note.empty() ? QString() : QStringLiteral("\n") + QString::fromStdString(cost->note))));
    } else {
        cell->setText(tr("cannot be priced"));
        cell->setToolTip(plainToolTip(QString::fromStdString(cost.error())));
        item(row, CapitalPart)->setText(QString());
        item(row, EnergyPart)->setText(QString());
    }
    for (int c : { int(Effective), int(CapitalPart), int(EnergyPart) })
        item(row, c)->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_filling = was;
}

void TcoEditor::cellEdited(int row, int column)
{
    if (m_filling)
        return;
    TcoEntry* e = entryAt(row);
    if (!e)
        return;
    bool ok = false;
    const double v = item(row, column)->text().toDouble(&ok);
    double* field = nullptr;
    double minimum = 0;
    bool strictly = false;
    switch (column) {
    case Capex:
        field = &e->capexPerGpuUsd;
        break;
    case Years:
        field = &e->amortizationYears;
        strictly = true;
        break;
    case Kw:
        if (e->powerKw)
            field = &*e->powerKw;
        strictly = true;
        break;
    case UsdPerKwh:
        field = &e->electricityUsdPerKwh;
        break;
    case Pue:
        field = &e->pue;
        minimum = 1;
        break;
    case Other:
        field = &e->otherOpexUsdPerGpuHour;
        break;
    default:
        return;
    }
    if (!field)
        return;
    const QString header = horizontalHeaderItem(column)->text();
    if (!ok || !std::isfinite(v) || v < minimum || (strictly && v <= minimum)) {
        emit refused(tr("%1 of %2: %3 is not taken (it must be a number %4 %5)")
                         .arg(header, hardwareName(e->hardware), item(row, column)->text(),
                             strictly ? QStringLiteral(">") : QStringLiteral("≥"), QString::number(minimum)));
        m_filling = true;
        item(row, column)->setText(QString::number(*field, 'f', column == Capex ? 0 : 3));
        m_filling = false;
        return;
    }
    *field = v;
    m_edited = true;
    fillEffective(row);
    emit modelEdited();
}

} // namespace paretoscope::ui
