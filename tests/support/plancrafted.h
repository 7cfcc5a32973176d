#pragma once
// The crafted runs the plan's tests size on, the published power and price figures they are checked against, and the
// sizing arithmetic written out again (docs/architecture.md section 12): never by the plan.

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>
#include <QTemporaryDir>
#include <cmath>
#include <map>
#include <vector>

#include "core/analysis/plan.h"
#include "core/import/importer.h"
#include "tests/support/testutil.h"

namespace paretoscope::testsupport::crafted {

// A crafted run: its configuration, x, total and output tok/s/GPU, latencies (s; 0 left out) and power (W; 0 none).
struct Knot {
    const char* hardware;
    const char* engine;
    int concurrency;
    double x, total, output;
    int tp, prefill, decode;
    double ttft, ttftP99, tpot, powerW;
};

inline const std::vector<Knot> kKnots {
    { "b300", "vllm", 64, 20, 12000, 6000, 8, 0, 0, 0.8, 2.0, 0.05, 1000 },
    { "b300", "vllm", 16, 40, 8000, 4000, 8, 0, 0, 0.3, 0.9, 0.025, 900 },
    { "b300", "vllm", 4, 80, 3000, 1500, 4, 0, 0, 0.1, 0.2, 0.0125, 700 },
    { "h200", "dynamo-trt", 256, 20, 4000, 3000, 0, 8, 8, 1.0, 2.0, 0.05, 0 },
    { "h200", "dynamo-trt", 64, 50, 2000, 1500, 0, 8, 8, 0.5, 1.0, 0.02, 0 },
    { "gb200", "dynamo-sglang", 128, 30, 9000, 5000, 4, 0, 0, 0, 0, 0.033, 0 }, // no TTFT: meets no TTFT limit
    { "gb200", "dynamo-sglang", 32, 60, 5000, 2500, 0, 48, 48, 0.4, 0.8, 0.016, 0 },
    { "mi325x", "sglang", 32, 25, 2000, 1000, 8, 0, 0, 3.0, 5.0, 0.04, 0 },
    { "mi325x", "sglang", 8, 45, 1000, 500, 8, 0, 0, 2.5, 4.0, 0.022, 0 },
};

// Published figures (docs/architecture.md section 14): all-in kW per GPU and TDP, hyperscaler $/GPU/hr,
// GPUs per node.
struct Published {
    double kw, tdpW, usd;
    int perNode;
};
inline const std::map<QString, Published> kPublished { { QStringLiteral("b300"), { 1.90, 1200, 2.26, 8 } },
    { QStringLiteral("h200"), { 1.37, 700, 1.22, 8 } }, { QStringLiteral("gb200"), { 1.87, 1200, 1.86, 72 } },
    { QStringLiteral("mi325x"), { 1.69, 1000, 1.10, 8 } }, { QStringLiteral("b200"), { 1.71, 1000, 1.73, 8 } },
    { QStringLiteral("gb300"), { 2.12, 1400, 2.31, 72 } }, { QStringLiteral("h100"), { 1.37, 700, 1.17, 8 } },
    { QStringLiteral("mi300x"), { 1.39, 750, 0.95, 8 } }, { QStringLiteral("mi355x"), { 2.09, 1400, 1.50, 8 } } };

inline QJsonObject knotJson(const Knot& k)
{
    QJsonObject o { { QStringLiteral("schema"), QStringLiteral("paretoscope.run/1") },
        { QStringLiteral("model"), QStringLiteral("m") },
        { QStringLiteral("hardware"), QString::fromLatin1(k.hardware) },
        { QStringLiteral("engine"), QString::fromLatin1(k.engine) },
        { QStringLiteral("precision"), QStringLiteral("fp4") }, { QStringLiteral("isl"), 1024 },
        { QStringLiteral("osl"), 1024 }, { QStringLiteral("concurrency"), k.concurrency },
        { QStringLiteral("interactivity_tok_s_user"), k.x }, { QStringLiteral("tput_per_gpu_tok_s"), k.total },
        { QStringLiteral("output_tput_per_gpu_tok_s"), k.output }, { QStringLiteral("tpot_median_s"), k.tpot } };
    if (k.prefill > 0) {
        o[QStringLiteral("disaggregated")] = true;
        o[QStringLiteral("prefill_gpus")] = k.prefill;
        o[QStringLiteral("decode_gpus")] = k.decode;
    } else {
        o[QStringLiteral("tp")] = k.tp;
        o[QStringLiteral("gpus")] = k.tp;
    }
    if (k.ttft > 0) {
        o[QStringLiteral("ttft_median_s")] = k.ttft;
        o[QStringLiteral("ttft_p99_s")] = k.ttftP99;
    }
    if (k.powerW > 0)
        o[QStringLiteral("avg_power_w")] = k.powerW;
    return o;
}

inline const Knot& knotAt(const QString& hw, double x)
{
    for (const Knot& k : kKnots)
        if (hw == QLatin1String(k.hardware) && k.x == x)
            return k;
    qFatal("no crafted knot of %s at %g", qPrintable(hw), x);
}

// The sizing arithmetic of docs/architecture.md section 12.3, written out again.
struct Expected {
    double gpusExact, gpus, replicas, nodes;
};
inline Expected expectedSizing(double demand, double headroom, double perGpu, int r, int n)
{
    Expected e;
    e.gpusExact = demand * (1 + headroom) / perGpu;
    e.replicas = std::ceil(e.gpusExact / r - 1e-9);
    e.gpus = e.replicas * r;
    e.nodes = r > n ? e.replicas * std::ceil(double(r) / n) : std::ceil(e.gpus / n);
    return e;
}

inline const HardwarePlan* planOf(const Plan& p, const std::string& hw)
{
    for (const HardwarePlan& h : p.hardware)
        if (h.hardware == hw)
            return &h;
    return nullptr;
}

inline PlanRequest request(const Scope& scope, double demand, DemandUnit unit, double target, double headroom = 0.25)
{
    PlanRequest r;
    r.scope = scope;
    r.demand = demand;
    r.unit = unit;
    r.target = target;
    r.headroom = headroom;
    return r;
}

inline Scope craftedScope()
{
    Scope s;
    s.model = "m";
    s.isl = 1024;
    s.osl = 1024;
    return s;
}

/// A store in `dir` holding the crafted runs; null (with the reason in `error`) where the import fails.
inline std::unique_ptr<RunStore> craftedStore(const QTemporaryDir& dir, std::string& error)
{
    auto store = openTempStore(dir);
    QJsonArray a;
    for (const Knot& k : kKnots)
        a.append(knotJson(k));
    if (!store || !writeFile(dir.filePath(QStringLiteral("knots.json")), QJsonDocument(a).toJson())) {
        error = "cannot write the crafted runs";
        return nullptr;
    }
    auto out = importPath(*store, dir.filePath(QStringLiteral("knots.json")).toStdString(), {});
    if (!out[0].result.ok()) {
        error = out[0].result.error();
        return nullptr;
    }
    return store;
}

} // namespace paretoscope::testsupport::crafted
