#pragma once

#include <QWidget>
#include <memory>

#include "core/analysis/chartdata.h"

class QLabel;
class QTableWidget;

namespace paretoscope::ui {

/// The precision trade-off at the readout's target and price (docs/evaluations.md; `paretoscope-cli precision`): per
/// hardware each precision's best reading with its $ per million tokens and the accuracy of the group read, and FP4
/// against FP8 (tok/s/GPU and $ ratios, the accuracy difference with its error, "within error" where the intervals
/// overlap). Read on every group of the scope, the accuracy required or not: it is what the choice costs.
class PrecisionPanel : public QWidget {
    Q_OBJECT
public:
    explicit PrecisionPanel(const PricingCatalog& pricing, QWidget* parent = nullptr);
    void setData(std::shared_ptr<const ScopeData> data);
    void setTarget(double target);
    void setPrice(const PriceChoice& price);
    QTableWidget* table() const { return m_table; }
    QString heading() const;

private:
    void refresh();
    const PricingCatalog& m_pricing;
    std::shared_ptr<const ScopeData> m_data;
    double m_target = 50;
    PriceChoice m_price;
    QLabel* m_heading;
    QTableWidget* m_table;
};

} // namespace paretoscope::ui
