// `report`: a view as the report a planner takes to a meeting (docs/report.md): the question, the frontier with the
// speed of light, the readings at the target, the ladder with every tier, the plan, accuracy, history, the method,
// the sources and the command that reproduces it, as a PDF or one self-contained HTML file.
#include "app/clireport.h"

#include <iostream>
#include <nlohmann/json.hpp>

#include "app/cliplan.h"
#include "core/analysis/ladderaccuracy.h"
#include "core/analysis/scopeaccuracy.h"
#include "core/analysis/viewoptions.h"
#include "core/model/outsidefile.h"
#include "core/output/reportbuild.h"
#include "core/store/runstore.h"

namespace paretoscope::cli {

std::map<std::string, bool> reportOptions()
{
    std::map<std::string, bool> options = planOptions();
    for (const auto& [name, value] : viewOptionSpec())
        options.emplace(name, value);
    options.erase("format");
    options.erase("budget-mw");
    options.erase("budget-usd-month");
    options.erase("max-cost-per-mtok");
    options.erase("mix");
    options.erase("mix-file");
    options["out"] = true;
    return options;
}

namespace {

// What the caller asked, checked before the store is opened.
bool readInputs(const Args& a, ReportRequest& in, std::string& out, bool& pdf, std::string& error)
{
    auto view = viewFromOptions(a.options);
    if (!view) {
        error = view.error();
        return false;
    }
    in.view = std::move(*view);
    if (!targetOption(a, in.target, error))
        return false;
    out = a.value("out").value_or("");
    auto endsWith = [&](const char* ext) {
        const std::string e(ext);
        return out.size() > e.size() && out.compare(out.size() - e.size(), e.size(), e) == 0;
    };
    pdf = endsWith(".pdf");
    if (!pdf && !endsWith(".html")) {
        error = "report needs --out FILE.pdf or --out FILE.html (the report as a PDF, or as one self-contained HTML "
                "file)";
        return false;
    }
    if (a.has("demand")) {
        PlanRequest req;
        if (!planRequestFromArgs(a, req, in.sweep, error))
            return false;
        in.plan = std::move(req);
    }
    return true;
}

} // namespace

int cmdReport(const Invocation& in)
{
    const Args& a = in.args;
    ReportRequest request;
    std::string error, out;
    bool pdf = false;
    if (!readInputs(a, request, out, pdf, error))
        return usageError(error);
    if (request.plan)
        if (int code = planCostFromArgs(a, *request.plan))
            return code;
    LadderRequest& req = request.view.request;
    auto store = in.store();
    if (!store)
        return 1;
    if (!resolveModel(*store, req.scope.model))
        return 1;
    if (request.plan)
        request.plan->scope.model = req.scope.model;
    if (!accuracyTaskKnown(
            EvaluationIndex(storedEvaluations(*store, req.scope.model)), req.accuracyTask, req.scope.model))
        return 1;
    ReportOutcome report = buildReport(*store, request);
    if (report.emptyScope)
        return emptyScope(*store, req.scope);
    if (!report.doc) {
        std::cerr << "paretoscope-cli: " << report.error << "\n";
        return 1;
    }
    if (Status written = replaceFile(out, pdf ? reportPdf(*report.doc) : reportHtml(*report.doc)); !written) {
        std::cerr << "paretoscope-cli: " << written.error() << "\n";
        return 1;
    }
    std::cout << "{\"report\": " << nlohmann::json(out).dump() << ", \"sections\": " << report.doc->sections.size()
              << "}\n";
    return 0;
}

} // namespace paretoscope::cli
