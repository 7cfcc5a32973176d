// paretoscope-engine-sim: an OpenAI-compatible streaming server that emulates a continuous-batching engine, for
// tests and dry runs where there is no GPU. Everything it serves is a simulation and says so in /v1/models.
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <sys/resource.h>

#include "core/model/guardedmain.h"
#include "manpage/manpage.h"
#include "simserver.h"

using namespace paretoscope::sim;

namespace {

SimServer* g_server = nullptr;

void onSignal(int)
{
    if (g_server)
        g_server->stop();
}

// The options, as usage errors and --help print them and as the man page lists them.
const char* kUsage
    = "usage: paretoscope-engine-sim [--port N] [--model NAME] (--profile b300-sim|mi325x-sim|saturating-sim | "
      "--ttft-ms X --itl-ms Y)\n"
      "       [--fail-500 SHARE] [--fail-429 SHARE] [--drop SHARE] [--stall SHARE] [--stream-error SHARE]\n"
      "       [--text-only] [--flood line|events] [--api-key KEY] [--max-model-len N] [--seed N]\n"
      "       [--fail-first N [--fail-first-status CODE]] [--prefix-hits SHARE] [--prompt-offset N]\n"
      "       [--truth-log FILE]\n";
const char* kNotes = "Prints \"listening on 127.0.0.1:PORT\" once it accepts connections; stops on SIGINT or SIGTERM.\n"
                     "--truth-log FILE: one CSV line per streamed request (id,received_ns,first_token_ns,last_token_ns,"
                     "tokens,\nqueued,outcome), CLOCK_MONOTONIC ns of when the request was read and the first and last "
                     "token were written.\n";

int usage(const char* why)
{
    if (why)
        std::fprintf(stderr, "paretoscope-engine-sim: %s\n", why);
    std::fprintf(stderr, "%s%s", kUsage, kNotes);
    return 2;
}

int manPage()
{
    namespace man = paretoscope::man;
    std::string synopsis = kUsage;
    synopsis.erase(0, std::strlen("usage: "));
    std::fputs(man::page("paretoscope-engine-sim", PARETOSCOPE_VERSION,
                   "an OpenAI-compatible streaming server that emulates a continuous-batching engine",
                   { "paretoscope-engine-sim [OPTIONS]" },
                   { { "DESCRIPTION",
                         man::paragraph("For tests and dry runs of paretoscope-cli bench where there is no GPU: "
                                        "everything it serves is a simulation and says so in /v1/models.")
                             + man::paragraph(kNotes) },
                       { "OPTIONS", man::verbatim(synopsis) },
                       { "SEE ALSO", man::paragraph("paretoscope-cli(1), paretoscope(1)") } })
                   .c_str(),
        stdout);
    return 0;
}

bool parseShare(const char* text, double& out)
{
    char* end = nullptr;
    out = std::strtod(text, &end);
    return end && *end == '\0' && out >= 0 && out <= 1;
}

// The command line read.
struct Arguments {
    ServerOptions options;
    std::string profile, truthLog;
    double ttftMs = -1, itlMs = -1;
};

// Reads the command line into `args`; an exit code when main is to return at once (help, version, man page, a usage
// error).
std::optional<int> parseArguments(int argc, char** argv, Arguments& args)
{
    ServerOptions& options = args.options;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--help" || a == "-h")
            return usage(nullptr), 0;
        if (a == "--version")
            return std::printf("paretoscope-engine-sim %s (licence %s)\n", PARETOSCOPE_VERSION, PARETOSCOPE_LICENSE), 0;
        if (a == "--man")
            return manPage();
        if (a == "--text-only") {
            options.faults.textOnly = true;
            continue;
        }
        if (i + 1 >= argc)
            return usage(("missing value after " + a).c_str());
        const char* v = argv[++i];
        double share = 0;
        if (a == "--port")
            options.port = std::atoi(v);
        else if (a == "--api-key")
            options.apiKey = v;
        else if (a == "--truth-log")
            args.truthLog = v;
        else if (a == "--model")
            options.model = v;
        else if (a == "--profile")
            args.profile = v;
        else if (a == "--ttft-ms")
            args.ttftMs = std::atof(v);
        else if (a == "--itl-ms")
            args.itlMs = std::atof(v);
        else if (a == "--fail-first")
            options.faults.failFirst = std::atoi(v);
        else if (a == "--fail-first-status")
            options.faults.failFirstStatus = std::atoi(v);
        else if (a == "--prompt-offset")
            options.faults.promptOffset = std::atoi(v);
        else if (a == "--prefix-hits") {
            if (!parseShare(v, options.faults.prefixHits))
                return usage("--prefix-hits takes a share between 0 and 1");
        } else if (a == "--max-model-len")
            options.maxModelLen = std::atoi(v);
        else if (a == "--flood") {
            std::string kind = v;
            if (kind != "line" && kind != "events")
                return usage("--flood takes line (one endless data line) or events (token events forever)");
            options.faults.flood = kind == "line" ? 1 : 2;
        } else if (a == "--seed")
            options.faults.seed = static_cast<unsigned>(std::strtoul(v, nullptr, 10));
        else if (a == "--fail-500" || a == "--fail-429" || a == "--drop" || a == "--stall" || a == "--stream-error") {
            if (!parseShare(v, share))
                return usage((a + " takes a share between 0 and 1").c_str());
            (a == "--fail-500"          ? options.faults.http500
                    : a == "--fail-429" ? options.faults.http429
                    : a == "--drop"     ? options.faults.drop
                    : a == "--stall"    ? options.faults.stall
                                        : options.faults.streamError)
                = share;
        } else
            return usage(("unknown option " + a).c_str());
    }
    return std::nullopt;
}

int run(int argc, char** argv)
{
    Arguments args;
    if (const std::optional<int> exitCode = parseArguments(argc, argv, args))
        return *exitCode;
    ServerOptions& options = args.options;
    const std::string& profile = args.profile;
    std::unique_ptr<SimEngine> engine;
    if (!profile.empty()) {
        Profile p = profileNamed(profile);
        if (p.name.empty())
            return usage(("unknown profile " + profile + " (b300-sim, mi325x-sim, saturating-sim)").c_str());
        engine = std::make_unique<BatchEngine>(p);
        options.label = profile;
    } else if (args.ttftMs >= 0 && args.itlMs >= 0) {
        engine = std::make_unique<FixedEngine>(args.ttftMs / 1000.0, args.itlMs / 1000.0);
        options.label = "fixed";
    } else {
        return usage("choose --profile or both --ttft-ms and --itl-ms");
    }

    // a thousand streams need a thousand sockets: lift the soft limit to the hard one
    rlimit lim {};
    if (getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < lim.rlim_max) {
        lim.rlim_cur = lim.rlim_max;
        setrlimit(RLIMIT_NOFILE, &lim);
    }
    std::signal(SIGPIPE, SIG_IGN);
    SimServer server(options, std::move(engine));
    if (!args.truthLog.empty() && !server.openTruthLog(args.truthLog)) {
        std::fprintf(stderr, "paretoscope-engine-sim: cannot write the truth log %s: %s\n", args.truthLog.c_str(),
            std::strerror(errno));
        return 1;
    }
    int port = server.listen();
    if (port < 0) {
        std::fprintf(
            stderr, "paretoscope-engine-sim: cannot listen on 127.0.0.1:%d: %s\n", options.port, std::strerror(errno));
        return 1;
    }
    g_server = &server;
    std::signal(SIGINT, onSignal);
    std::signal(SIGTERM, onSignal);
    std::printf("listening on 127.0.0.1:%d (simulation: %s)\n", port, options.label.c_str());
    std::fflush(stdout);
    server.run();
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    return paretoscope::guardedMain("paretoscope-engine-sim", [&] { return run(argc, argv); });
}
