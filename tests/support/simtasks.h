#pragma once
// Cluster folders as the outside-data suites write them: sim matrices and the records their tasks would export
// (tst_outsidedata, tst_outsidebounds).

#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/live/cluster.h"
#include "core/live/matrix.h"
#include "core/model/runrecord.h"

namespace paretoscope::testsupport {

inline void writeText(const std::string& path, const std::string& text)
{
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

/// A matrix of sim configurations with these names.
inline std::string simMatrix(const std::vector<std::string>& names)
{
    nlohmann::json list = nlohmann::json::array();
    for (const std::string& n : names)
        list.push_back({ { "name", n }, { "recipe", "sim" }, { "isl", 64 }, { "osl", 16 }, { "concurrency", { 1 } } });
    return nlohmann::json { { "configurations", list } }.dump();
}

/// A record that a sim task of simMatrix would export for its level at concurrency c.
inline RunRecord simResult(const MatrixConfig& c, int concurrency)
{
    RunRecord r;
    r.model = c.model;
    r.hardware = "sim";
    r.engine = "vllm";
    r.precision = c.precision;
    r.isl = c.isl;
    r.osl = c.osl;
    r.workload = "random 64/16";
    r.tp = c.tp;
    r.gpus = taskResources(c).gpus;
    r.concurrency = concurrency;
    r.interactivity = 100.0 / concurrency;
    r.tputPerGpu = 50.0 * concurrency;
    return r;
}

} // namespace paretoscope::testsupport
