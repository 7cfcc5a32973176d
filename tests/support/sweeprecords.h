#pragma once
// Runs the explorer suites write into their stores: one configuration swept over concurrency, as Paretoscope JSON.

#include <string>
#include <vector>

#include "core/model/runrecord.h"
#include "core/output/reports.h"

namespace paretoscope::testsupport {

/// One configuration on 8 GPUs at random 1k/1k, a run per concurrency: interactivity `interactivityAt1 / c` and
/// throughput per GPU `tputAt1 x c`.
inline std::vector<RunRecord> sweepRecords(const std::string& model, const std::string& hardware,
    const std::string& engine, const std::string& precision, const std::vector<int>& concurrencies,
    double interactivityAt1, double tputAt1)
{
    std::vector<RunRecord> out;
    for (int c : concurrencies) {
        RunRecord r;
        r.model = model;
        r.hardware = hardware;
        r.engine = engine;
        r.precision = precision;
        r.isl = 1024;
        r.osl = 1024;
        r.workload = "random 1k/1k";
        r.gpus = 8;
        r.concurrency = c;
        r.interactivity = interactivityAt1 / c;
        r.tputPerGpu = tputAt1 * c;
        out.push_back(std::move(r));
    }
    return out;
}

/// The records as a Paretoscope JSON array, as `import` reads it.
inline std::string recordsJson(const std::vector<RunRecord>& records)
{
    std::string json = "[";
    for (const RunRecord& r : records)
        json += (json.size() > 1 ? "," : "") + runRecordJson(r);
    return json + "]";
}

} // namespace paretoscope::testsupport
