#pragma once

#include <map>
#include <string>

#include "app/clicommon.h"

namespace paretoscope::cli {

/// The options `report` accepts (name -> takes a value): a view's, --target, the plan's demand options, --out.
std::map<std::string, bool> reportOptions();
/// `report`: the view (and a plan, where a demand is given) as a PDF or one self-contained HTML file (docs/report.md).
int cmdReport(const Invocation& in);

} // namespace paretoscope::cli
