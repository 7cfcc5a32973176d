#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/result.h"
#include "core/model/runpoint.h"

namespace paretoscope {

/// What the speed-of-light model needs of a model (resources/model_architectures.json).
struct ModelArch {
    std::string name;
    std::vector<std::string> aliases; ///< lower case; a model name containing one of them is this model
    double totalParams = 0;
    double activeParams = 0;
    double denseParams = 0; ///< read by every token (attention, embeddings, shared experts)
    double expertParams = 0; ///< all routed experts
    int experts = 0;
    int expertsPerToken = 0;
    int layers = 0;
    std::string attention;
    double kvBytesPerToken = 0; ///< over all layers, FP8 KV cache
};

/// A device's datasheet (resources/device_specs.json), or a probe's measurements.
struct DeviceSpec {
    std::string hardware;
    double hbmBytesPerS = 0;
    double memoryBytes = 0;
    std::map<std::string, double> matrixFlops; ///< precision -> dense FLOP/s
    std::string source = "datasheet"; ///< what the values are in a word: "datasheet", or "probe <date>"
    std::string reference; ///< where the datasheet values come from, each named (the file's per-device "source")
};

Result<std::vector<ModelArch>> parseModelArchitectures(std::string_view json, const std::string& name);
Result<std::vector<DeviceSpec>> parseDeviceSpecs(std::string_view json, const std::string& name);
/// The architecture of a model by name or alias (case-insensitive), from the shipped table.
std::optional<ModelArch> findModelArch(const std::string& model);
/// The shipped datasheet of a hardware key, with a probe's saved measurements in place where there are some. A key
/// with a suffix the table does not know (InferenceX runner names such as "gb300-nv" or "b200-dgxc") is looked up by
/// its part before the first '-' or '_'.
std::optional<DeviceSpec> findDeviceSpec(const std::string& hardware);
/// Every device of the shipped table (resources/device_specs.json), as written there.
const std::vector<DeviceSpec>& shippedDeviceSpecs();

/// An upper bound of decode throughput against interactivity (docs/probe.md). A step at batch B cannot be
/// faster than max(bytes moved / bandwidth, FLOPs / matrix rate), per GPU of a G-GPU tensor-parallel deployment:
/// bytes = the weights the batch touches (dense ones, and the share of experts B tokens route to: 1 - (1 - k/E)^B),
/// in FP4 with its block scales, plus B x context x KV bytes per token (context isl + osl / 2 on average); FLOPs =
/// 2 x active parameters x B x (1 + isl / osl), the decode plus its share of the prefill. B is limited by the memory
/// left for the KV cache at full context (isl + osl) after every weight is stored, less a reserve. Prefill's memory
/// traffic, communication and attention FLOPs are left out: each only lowers the real curve.
struct SolRequest {
    ModelArch model;
    DeviceSpec device;
    std::string precision = "fp4";
    int isl = 1024;
    int osl = 1024;
    TputMetric metric = TputMetric::Total;
    int gpus = 0; ///< a deployment size; 0: the envelope over 1, 2, 4, 8, 16, 32, 64 and 72 GPUs
    double memoryReserve = 0.10; ///< share of memory kept for activations and the runtime
};

struct SolPoint {
    double interactivity = 0; ///< tok/s/user
    double tputPerGpu = 0; ///< of the request's metric
    int batch = 0;
    int gpus = 0;
    bool computeBound = false;
};

struct SolCurve {
    std::vector<SolPoint> points; ///< interactivity increasing, throughput decreasing (a frontier)
    double weightBytesPerParam = 0;
    std::string notes; ///< what was assumed, in a line
};

Result<SolCurve> speedOfLight(const SolRequest& request);
/// The bound at an interactivity (log-log interpolation between knots); at an interactivity below the curve's range
/// the largest batch's value (memory caps it); empty above it (no deployment is that fast per user).
std::optional<double> speedOfLightAt(const SolCurve& curve, double interactivity);

} // namespace paretoscope
