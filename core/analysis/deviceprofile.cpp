#include "core/analysis/deviceprofile.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/model/hardware.h"
#include "core/model/outsidefile.h"
#include "core/model/outsidejson.h"

namespace paretoscope {

namespace {

using nlohmann::json;

std::string fixed(double v, int decimals)
{
    std::ostringstream s;
    s.setf(std::ios::fixed);
    s.precision(decimals);
    s << v;
    return s.str();
}

} // namespace

std::string deviceProfileDir()
{
    const char* xdg = std::getenv("XDG_DATA_HOME");
    const char* home = std::getenv("HOME");
    std::filesystem::path base = xdg && *xdg ? xdg : std::filesystem::path(home ? home : ".") / ".local" / "share";
    return (base / "paretoscope" / "device-profiles").string();
}

Result<DeviceProfile> profileFromProbeJson(const std::string& text, const std::string& measuredAt)
{
    json j = json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("device") || !j["device"].is_object())
        return Error { "probe output: not the probe's JSON (no device)" };
    DeviceProfile p;
    p.deviceName = j["device"].value("name", "");
    p.hardware = hardwareKeyFor(p.deviceName, "");
    if (p.hardware.empty())
        return Error { "probe output: device " + p.deviceName + " is not a hardware Paretoscope knows by name" };
    p.measuredAt = measuredAt;
    if (j.contains("bandwidth") && j["bandwidth"].is_object())
        p.copyBytesPerS = j["bandwidth"].value("copy_bytes_per_s", 0.0);
    if (j.contains("gemm") && j["gemm"].is_object())
        for (auto it = j["gemm"].begin(); it != j["gemm"].end(); ++it)
            if (it->is_object() && it->contains("flops_per_s") && (*it)["flops_per_s"].is_number()
                && it->value("pass", false))
                p.gemmFlops[it.key()] = (*it)["flops_per_s"].get<double>(); // only rates whose check passed
    if (p.copyBytesPerS <= 0)
        return Error { "probe output: no copy bandwidth" };
    return p;
}

Status saveDeviceProfile(const DeviceProfile& p, const std::string& dir)
{
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    json j = { { "hardware", p.hardware }, { "device", p.deviceName }, { "measured_at", p.measuredAt },
        { "copy_bytes_per_s", p.copyBytesPerS }, { "gemm_flops", p.gemmFlops } };
    std::filesystem::path file = std::filesystem::path(dir) / (p.hardware + ".json");
    std::filesystem::path tmp = file;
    tmp += ".tmp";
    {
        std::ofstream out(tmp, std::ios::trunc);
        out << j.dump(2) << "\n";
        if (!out)
            return Error { "cannot write " + tmp.string() };
    }
    std::filesystem::rename(tmp, file, ec); // atomic: a reader sees the old profile or the new one
    if (ec)
        return Error { "cannot write " + file.string() + ": " + ec.message() };
    return ok();
}

std::optional<DeviceProfile> loadDeviceProfile(const std::string& hardware, const std::string& dir)
{
    // a profile is a file like any other someone could have put there: regular, bounded, every field typed
    auto text = readRegularFile((std::filesystem::path(dir) / (hardware + ".json")).string(), limits::kSmallJson);
    auto parsed = text ? parseOutsideJson(*text, hardware + ".json", limits::kJsonDepth) : Error { text.error() };
    if (!parsed || !parsed->is_object() || !parsed->contains("copy_bytes_per_s")
        || !(*parsed)["copy_bytes_per_s"].is_number())
        return std::nullopt;
    const json& j = *parsed;
    const auto textOr = [&](const char* key, const std::string& fallback) {
        const auto it = j.find(key);
        return it != j.end() && it->is_string() ? it->get<std::string>() : fallback;
    };
    DeviceProfile p;
    p.hardware = textOr("hardware", hardware);
    p.deviceName = textOr("device", "");
    p.measuredAt = textOr("measured_at", "");
    p.copyBytesPerS = j["copy_bytes_per_s"].get<double>();
    if (j.contains("gemm_flops") && j["gemm_flops"].is_object())
        for (auto it = j["gemm_flops"].begin(); it != j["gemm_flops"].end(); ++it)
            if (it->is_number() && it->get<double>() > 0)
                p.gemmFlops[it.key()] = it->get<double>();
    if (!(p.copyBytesPerS > 0))
        return std::nullopt;
    return p;
}

DeviceSpec applyProfile(DeviceSpec spec, const DeviceProfile& p)
{
    spec.hbmBytesPerS = p.copyBytesPerS;
    for (const auto& [precision, flops] : p.gemmFlops)
        spec.matrixFlops[precision] = flops;
    spec.source = "probe " + p.measuredAt.substr(0, 10);
    return spec;
}

std::string profileSummary(const DeviceProfile& p)
{
    std::string s = p.deviceName + " measured " + p.measuredAt.substr(0, 10) + ": " + fixed(p.copyBytesPerS / 1e12, 2)
        + " TB/s copy";
    for (const auto& [precision, flops] : p.gemmFlops)
        s += ", " + precision + " " + fixed(flops / 1e15, 2) + " PFLOP/s";
    return s;
}

} // namespace paretoscope
