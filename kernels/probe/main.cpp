// paretoscope-probe: measures the attached GPU with the FP4 kernels (CUDA, or HIP where built) and prints JSON; with
// --save it also writes the device profile the session dialog and the speed of light use. Without a GPU it says so
// and exits 1.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <ctime>

#include "core/live/devices.h"
#ifndef PARETOSCOPE_PROBE_STANDALONE
#include "core/analysis/deviceprofile.h"
#endif

#ifdef PARETOSCOPE_HAVE_CUDA
#include "kernels/cuda/cudaprobe.h"
#endif
#ifdef PARETOSCOPE_HAVE_HIP
#include "kernels/hip/hipprobe.h"
#endif

namespace {

// Prints the probe's JSON and, with --save, stores the device profile it gives.
[[maybe_unused]] int report(const std::string& json, bool save)
{
    std::printf("%s\n", json.c_str());
    if (!save)
        return 0;
#ifdef PARETOSCOPE_PROBE_STANDALONE
    // built by scripts/gpu-check.sh with nvcc alone: no JSON parser, so no profile
    std::fprintf(stderr, "paretoscope-probe: not saved: this build (scripts/gpu-check.sh) cannot write profiles\n");
    return 1;
#else
    std::time_t now = std::time(nullptr);
    char at[32];
    std::strftime(at, sizeof at, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    auto profile = paretoscope::profileFromProbeJson(json, at);
    auto st = profile ? paretoscope::saveDeviceProfile(*profile)
                      : paretoscope::Status(paretoscope::Error { profile.error() });
    if (!st) {
        std::fprintf(stderr, "paretoscope-probe: not saved: %s\n", st.error().c_str());
        return 1;
    }
    std::fprintf(stderr, "paretoscope-probe: saved %s/%s.json\n", paretoscope::deviceProfileDir().c_str(),
        profile->hardware.c_str());
    return 0;
#endif
}

} // namespace

int main(int argc, char** argv)
{
    int device = 0, runs = 30;
    bool save = false;
    for (int i = 1; i < argc; i += 2) {
        if (!std::strcmp(argv[i], "--save")) {
            save = true;
            --i;
        } else if (i + 1 >= argc) {
            std::fprintf(stderr, "usage: paretoscope-probe [--device N] [--runs N] [--save]\n");
            return 2;
        } else if (!std::strcmp(argv[i], "--device"))
            device = std::atoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--runs")) {
            runs = std::atoi(argv[i + 1]);
            if (runs < 1) { // the median of no timings has no value
                std::fprintf(stderr, "paretoscope-probe: --runs must be at least 1\n");
                return 2;
            }
        } else {
            std::fprintf(stderr, "usage: paretoscope-probe [--device N] [--runs N] [--save]\n");
            return 2;
        }
    }
    paretoscope::DeviceDiscovery found = paretoscope::discoverDevices();
    std::string why;
    auto because = [&](const std::string& reason) { why += (why.empty() ? "" : "; ") + reason; };
    // an NVIDIA GPU first, then an AMD one: the first backend that finds its device measures it
#ifdef PARETOSCOPE_HAVE_CUDA
    {
        paretoscope::cuda::ProbeOptions o;
        o.device = device;
        o.runs = runs;
        auto r = paretoscope::cuda::runProbe(o);
        if (r)
            return report(*r, save);
        because(r.error());
    }
#endif
#ifdef PARETOSCOPE_HAVE_HIP
    {
        paretoscope::hip::ProbeOptions o;
        o.device = device;
        o.runs = runs;
        auto r = paretoscope::hip::runProbe(o);
        if (r)
            return report(*r, save);
        because(r.error());
    }
#endif
#if !defined(PARETOSCOPE_HAVE_CUDA) && !defined(PARETOSCOPE_HAVE_HIP)
    (void)device;
    (void)runs;
    (void)save;
    because("this build has no GPU kernels (neither the CUDA toolkit nor hipcc was found when it was built)");
#endif
    for (const auto& n : found.notes)
        because(n);
    std::fprintf(stderr, "paretoscope-probe: no GPU to probe: %s\n", why.c_str());
    return 1;
}
