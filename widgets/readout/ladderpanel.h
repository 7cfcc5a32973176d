#pragma once

#include <QWidget>
#include <memory>

#include "core/analysis/chartdata.h"
#include "widgets/readout/laddermodel.h"

class QLineEdit;
class QLabel;
class QTableView;

namespace paretoscope::ui {

/// The seed page's ladder: editable targets (30, 50, 75, 100, 150, 200 by default), per hardware, with a cost column
/// per shipped tier (and the custom price when one is set).
class LadderPanel : public QWidget {
    Q_OBJECT
public:
    explicit LadderPanel(const PricingCatalog& pricing, QWidget* parent = nullptr);
    void setData(std::shared_ptr<const ScopeData> data);
    void setCustomPrice(std::optional<double> usdPerGpuHour);
    /// Leaves out readings across wide gaps between measured points, as the readout does.
    void setHideSparse(bool hide);
    /// Which reading the cost uses, as the readout's "Reading" box says.
    void setReading(Reading reading);
    std::vector<double> targets() const { return m_targets; }
    void setTargets(const std::vector<double>& targets);
    LadderModel* model() const { return m_model; }
    /// The ladder at the targets under one price, as core computes it (for the CSV export).
    Result<std::vector<HardwareLadder>> ladder(const PriceChoice& price) const;

signals:
    /// The targets were edited or set.
    void targetsChanged(const std::vector<double>& targets);

protected:
    void showEvent(QShowEvent* event) override;

private:
    void refresh();
    /// Sizes the columns to their contents once per change of the ladder, a turn after it and only while shown: in
    /// ResizeToContents every resize of the table measured every cell again (8 ms on a 16-group scope, twice at start).
    void fitColumnsLater();
    const PricingCatalog& m_pricing;
    std::shared_ptr<const ScopeData> m_data;
    std::vector<double> m_targets = defaultTargets();
    std::optional<double> m_custom;
    bool m_hideSparse = false;
    Reading m_reading = Reading::Deployable;
    bool m_fitPending = false;
    QLineEdit* m_edit;
    QLabel* m_error;
    QTableView* m_table;
    LadderModel* m_model;
};

} // namespace paretoscope::ui
