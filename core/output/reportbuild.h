#pragma once
// The report of a view (docs/report.md): what `paretoscope-cli report` and the explorer's File > Export report...
// write, built from the store as the ladder, plan and history commands read it.

#include <optional>
#include <string>
#include <vector>

#include "core/analysis/plan.h"
#include "core/analysis/viewoptions.h"
#include "core/output/reportdoc.h"

namespace paretoscope {

class RunStore;

/// What a report answers: a view (scope, filters, price, baseline, accuracy), the target its readings are read at,
/// and a demand plan (with the targets of its cost of speed; empty: 20 to 200 tok/s/user).
struct ReportRequest {
    ViewOptions view;
    double target = 50;
    std::optional<PlanRequest> plan;
    std::vector<double> sweep;
};

/// A report, or why there is none: the scope holds no runs (emptyScope), or the error (a baseline not in scope, a
/// plan that cannot be made, a store read that failed).
struct ReportOutcome {
    std::optional<ReportDoc> doc;
    bool emptyScope = false;
    std::string error;
};

/// Builds the report of the request on the store. The view's model is the stored key (the caller resolves a site
/// name), and its accuracy task, if any, one the store holds.
ReportOutcome buildReport(RunStore& store, const ReportRequest& request);

} // namespace paretoscope
