// Client capacity against paretoscope-engine-sim on this machine: streams held, tokens/s ingested, client CPU per
// 1,000 tokens (and the emulator's, to see which side is the bottleneck), and the timing error at up to 1,000
// concurrent streams in fixed mode (TTFT 50 ms, ITL 10 ms: 100,000 tokens/s at 1,000 streams), against the nominal
// times and against the emulator's own (its --truth-log: when it read each request and wrote its first and last
// token). Prints figures; not a pass/fail test. The timing error is measured at 1, 100, 500 and --streams concurrent
// streams, or at the --levels given (CTest's smoke run: --streams 20 --levels 1,20).
//   build/tests/bench/bench_client [--streams 1000] [--levels 1,100,500,1000] [--no-capacity] [--repeat N]
//                                  [--client-threads K]
#include <QCoreApplication>
#include <QTemporaryDir>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <unistd.h>
#include <vector>

#include "core/live/levelmetrics.h"
#include "core/live/loadgenerator.h"
#include "core/model/guardedmain.h"
#include "tests/support/simprocess.h"
#include "tests/support/truthlog.h"

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
    LevelResult level;
    std::vector<testsupport::TruthLine> truth; ///< the emulator's, when asked for
};

Run run(QStringList simArgs, int streams, int prompts, int osl, const QString& truthLog = {}, int threads = 1)
{
    if (!truthLog.isEmpty())
        simArgs << QStringLiteral("--truth-log") << truthLog;
    std::optional<testsupport::SimProcess> simHolder(std::in_place, simArgs);
    testsupport::SimProcess& sim = *simHolder;
    Run r;
    double c0 = selfCpu(), s0 = processCpu(sim.pid());
    auto t0 = std::chrono::steady_clock::now();
    RandomWorkload workload({ "sim-model", false, PromptKind::TokenIds }, 128, osl);
    LevelOptions o;
    o.concurrency = streams;
    o.prompts = prompts;
    o.warmups = 0;
    o.clientThreads = threads;
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
    // the first round opens the connections; later rounds reuse them (with client threads, each client's first
    // round starts a little after time zero)
    std::vector<RequestLog> later;
    for (const RequestLog& q : result->requests)
        if (q.scheduled > 0.01)
            later.push_back(q);
    r.laterWait = later.empty() ? 0 : *computeLevelMetrics(later).clientWait.median;
    r.level = std::move(*result);
    simHolder.reset(); // SIGTERM: the emulator writes out its truth log as it exits
    if (!truthLog.isEmpty())
        r.truth = testsupport::readTruthLog(truthLog);
    return r;
}

void timingLevel(int c, const QString& truthLog, int threads)
{
    constexpr double ttft = 0.050, itl = 0.010;
    Run r = run({ QStringLiteral("--ttft-ms"), QStringLiteral("50"), QStringLiteral("--itl-ms"), QStringLiteral("10") },
        c, std::max(10, 2 * c), 64, truthLog, threads);
    if (!r.m.ttft.median)
        return;
    auto cmp = testsupport::compareWithTruth(r.level, r.truth, ttft);
    auto ms = [](const std::vector<double>& v, double q = 0.5) { return testsupport::quantileOf(v, q) * 1e3; };
    std::printf("%8d %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %9.4f %8.2f %8.0f %7.0f%% %7.0f%% %6d %6d\n", c,
        (*r.m.ttft.median - ttft) * 1e3, ms(cmp.ttftTruth), ms(cmp.firstLag), ms(cmp.firstLag, 0.9), ms(cmp.lastLag),
        ms(cmp.e2eTruth), ms(cmp.sendLag), ms(cmp.simLate), (*r.m.tpot.median - itl) * 1e3,
        *r.m.clientWait.median * 1e3, r.m.outputThroughput, 100 * r.clientCpu / r.wall, 100 * r.serverCpu / r.wall,
        cmp.unmatched, cmp.queued);
}

int run(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    int streams = 1000, repeat = 1, threads = 1;
    bool capacity = true;
    std::vector<int> levels;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--no-capacity")
            capacity = false;
        else if (i + 1 < argc && a == "--streams")
            streams = std::atoi(argv[++i]);
        else if (i + 1 < argc && a == "--client-threads")
            threads = std::atoi(argv[++i]);
        else if (i + 1 < argc && a == "--repeat")
            repeat = std::atoi(argv[++i]);
        else if (i + 1 < argc && a == "--levels") {
            std::stringstream list(argv[++i]);
            for (std::string level; std::getline(list, level, ',');)
                levels.push_back(std::atoi(level.c_str()));
        }
    }
    if (levels.empty())
        levels = { 1, 100, 500, streams };
    if (capacity) {
        std::printf("# capacity: no delays (every token due at once), %d streams, 256 tokens each\n", streams);
        Run cap
            = run({ QStringLiteral("--ttft-ms"), QStringLiteral("0"), QStringLiteral("--itl-ms"), QStringLiteral("0") },
                streams, 3 * streams, 256);
        double tokens = static_cast<double>(cap.m.totalOutput);
        std::printf(
            "completed %lld failed %lld, streams held at once %d\n", cap.m.completed, cap.m.failed, cap.maxInFlight);
        std::printf("tokens ingested %.0f in %.2f s: %.0f tok/s\n", tokens, cap.wall, tokens / cap.wall);
        std::printf("client CPU %.2f s = %.3f ms per 1,000 tokens; emulator CPU %.2f s = %.3f ms per 1,000 tokens\n\n",
            cap.clientCpu, cap.clientCpu / tokens * 1e6, cap.serverCpu, cap.serverCpu / tokens * 1e6);
    }

    QTemporaryDir dir;
    const QString truthLog = dir.filePath(QStringLiteral("truth.csv"));
    std::printf("# timing error: fixed TTFT 50 ms, ITL 10 ms, 64 tokens, %d client thread(s); ms, medians unless p90\n"
                "# ttft/nom: client TTFT - 50 ms; ttft/truth: client TTFT - the emulator's (its first token written - "
                "its read of the request)\n"
                "# 1st lag, last lag: the client's receive of the first (last) token - the emulator's write: the "
                "client's own error\n"
                "# e2e/truth: client to the last token - the emulator's; send lag: emulator's read - client's send "
                "(mostly the\n"
                "# emulator reading late); sim late: emulator's first write - (its read + 50 ms); nomatch: requests "
                "not in the truth log;\n# queued: requests whose token bytes waited in the emulator for room in the "
                "socket (its times for them are early)\n",
        threads);
    std::printf("%8s %9s %9s %9s %9s %9s %9s %9s %9s %9s %8s %8s %8s %8s %6s %6s\n", "streams", "ttft/nom",
        "ttft/truth", "1st lag", "p90", "last lag", "e2e/truth", "send lag", "sim late", "TPOT err", "wait", "tok/s",
        "client", "sim", "nomatch", "queued");
    for (int k = 0; k < repeat; ++k)
        for (int c : levels)
            timingLevel(c, truthLog, threads);
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    return paretoscope::guardedMain("bench_client", [&] { return run(argc, argv); });
}
