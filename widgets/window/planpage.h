#pragma once

#include <QString>
#include <memory>
#include <optional>
#include <vector>

#include "core/analysis/accuracy.h"
#include "core/model/result.h"
#include "core/model/scope.h"
#include "widgets/window/page.h"

namespace paretoscope {
struct PlanFrontiers;
class RunStore;
} // namespace paretoscope

namespace paretoscope::ui {

class PlanPanel;

/// The Plan tab: the capacity plan on the scope's configuration frontiers (read on the store worker when the tab is
/// in front), its mix parts' frontiers, its TCO files, the plan CSV that waits for a plan, and its settings.
class PlanPage : public Page {
    Q_OBJECT
public:
    explicit PlanPage(MainWindow& window);
    QWidget* widget() const override;
    PlanPanel* panel() const { return m_panel; }
    void restoreSettings(const QSettings& settings) override;
    void saveSettings(QSettings& settings) const override;
    void connectToWindow() override;

    /// A TCO model file (its errors name the file and field), and the tab's parts saved as one.
    Status openTcoFile(const QString& path);
    Status saveTcoFile(const QString& path);
    /// The plan of the scope in view as CSV: a plan made before the scope last changed is made again first; the
    /// window's csvExported follows.
    void exportCsvWhenPlanned(const QString& path);

protected:
    void load() override;

private:
    void loadMixFrontiers();
    /// The accuracy the shown scope was judged against (the filter panel's), if any.
    std::optional<AccuracyRequirement> accuracyRequired() const;
    /// A scope's plan frontiers, on the store worker, with the groups that fail the requirement left out.
    static std::shared_ptr<const PlanFrontiers> loadRequired(
        RunStore& store, const Scope& scope, const std::optional<AccuracyRequirement>& accuracy);
    PlanPanel* m_panel;
    std::vector<Scope> m_mixLoading; // the scopes of the mix parts being read
    QString m_csvWaiting; // a plan CSV to write once the plan being made is shown
};

} // namespace paretoscope::ui
