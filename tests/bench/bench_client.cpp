// Client capacity against paretoscope-engine-sim on this machine: streams held, tokens/s ingested, client CPU per
// 1,000 tokens (and the emulator's, to see which side is the bottleneck), and the timing error at up to 1,000
// concurrent streams in fixed mode (TTFT and TPOT known exactly). Prints figures; not a pass/fail test.
//   build/tests/bench/bench_client [--streams 1000]
#include <QCoreApplication>

#include <chrono>
#include <cstdio>
#include <sstream>
#include <fstream>
#include <sys/resource.h>
#include <unistd.h>

#include "core/live/levelmetrics.h"
#include "core/live/loadgenerator.h"
#include "tests/support/simprocess.h"

using namespace paretoscope;

namespace {

double selfCpu()
{
    rusage u {};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec)
        + static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

double processCpu(qint64 pid)
{
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string stat;
    std::getline(in, stat);
    std::size_t close = stat.rfind(')');
    std::istringstream rest(stat.substr(close + 2));
    std::string field;
    double utime = 0, stime = 0;
    for (int i = 3; i <= 15 && rest >> field; ++i) {
        if (i == 14)
            utime = std::stod(field);
        if (i == 15)
            stime = std::stod(field);
    }
    return (utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

struct Run {
    LevelMetrics m;
    double wall = 0, clientCpu = 0, serverCpu = 0;
    int maxInFlight = 0;
    double laterWait = 0; ///< median client wait of requests after the first round
};

Run run(const QStringList& simArgs, int streams, int prompts, int osl)
{
    testsupport::SimProcess sim(simArgs);
    RandomWorkload workload({ "sim-model", false, PromptKind::TokenIds }, 128, osl);
    LevelOptions o;
    o.concurrency = streams;
    o.prompts = prompts;
    o.warmups = 0;
    Run r;
    double c0 = selfCpu(), s0 = processCpu(sim.pid());
    auto t0 = std::chrono::steady_clock::now();
    auto result = runLevel({ sim.url().toStdString(), {}, false }, workload, o, [&](const LevelProgress& p) {
        r.maxInFlight = std::max(r.maxInFlight, p.inFlight);
        return true;
    });
    r.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.clientCpu = selfCpu() - c0;
    r.serverCpu = processCpu(sim.pid()) - s0;
    if (!result) {
        std::fprintf(stderr, "level failed: %s\n", result.error().c_str());
        return r;
    }
    r.m = computeLevelMetrics(result->requests);
    // the first round opens the connections; later rounds reuse them
    std::vector<RequestLog> later;
    for (const RequestLog& q : result->requests)
        if (q.scheduled > 0)
            later.push_back(q);
    r.laterWait = later.empty() ? 0 : *computeLevelMetrics(later).clientWait.median;
    return r;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    int streams = 1000;
    for (int i = 1; i + 1 < argc; ++i)
        if (std::string(argv[i]) == "--streams")
            streams = std::atoi(argv[i + 1]);

    std::printf("# capacity: no delays (every token due at once), %d streams, 256 tokens each\n", streams);
    Run cap = run({ "--ttft-ms", "0", "--itl-ms", "0" }, streams, 3 * streams, 256);
    double tokens = static_cast<double>(cap.m.totalOutput);
    std::printf("completed %lld failed %lld, streams held at once %d\n", cap.m.completed, cap.m.failed, cap.maxInFlight);
    std::printf("tokens ingested %.0f in %.2f s: %.0f tok/s\n", tokens, cap.wall, tokens / cap.wall);
    std::printf("client CPU %.2f s = %.3f ms per 1,000 tokens; emulator CPU %.2f s = %.3f ms per 1,000 tokens\n",
        cap.clientCpu, cap.clientCpu / tokens * 1e6, cap.serverCpu, cap.serverCpu / tokens * 1e6);

    std::printf("\n# timing error: fixed TTFT 50 ms, ITL 20 ms, 64 tokens\n");
    std::printf("%8s %12s %12s %12s %12s %12s %10s %10s\n", "streams", "TTFT err ms", "TPOT err ms", "wait ms",
        "later wait", "tok/s", "client CPU", "sim CPU");
    for (int c : { 1, 100, 500, streams }) {
        Run r = run({ "--ttft-ms", "50", "--itl-ms", "20" }, c, std::max(10, 2 * c), 64);
        if (!r.m.ttft.median)
            continue;
        std::printf("%8d %12.3f %12.4f %12.3f %12.3f %12.0f %9.0f%% %9.0f%%\n", c, (*r.m.ttft.median - 0.050) * 1e3,
            (*r.m.tpot.median - 0.020) * 1e3, *r.m.clientWait.median * 1e3, r.laterWait * 1e3, r.m.outputThroughput,
            100 * r.clientCpu / r.wall, 100 * r.serverCpu / r.wall);
    }
    return 0;
}
