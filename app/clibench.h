#pragma once

#include <map>
#include <string>

#include "app/cliargs.h"
#include "app/clicommon.h"

namespace paretoscope::cli {

/// The options of `bench` (name -> takes a value).
std::map<std::string, bool> benchOptions();
/// `bench`: a live session against an endpoint or a launched recipe; one JSON line per finished level. argv is
/// needed to write the same command into a Slurm script (--emit-sbatch).
int cmdBench(const Invocation& in);
/// `sessions`: the live sessions in the store with their status (interrupted ones marked as such first).
int cmdSessions(const Invocation& in);

} // namespace paretoscope::cli
