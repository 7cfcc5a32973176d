#pragma once

#include <QAbstractTableModel>

#include "core/analysis/baseline.h"
#include "core/analysis/ladder.h"
#include "widgets/readout/readingcell.h"

namespace paretoscope::ui {

/// The readout at the slider's target: one row per hardware with tok/s/GPU, the engine and precision that serve it,
/// $ per million tokens, tokens per $, the ratio to the baseline hardware, the share of speed of light, and energy per
/// token (all-in provisioned, and measured GPU power where runs carry it). Qt::UserRole gives the raw number.
class ReadoutModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Hardware,
        TputPerGpu,
        Engine,
        Precision,
        CostPerMTok,
        TokensPerDollar,
        VsBaseline,
        SpeedOfLight,
        AllInJoulesPerToken, ///< all-in provisioned J/token (docs/architecture.md section 11.1)
        TokensPerMegawatt, ///< all-in provisioned tok/s per MW
        MeasuredJoulesPerToken, ///< measured GPU power J/token, where runs carry power
        Accuracy, ///< the accuracy of the reading's group (docs/evaluations.md), where the model has evaluations
        ColumnCount
    };
    using QAbstractTableModel::QAbstractTableModel;

    /// One ladder per hardware, each with the single row of the target.
    void setReadings(std::vector<HardwareLadder> readings, const std::string& baseline);
    const std::vector<HardwareLadder>& readings() const { return m_rows; }
    /// "B300 delivers 18.5x MI325X at 50 tok/s/user", or empty when there is nothing to compare.
    QString comparison(double target) const;
    /// "the tok/s/GPU here is one configuration's, not the frontier's: the frontier reads 1.1x (GB200) to 3.1x (H100)",
    /// or empty where the two readings agree everywhere (within 1%).
    QString readingsApart() const;
    /// Whether some reading has a measured J/token (the column is shown only then).
    bool anyMeasuredEnergy() const;
    /// Whether the readings carry accuracy (the model has evaluations).
    bool anyAccuracy() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// What an accuracy is compared with (docs/evaluations.md): the baseline's reading where it was evaluated, else
    /// the reading of the highest accuracy; null when no reading was evaluated.
    const LadderRow* accuracyReference() const;
    /// A reading's accuracy against the reference: "vs MI355X's 95.9% ± 0.5: -0.6 pts, within error"; empty when
    /// either was not evaluated or it is the reference.
    QString accuracyComparison(int r) const;
    /// Below the reference by more than the error (the intervals of two standard errors do not overlap).
    bool accuracyClearlyBelow(int r) const;

private:
    const LadderRow& row(int r) const { return m_rows[static_cast<std::size_t>(r)].rows.front(); }
    std::vector<HardwareLadder> m_rows;
    std::vector<std::vector<BaselineRatio>> m_ratios; // core's rule (baselineRatios), one per row of m_rows
    std::string m_baseline;
};

} // namespace paretoscope::ui
