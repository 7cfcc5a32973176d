#include "core/analysis/speedoflight.h"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "core/analysis/deviceprofile.h"
#include "core/analysis/frontier.h"
#include "core/model/asciitext.h"
#include "core/model/embedded.h"

namespace paretoscope {

namespace {

using nlohmann::json;

Result<double> positive(const json& j, const char* key, const std::string& where, bool allowZero = false)
{
    auto it = j.find(key);
    if (it == j.end() || !it->is_number() || !std::isfinite(it->get<double>()) || it->get<double>() < 0
        || (!allowZero && it->get<double>() == 0))
        return Error { where + ", field " + key + ": missing or not a positive number" };
    return it->get<double>();
}

// Bytes per parameter of weights stored at a precision: NVFP4 carries an E4M3 scale per 16 values, MXFP4 an E8M0
// per 32 (AMD's FP4 checkpoints are MXFP4).
double bytesPerParam(const std::string& precision, const std::string& hardware)
{
    if (precision == "fp4")
        return hardware.rfind("mi", 0) == 0 ? 0.5 + 1.0 / 32 : 0.5 + 1.0 / 16;
    if (precision == "fp8" || precision == "int8")
        return 1.0;
    if (precision == "int4")
        return 0.5 + 2.0 / 128; // group-wise scales
    return 2.0;
}

} // namespace

Result<std::vector<ModelArch>> parseModelArchitectures(std::string_view text, const std::string& name)
{
    json j = json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("models") || !j["models"].is_array())
        return Error { name + ": not an object with a models array" };
    std::vector<ModelArch> out;
    std::size_t i = 0;
    for (const json& m : j["models"]) {
        std::string where = name + ": model " + std::to_string(i++);
        if (!m.is_object() || !m.contains("name") || !m["name"].is_string())
            return Error { where + ", field name: missing" };
        ModelArch a;
        a.name = m["name"].get<std::string>();
        if (m.contains("aliases") && m["aliases"].is_array())
            for (const json& s : m["aliases"])
                if (s.is_string())
                    a.aliases.push_back(asciiLower(s.get<std::string>()));
        a.aliases.push_back(asciiLower(a.name));
        for (auto [key, dst, zero] : { std::tuple { "total_params", &a.totalParams, false },
                 std::tuple { "active_params", &a.activeParams, false },
                 std::tuple { "dense_params", &a.denseParams, false },
                 std::tuple { "expert_params", &a.expertParams, true },
                 std::tuple { "kv_bytes_per_token", &a.kvBytesPerToken, false } }) {
            auto v = positive(m, key, where, zero);
            if (!v)
                return Error { v.error() };
            *dst = *v;
        }
        a.experts = m.value("experts", 0);
        a.expertsPerToken = m.value("experts_per_token", 0);
        a.layers = m.value("layers", 0);
        a.attention = m.value("attention", "");
        if (a.experts < 0 || a.expertsPerToken < 0 || a.expertsPerToken > a.experts)
            return Error { where + ", field experts_per_token: more than the experts" };
        out.push_back(std::move(a));
    }
    return out;
}

Result<std::vector<DeviceSpec>> parseDeviceSpecs(std::string_view text, const std::string& name)
{
    json j = json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("devices") || !j["devices"].is_array())
        return Error { name + ": not an object with a devices array" };
    std::vector<DeviceSpec> out;
    std::size_t i = 0;
    for (const json& d : j["devices"]) {
        std::string where = name + ": device " + std::to_string(i++);
        if (!d.is_object() || !d.contains("hardware") || !d["hardware"].is_string())
            return Error { where + ", field hardware: missing" };
        DeviceSpec s;
        s.hardware = asciiLower(d["hardware"].get<std::string>());
        auto bw = positive(d, "hbm_bytes_per_s", where);
        auto mem = positive(d, "memory_bytes", where);
        if (!bw || !mem)
            return Error { !bw ? bw.error() : mem.error() };
        s.hbmBytesPerS = *bw;
        s.memoryBytes = *mem;
        if (!d.contains("matrix_flops") || !d["matrix_flops"].is_object())
            return Error { where + ", field matrix_flops: missing" };
        for (auto it = d["matrix_flops"].begin(); it != d["matrix_flops"].end(); ++it) {
            auto v = positive(d["matrix_flops"], it.key().c_str(), where + ", matrix_flops");
            if (!v)
                return Error { v.error() };
            s.matrixFlops[it.key()] = *v;
        }
        if (d.contains("source")) {
            if (!d["source"].is_string())
                return Error { where + ", field source: not a string" };
            s.reference = d["source"].get<std::string>();
        }
        out.push_back(std::move(s));
    }
    return out;
}

std::optional<ModelArch> findModelArch(const std::string& model)
{
    static const std::vector<ModelArch> all = [] {
        auto r = parseModelArchitectures(embedded::model_architectures_json(), "resources/model_architectures.json");
        return r ? *r : std::vector<ModelArch> {};
    }();
    std::string m = asciiLower(model);
    for (const ModelArch& a : all)
        for (const std::string& alias : a.aliases)
            if (m.find(alias) != std::string::npos)
                return a;
    return std::nullopt;
}

const std::vector<DeviceSpec>& shippedDeviceSpecs()
{
    static const std::vector<DeviceSpec> all = [] {
        auto r = parseDeviceSpecs(embedded::device_specs_json(), "resources/device_specs.json");
        return r ? *r : std::vector<DeviceSpec> {};
    }();
    return all;
}

std::optional<DeviceSpec> findDeviceSpec(const std::string& hardware)
{
    const std::string h = asciiLower(hardware);
    auto find = [](const std::string& key) -> const DeviceSpec* {
        for (const DeviceSpec& d : shippedDeviceSpecs())
            if (d.hardware == key)
                return &d;
        return nullptr;
    };
    const DeviceSpec* d = find(h);
    // a runner's suffix: "gb300-nv" is a gb300; the engine emulator's "b300-sim" is no hardware at all
    if (!d && !h.ends_with("-sim"))
        if (auto cut = h.find_first_of("-_"); cut != std::string::npos && cut > 0)
            d = find(h.substr(0, cut));
    if (!d)
        return std::nullopt;
    DeviceSpec spec = *d;
    spec.hardware = h;
    // a probe's profile is saved under the key of the hardware it ran on
    if (auto measured = loadDeviceProfile(h))
        return applyProfile(std::move(spec), *measured);
    return spec;
}

Result<SolCurve> speedOfLight(const SolRequest& r)
{
    const ModelArch& m = r.model;
    const DeviceSpec& d = r.device;
    auto rate = d.matrixFlops.find(r.precision);
    if (rate == d.matrixFlops.end())
        return Error { d.hardware + ": no matrix rate for " + r.precision + " in its specification" };
    if (r.isl < 0 || r.osl <= 0)
        return Error { "the speed of light needs the sequence lengths (isl, osl)" };
    SolCurve curve;
    curve.weightBytesPerParam = bytesPerParam(r.precision, d.hardware);
    const double bpp = curve.weightBytesPerParam;
    const double contextAvg = r.isl + r.osl / 2.0;
    const double contextMax = r.isl + r.osl;
    const double perOutput = r.metric == TputMetric::Total ? (r.isl + r.osl) / double(r.osl)
        : r.metric == TputMetric::Input                    ? r.isl / double(r.osl)
                                                           : 1.0;
    std::vector<int> sizes = r.gpus > 0 ? std::vector<int> { r.gpus } : std::vector<int> { 1, 2, 4, 8, 16, 32, 64, 72 };
    std::vector<SolPoint> all;
    for (int g : sizes) {
        double kvRoom = g * d.memoryBytes * (1 - r.memoryReserve) - m.totalParams * bpp;
        long long maxBatch = kvRoom > 0 ? static_cast<long long>(kvRoom / (contextMax * m.kvBytesPerToken)) : 0;
        if (maxBatch < 1)
            continue;
        maxBatch = std::min<long long>(maxBatch, 1 << 20);
        for (double b = 1; b <= double(maxBatch);) {
            long long B = static_cast<long long>(b);
            double touched = m.experts > 0 ? 1 - std::pow(1 - double(m.expertsPerToken) / m.experts, double(B)) : 0;
            double bytes
                = (m.denseParams + m.expertParams * touched) * bpp + double(B) * contextAvg * m.kvBytesPerToken;
            // each step also carries its share of the prefill: isl / osl prompt tokens per output token
            double flops = 2 * m.activeParams * double(B) * (1 + double(r.isl) / r.osl);
            double tBytes = bytes / g / d.hbmBytesPerS, tFlops = flops / g / rate->second;
            double t = std::max(tBytes, tFlops);
            all.push_back({ 1 / t, double(B) / t / g * perOutput, int(B), g, tFlops > tBytes });
            // compute bound: a larger batch only slows every user down for the same throughput
            if (B == maxBatch || tFlops > tBytes)
                break;
            b = std::min(double(maxBatch), std::max(b + 1, b * 1.2));
        }
    }
    if (all.empty())
        return Error { m.name + " does not fit on " + std::to_string(sizes.back()) + " x " + d.hardware
            + " with room for one sequence of " + std::to_string(int(contextMax)) + " tokens" };
    // the envelope over deployment sizes: the upper-left frontier of every (interactivity, throughput)
    std::vector<Point> pts;
    pts.reserve(all.size());
    for (std::size_t i = 0; i < all.size(); ++i)
        pts.push_back({ all[i].interactivity, all[i].tputPerGpu, static_cast<long long>(i) });
    for (const Point& p : upperLeftFrontier(pts))
        curve.points.push_back(all[static_cast<std::size_t>(p.runId)]);
    curve.notes = "decode bound: weights " + std::string(r.precision) + " at " + std::to_string(bpp).substr(0, 6)
        + " B/param, KV " + std::to_string(int(m.kvBytesPerToken)) + " B/token, " + d.source + " "
        + std::to_string(d.hbmBytesPerS / 1e12).substr(0, 4) + " TB/s and "
        + std::to_string(rate->second / 1e15).substr(0, 5) + " PFLOP/s per GPU";
    return curve;
}

std::optional<double> speedOfLightAt(const SolCurve& c, double x)
{
    if (c.points.empty() || !(x > 0))
        return std::nullopt;
    if (x <= c.points.front().interactivity)
        return c.points.front().tputPerGpu;
    if (x > c.points.back().interactivity)
        return std::nullopt;
    for (std::size_t i = 1; i < c.points.size(); ++i) {
        const SolPoint &a = c.points[i - 1], &b = c.points[i];
        if (x <= b.interactivity) {
            double f = std::log(x / a.interactivity) / std::log(b.interactivity / a.interactivity);
            return std::exp(std::log(a.tputPerGpu) + f * std::log(b.tputPerGpu / a.tputPerGpu));
        }
    }
    return c.points.back().tputPerGpu;
}

} // namespace paretoscope
