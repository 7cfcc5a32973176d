// The libFuzzer executable of every target: paretoscope_fuzz --target=NAME [libFuzzer options] [CORPUS ...] fuzzes
// one (libFuzzer leaves options that start with "--" to the program); --list prints their names. One link for all
// the targets, where each had its own.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "fuzztargets.h"

namespace {
paretoscope::fuzz::Target g_target = nullptr;

int usage(const char* problem)
{
    std::fprintf(
        stderr, "%s\nusage: paretoscope_fuzz --target=NAME [libFuzzer options] [CORPUS ...]; the targets:\n", problem);
    for (const auto& t : paretoscope::fuzz::targets())
        std::fprintf(stderr, "  %s\n", t.name.c_str());
    return 2;
}
} // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv)
{
    constexpr std::string_view kTarget = "--target=";
    std::string_view name;
    for (int i = 1; i < *argc; ++i) {
        const std::string_view arg = (*argv)[i];
        if (arg == "--list") {
            for (const auto& t : paretoscope::fuzz::targets())
                std::printf("%s\n", t.name.c_str());
            std::exit(0);
        }
        if (arg.substr(0, kTarget.size()) == kTarget)
            name = arg.substr(kTarget.size());
    }
    if (name.empty())
        std::exit(usage("no target named (--target=NAME)"));
    for (const auto& t : paretoscope::fuzz::targets())
        if (t.name == name)
            g_target = t.run;
    if (!g_target)
        std::exit(usage("no such target"));
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    g_target(data, size);
    return 0;
}
