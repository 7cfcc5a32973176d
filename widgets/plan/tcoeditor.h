#pragma once

#include <QTableWidget>

#include "core/analysis/tco.h"

namespace paretoscope::ui {

/// A TCO model's parts per hardware, editable: capital per GPU, amortisation years, power basis and kW per GPU,
/// electricity price, PUE and other operating cost; the effective $/GPU/hr and its capital, energy and other parts
/// (core's tcoCost) are shown beside them and follow each edit. Values that core would refuse (negative, years not
/// above zero) are not taken: the cell goes back and the status line under the panel says why.
class TcoEditor : public QTableWidget {
    Q_OBJECT
public:
    enum Column {
        Hardware,
        Capex,
        Years,
        Basis,
        Kw,
        UsdPerKwh,
        Pue,
        Other,
        Effective,
        CapitalPart,
        EnergyPart,
        ColumnCount
    };
    explicit TcoEditor(QWidget* parent = nullptr);

    void setTcoModel(TcoModel model);
    const TcoModel& tcoModel() const { return m_model; }
    /// Edited since setTcoModel or markSaved.
    bool edited() const { return m_edited; }
    void markSaved() { m_edited = false; }
    /// The runs' measured GPU power per hardware (for the "measured" basis), shown in the effective price.
    void setMeasuredPower(std::map<std::string, double> watts);

signals:
    /// A part changed: the plan is priced again.
    void modelEdited();
    /// An edit was refused, with why.
    void refused(const QString& why);

private:
    void fill();
    void fillEffective(int row);
    void cellEdited(int row, int column);
    TcoEntry* entryAt(int row);

    TcoModel m_model;
    std::map<std::string, double> m_measured;
    bool m_edited = false;
    bool m_filling = false;
};

} // namespace paretoscope::ui
