#pragma once

#include <QObject>
#include <memory>

#include "core/analysis/chartdata.h"
#include "core/analysis/summary.h"

namespace paretoscope::ui {

class StoreWorker;

/// What one scope request gives: the scope's frontiers and runs, and what the summary says of each hardware whatever
/// the target and price (the summary itself follows the readout: summaryAt).
struct LoadedScope {
    ScopeData data;
    std::vector<HardwareSummary> summaryFacts;
    /// Every run of the scope in memory, whatever its as-of date: stepping through run dates (the as-of slider, Play)
    /// rebuilds the frontiers from it without the store.
    std::shared_ptr<const ScopeTimeline> timeline;
    /// The chart's points for the view asked for with the scope (thinning tens of thousands of runs is no work for
    /// the GUI thread); null when none was asked for.
    std::shared_ptr<const ChartData> chart;
    ChartRequest chartRequest;
};

/// Loads scopes on the store worker. The latest request wins: answers to older requests are dropped, so a quick
/// series of filter changes only draws the last one.
class ScopeLoader : public QObject {
    Q_OBJECT
public:
    explicit ScopeLoader(StoreWorker& worker, QObject* parent = nullptr);
    /// Starts loading; loaded() follows with the answer unless a newer request comes first. With a chart request, the
    /// chart's points for that view are worked out on the worker too. With an accuracy requirement, the groups that
    /// fail it are left out of the data (requireAccuracy) before the summary and the chart are worked out.
    void request(const Scope& scope, TputMetric metric, const std::optional<ChartRequest>& chart = std::nullopt,
        const std::optional<AccuracyRequirement>& accuracy = std::nullopt, const std::string& accuracyTask = {});
    /// The requests made so far answer nothing: another scope was chosen, and its request follows once the store has
    /// said which series it holds.
    void cancel();

signals:
    void loaded(std::shared_ptr<const paretoscope::ui::LoadedScope> scope);
    /// The store could not be opened or read (a damaged file): the message says what happened and what to do.
    void failed(const QString& message);

private:
    StoreWorker& m_worker;
};

} // namespace paretoscope::ui
