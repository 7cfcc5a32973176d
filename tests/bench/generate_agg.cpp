// Writes N synthetic InferenceX aggregate records as one JSON array (the agg_bmk.json shape) for the import benchmark.
#include <cstdio>
#include <cstdlib>

#include "tests/support/agggenerator.h"

int main(int argc, char** argv)
{
    if (argc < 3) {
        std::fprintf(stderr, "usage: bench_generate_agg OUTPUT.json COUNT\n");
        return 2;
    }
    const auto n = std::strtoull(argv[2], nullptr, 10);
    const auto bytes = paretoscope::testsupport::writeAggArray(argv[1], n);
    if (bytes == 0) {
        std::fprintf(stderr, "cannot write %s\n", argv[1]);
        return 1;
    }
    std::printf("%llu records, %.1f MB\n", static_cast<unsigned long long>(n), double(bytes) / 1e6);
    return 0;
}
