// paretoscope-probe: measures the attached GPU with the FP4 kernels (CUDA, or HIP where built) and prints JSON; with
// --save it also writes the device profile the session dialog and the speed of light use. Without a GPU it says so
// and exits 1.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <ctime>

#include "core/live/devices.h"
#include "core/model/guardedmain.h"
#include "manpage/manpage.h"
#ifndef PARETOSCOPE_PROBE_STANDALONE
#include "core/analysis/deviceprofile.h"
#endif

#ifdef PARETOSCOPE_HAVE_CUDA
#include "kernels/cuda/cudaprobe.h"
#endif
#ifdef PARETOSCOPE_HAVE_HIP
#include "kernels/hip/hipprobe.h"
#endif

#ifndef PARETOSCOPE_VERSION // scripts/gpu-check.sh builds it with nvcc alone
#define PARETOSCOPE_VERSION "(standalone build)"
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

// The options, as a usage error and --help print them and as the man page lists them.
const char* kUsage = "usage: paretoscope-probe [--device N] [--runs N] [--save]\n";
const char* kAbout
    = "Measures the GPU (device N, default 0): copy bandwidth and GEMM throughput per precision, the median of --runs "
      "timings (30); --save keeps them as the hardware's device profile, which the speed-of-light bound then uses in "
      "place of the datasheet. Builds without the CUDA toolkit or hipcc say there is nothing to probe.\n";

int manPage()
{
    namespace man = paretoscope::man;
    std::fputs(man::page("paretoscope-probe", PARETOSCOPE_VERSION, "measures a GPU for the speed-of-light bound",
                   { "paretoscope-probe [--device N] [--runs N] [--save]" },
                   { { "DESCRIPTION", man::paragraph(kAbout) },
                       { "OPTIONS",
                           man::item("--device N", "The GPU to measure (default 0).")
                               + man::item("--runs N", "Timings per measurement, of which the median counts (30).")
                               + man::item("--save", "Keep the measurements as the hardware's device profile.") },
                       { "SEE ALSO", man::paragraph("paretoscope-cli(1), paretoscope(1)") } })
                   .c_str(),
        stdout);
    return 0;
}

int run(int argc, char** argv)
{
    const std::string first = argc > 1 ? argv[1] : "";
    if (first == "--help" || first == "-h")
        return std::printf("%s%s", kUsage, kAbout), 0;
    if (first == "--version")
        return std::printf("paretoscope-probe %s (licence %s)\n", PARETOSCOPE_VERSION, PARETOSCOPE_LICENSE), 0;
    if (first == "--man")
        return manPage();
    int device = 0, runs = 30;
    bool save = false;
    for (int i = 1; i < argc; i += 2) {
        if (!std::strcmp(argv[i], "--save")) {
            save = true;
            --i;
        } else if (i + 1 < argc && !std::strcmp(argv[i], "--device"))
            device = std::atoi(argv[i + 1]);
        else if (i + 1 < argc && !std::strcmp(argv[i], "--runs")) {
            runs = std::atoi(argv[i + 1]);
            if (runs < 1) { // the median of no timings has no value
                std::fprintf(stderr, "paretoscope-probe: --runs must be at least 1\n");
                return 2;
            }
        } else {
            std::fputs(kUsage, stderr);
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

} // namespace

int main(int argc, char** argv)
{
    return paretoscope::guardedMain("paretoscope-probe", [&] { return run(argc, argv); });
}
