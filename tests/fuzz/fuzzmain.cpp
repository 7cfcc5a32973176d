// A libFuzzer executable for one target, chosen at compile time (FUZZ_TARGET, the target's name).
#include <cstdlib>
#include <cstring>

#include "fuzztargets.h"

namespace {
paretoscope::fuzz::Target chosen()
{
    for (const auto& t : paretoscope::fuzz::targets())
        if (t.name == FUZZ_TARGET)
            return t.run;
    std::abort();
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static const paretoscope::fuzz::Target run = chosen();
    run(data, size);
    return 0;
}
