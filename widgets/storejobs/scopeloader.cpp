#include "widgets/storejobs/scopeloader.h"

#include "core/analysis/ladderaccuracy.h"
#include "core/analysis/pricing.h"
#include "core/store/runstore.h"
#include "widgets/storejobs/storeworker.h"

namespace paretoscope::ui {

ScopeLoader::ScopeLoader(StoreWorker& worker, QObject* parent)
    : QObject(parent)
    , m_worker(worker)
{
}

namespace {
QString kind()
{
    return QStringLiteral("scope");
}
} // namespace

void ScopeLoader::request(const Scope& scope, TputMetric metric, const std::optional<ChartRequest>& chart,
    const std::optional<AccuracyRequirement>& accuracy, const std::string& accuracyTask)
{
    m_worker.post(
        kind(), this,
        [scope, metric, chart, accuracy, accuracyTask](RunStore& store) {
            auto result = std::make_shared<LoadedScope>();
            Scope everyDay = scope;
            everyDay.asOf.clear();
            result->timeline = std::make_shared<const ScopeTimeline>(ScopeTimeline::load(store, everyDay, metric));
            result->data = scopeDataAsOf(*result->timeline, scope, result->timeline->series(), metric);
            // accuracy beside the readings: the model's evaluations, indexed by group once per scope read; a
            // requirement leaves the groups that fail it out of everything shown
            result->data.evaluations = std::make_shared<const EvaluationIndex>(storedEvaluations(store, scope.model));
            if (accuracy)
                requireAccuracy(result->data, *accuracy);
            chooseAccuracyTask(result->data, accuracyTask); // the one task every view of the scope shows
            if (!result->data.evaluations->empty()) // each reading's accuracy on its own configuration's evaluation
                result->data.knotConfigurations
                    = std::make_shared<const KnotConfigurations>(knotConfigurations(store, result->data.frontiers));
            result->summaryFacts = summaryFacts(store, result->data);
            if (chart) {
                result->chart = std::make_shared<const ChartData>(chartData(result->data, bundledPricing(), *chart));
                result->chartRequest = *chart;
            }
            return result;
        },
        [this](Result<std::shared_ptr<LoadedScope>> result) {
            // a damaged store: its message, never a chart drawn from the part that could be read
            if (!result) {
                emit failed(QString::fromStdString(result.error()));
                return;
            }
            emit loaded(*result);
        });
}

void ScopeLoader::cancel()
{
    m_worker.supersede(kind());
}

} // namespace paretoscope::ui
