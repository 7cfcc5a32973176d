#pragma once

#include <map>
#include <string>

#include "app/clicommon.h"

namespace paretoscope::cli {

/// The options `plan` accepts (name -> takes a value).
std::map<std::string, bool> planOptions();
/// `plan`: per hardware, the GPUs, nodes, power and money a demand needs at a target interactivity (docs/plan.md).
int cmdPlan(const Invocation& in);

} // namespace paretoscope::cli
