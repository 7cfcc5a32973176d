#pragma once

#include <array>
#include <map>
#include <string>

#include <QWidget>
#include <memory>
#include <optional>
#include <utility>

#include "core/analysis/chartdata.h"
#include "widgets/common/numberbox.h"
#include "widgets/readout/readoutmodel.h"

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QSlider;
class QTableView;

namespace paretoscope::ui {

/// The interactivity slider (log scale over the data's range, with a box to type a value), the pricing tier with a
/// custom $/GPU/hr, the token metric and the baseline hardware; below them, per hardware, what core reads at the
/// target. Updates while the slider is dragged.
class ReadoutPanel : public QWidget {
    Q_OBJECT
public:
    explicit ReadoutPanel(const PricingCatalog& pricing, QWidget* parent = nullptr);

    void setData(std::shared_ptr<const ScopeData> data);
    double target() const { return m_target; }
    void setTarget(double target);
    PriceChoice price() const;
    /// Tier key, or empty for the custom price.
    void setPrice(const QString& tierKey, double customUsd);
    TputMetric tputMetric() const;
    void setMetric(TputMetric metric);
    QString baseline() const;
    void setBaseline(const QString& hardware);
    /// Whether a baseline (or none) was chosen, rather than the default (the last hardware of a scope).
    bool baselineChosen() const { return m_baselineChosen; }
    /// The choice kept from the last session (readout/baseline): the first scope shown takes it, "(none)" included.
    void restoreBaseline(const QString& hardware);
    /// Whether readings across wide gaps between measured points (LadderEntry::sparse) are left out.
    /// The width that shows every column of the table without scrolling.
    int neededWidth(bool withRatio = true) const;
    /// The height that shows the controls and rows hardware without scrolling.
    int neededHeight(int rows) const;
    /// What the all-in J/token column adds where there is room for it (it never counts in neededWidth).
    int energyWidth() const;
    /// The custom $/GPU/hr in its box, whether or not the custom tier is chosen.
    double customPrice() const;

protected:
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    using ColumnWidths = std::array<int, ReadoutModel::ColumnCount>;
    /// Which columns show and how wide, from one measurement of their content. While the slider moves (growOnly) the
    /// panel's minimum width only grows: a reading a digit shorter does not lay the whole window out again.
    void fitColumns(bool growOnly = false);
    /// The most the panel keeps as its minimum width for its columns.
    int widestMinimum() const;
    /// Widens the panel in its splitter to width, taking the room from the widest panel beside it (the chart).
    void growInSplitter(int width);
    /// Sets the shown columns to the widths measured.
    void resizeSections(const ColumnWidths& need);
    /// Hides or shows the energy columns where there is room, from the widths measured.
    void fitEnergyColumns(const ColumnWidths& need);
    /// A column's content width (its widest cell or its header, as resizeColumnsToContents gives it), shown or not.
    int columnWidth(int column) const;
    /// Every column's, at once: measured again after the readings change (refresh) or the font does, else the last
    /// measurement (a resize or the slider let go reads the same cells).
    ColumnWidths measureColumns() const;
    /// neededWidth without and with the ratio column, from the widths measured.
    std::pair<int, int> neededWidths(const ColumnWidths& need) const;

public:
    bool hideSparse() const;
    void setHideSparse(bool hide);
    /// Which reading the cost, the ratios and the order use: one configuration's (the default) or the frontier's.
    Reading reading() const;
    void setReading(Reading reading);
    ReadoutModel* model() const { return m_model; }
    QSlider* slider() const { return m_slider; }
    QString comparison() const;

signals:
    void targetChanged(double target);
    void priceChanged();
    void metricChanged();
    /// Readings across wide gaps are now left out, or shown again.
    void hideSparseChanged(bool hide);
    /// The reading chosen changed (the "Reading" box).
    void readingChanged(Reading reading);

private:
    /// The form of controls, the table and the note under it, set up and laid out (from the constructor).
    void buildLayout();
    void connectSignals();
    /// The readings at the target; a slider step (sliderStep) never narrows the panel (fitColumns).
    void refresh(bool sliderStep = false);
    /// The sentence's and the panel's minimum heights for the text and rows shown, at the width it has.
    void fitHeights(bool sliderStep);
    void sliderMoved(int position);
    int positionOf(double target) const;
    const PricingCatalog& m_pricing;
    std::shared_ptr<const ScopeData> m_data;
    mutable std::optional<ColumnWidths> m_measured; // measureColumns' last, until the cells or the font change
    double m_target = 50;
    bool m_baselineChosen = false; // once the user picks a baseline (or none), a new scope keeps it
    std::optional<QString> m_restoredBaseline; // the last session's choice, for the first scope shown
    /// The scope shown as a key of m_baselineByScope (model, lengths, workload).
    std::string baselineKey() const;
    std::map<std::string, QString> m_baselineByScope; // the baseline last chosen on each scope, kept while it runs
    double m_lo = 1, m_hi = 1000; // the slider's range, tok/s/user
    QSlider* m_slider;
    NumberBox* m_value;
    QComboBox* m_tier;
    NumberBox* m_custom;
    QComboBox* m_metric;
    QComboBox* m_baseline;
    QCheckBox* m_hideSparse;
    QComboBox* m_reading;
    QTableView* m_table;
    QFormLayout* m_form = nullptr;
    QLabel* m_comparison;
    ReadoutModel* m_model;
};

} // namespace paretoscope::ui
