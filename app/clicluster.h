#pragma once

#include <map>
#include <string>

#include "app/clicommon.h"

namespace paretoscope::cli {

/// `bench --matrix FILE`: runs the matrix's configurations one after another here, or with --emit-sbatch DIR writes
/// them as a Slurm array job (and with --submit submits it, printing the job ids).
int cmdBenchMatrix(const Invocation& in);
/// The options of `cluster` (name -> takes a value).
std::map<std::string, bool> clusterOptions();
/// `cluster status DIR` and `cluster collect DIR [--watch]`.
int cmdCluster(const Invocation& in);

} // namespace paretoscope::cli
