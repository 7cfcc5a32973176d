// paretoscope-cli: the command-line front end. Every number it prints comes from the same core functions the GUI
// calls; this file holds the command table (names, store access, options, help) and dispatches to the commands
// (clireports.cpp, clibench.cpp, clicluster.cpp, clihistory.cpp, cliplan.cpp).
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include <unistd.h>

#include "app/cliaccuracy.h"
#include "app/cliargs.h"
#include "app/clibench.h"
#include "app/clicluster.h"
#include "app/clicommon.h"
#include "app/clihelp.h"
#include "app/clihistory.h"
#include "app/cliplan.h"
#include "app/clireplay.h"
#include "app/clireport.h"
#include "app/clireports.h"
#include "app/clisync.h"
#include "app/escapingstream.h"
#include "core/model/guardedmain.h"

using namespace paretoscope;
using namespace paretoscope::cli;

namespace {

const char* kUsageHead = R"(paretoscope-cli: LLM-serving throughput vs interactivity, from the command line.

Usage: paretoscope-cli COMMAND [OPTIONS]; paretoscope-cli --version prints the version.

Commands:
)";
const char* kUsageFoot = R"(
Every scoped command also takes --from and --to (run dates, yyyy-mm-dd, inclusive), and --include-marked: runs
marked as not trusted (a live level with more than 5% of its requests failed, or one cut by a timeout) then count in
frontiers and readings; without it they are left out. --exclude-flagged leaves out runs with validity flags (a live
level that was client-bound, below its concurrency by Little's law, hit a prefix cache on random tokens, had its
prompt miscounted, more than 1% failed or telemetry gaps). --runs latest (the default) is the InferenceX site's rule (since its migrations 011 and 014): per curve (model,
lengths or workload, hardware, engine, precision, spec decoding, disaggregation; an agentic trace's curve spans its
spec decoding and disaggregation) only the points of its newest run dated on or before --as-of yyyy-mm-dd (default:
the latest run date; then the run that started last, then the highest run id; a run without a date counts as dated
on its import day): every configuration and concurrency that run measured, none borrowed from an older one. Where the
newest run measured fewer points than the run it replaced, the command says so. --runs latest-per-configuration
applies the same per line (a configuration: the curve plus prefill and decode tp, ep, dp-attention, workers and GPUs;
the site's earlier rule, denser); --runs all keeps every run
up to --as-of. A run is an InferenceX workflow run (its run_url), a live session, a cluster task, or the import the
points came in with. --basis serving (the default, the site's) gives a disaggregated run's output tokens per decode
GPU and input tokens per prefill GPU; --basis all every metric per all its GPUs. --model takes the name a store
holds or the InferenceX site's name of it (DeepSeek-R1-0528 for dsr1).
--ttft-max S (with --ttft-stat median|p99, median by default) and --tpot-max S are service-level limits in seconds:
only runs whose TTFT statistic and median TPOT are at or below them count (a run without the statistic does not
meet a limit), a filter like the dates: --runs latest then keeps each curve's latest run that meets them.
Without --db the store is $XDG_DATA_HOME/paretoscope/paretoscope.sqlite (default ~/.local/share/...), which
holds the bundled dataset from its first use.
)";

// One command of the CLI: its name, what it needs of the store, the options it accepts (name -> takes a value), its
// lines of `help`, and what runs it.
struct Command {
    std::string name;
    StoreNeed store = StoreNeed::None;
    std::map<std::string, bool> options;
    const char* usage = "";
    int (*run)(const Invocation&) = nullptr;
};

// Every command, in the order `help` lists them.
const std::vector<Command>& commands()
{
    static const std::vector<Command> table = [] {
        const std::map<std::string, bool> scopeOpts { { "db", true }, { "model", true }, { "isl", true },
            { "osl", true }, { "workload", true }, { "hardware", true }, { "engine", true }, { "precision", true },
            { "spec", true }, { "format", true }, { "metric", true }, { "from", true }, { "to", true },
            { "include-marked", false }, { "exclude-flagged", false }, { "runs", true }, { "as-of", true },
            { "ttft-max", true }, { "tpot-max", true }, { "ttft-stat", true }, { "basis", true } };
        auto with = [&](std::map<std::string, bool> extra) {
            extra.insert(scopeOpts.begin(), scopeOpts.end());
            return extra;
        };
        const std::map<std::string, bool> importOpts { { "db", true }, { "hardware", true }, { "gpus", true },
            { "prefill-gpus", true }, { "decode-gpus", true }, { "engine", true }, { "precision", true },
            { "model", true }, { "isl", true }, { "osl", true }, { "tp", true }, { "spec", true },
            { "workload", true } };
        return std::vector<Command> {
            { "import", StoreNeed::Write, importOpts,
                R"(  import  [--db FILE] [--hardware H] [--gpus N | --prefill-gpus N --decode-gpus N] [--engine E]
          [--precision P] [--model M] [--isl N --osl N] [--tp N] [--spec S] [--workload W] PATH_OR_URL...
      Imports files, folders (recursively: .json, .jsonl, .csv) or InferenceX API URLs. Prints one JSON object
      per input: {"source","format","imported","duplicates"} or {"source","error"}. Exit 1 if any input failed.
      "notes" (one line per cause, naming the records and the field) says what was imported with a value left
      out (an optional throughput or power of 0) or read differently (a dataset's measured mean lengths).
)",
                cli::cmdImport },
            { "sync", StoreNeed::Write,
                { { "db", true }, { "source", true }, { "models", true }, { "sequences", true }, { "history", false },
                    { "latest-only", false }, { "evaluations", false }, { "since", true }, { "jobs", true },
                    { "max-time", true }, { "any-redirect", false } },
                R"(  sync  [--db FILE] [--source URL] [--models M,...] [--sequences 1k/1k,...] [--history|--latest-only]
          [--evaluations] [--since yyyy-mm-dd] [--jobs N] [--max-time SECONDS] [--any-redirect]
      Brings the store up to date with the InferenceX API (docs/sync.md): the models and sequences its
      availability route lists (or those named, by site name or key), each with its whole history (the default)
      or its latest view, and the accuracy runs with --evaluations. A second sync fetches only the models and
      sequences with newer dates and stores only newer runs. Up to --jobs requests at once (default 4), retried on
      429, 5xx and cut connections. Prints one JSON line: per request what it imported or its error, the models
      and sequences already up to date, new runs per model, the groups whose newest run changed, and the readings
      (30 to 200 tok/s/user) that moved more than 5%. Exit 1 if a request failed or the sync was interrupted;
      what was imported stays, and the next sync goes on from there. --source names another server with the
      same routes (default https://inferencex.semianalysis.com/api/v1). A request may take --max-time seconds in
      all (default 600); redirects go to the source's own host only, unless --any-redirect.
)",
                cli::cmdSync },
            { "changes", StoreNeed::Read, { { "db", true }, { "since", true } },
                R"(  changes  [--db FILE] --since yyyy-mm-dd
      Prints the summary of each sync that finished on or after the day (UTC), one JSON line each, as sync
      printed it.
)",
                cli::cmdChanges },
            { "ladder", StoreNeed::Read,
                with({ { "targets", true }, { "tier", true }, { "price", true }, { "clamp", false },
                    { "hide-sparse", false }, { "reading", true }, { "baseline", true }, { "min-accuracy", true },
                    { "allow-unevaluated", false }, { "accuracy-task", true } }),
                R"(  ladder  [--db FILE] --model M (--isl N --osl N | --workload W) [--hardware H] [--engine E] [--precision P]
          [--spec S] [--targets 30,50,75,100,150,200] [--tier NAME | --price USD_PER_GPU_HR]
          [--metric total|input|output|tok-per-mw|j-per-token|measured-j-per-token] [--clamp] [--hide-sparse]
          [--reading deployable|frontier] [--baseline H] [--min-accuracy TASK:MIN|TASK:best-Nse [--allow-unevaluated]] [--accuracy-task T]
          [--format json|csv|table]
      The best tok/s/GPU per hardware at each interactivity target (tok/s/user), with engine, precision and
      $ per million tokens; energy per token in JSON and CSV (all-in provisioned from the hardware's kW per GPU,
      and measured, GPU only, where runs carry average power); an energy --metric adds it to the table. A reading between measured points more than 2x apart says "sparse": true;
      --hide-sparse leaves such readings out. Each target has two readings: what one configuration delivers
      (deployable: the target a floor, read between two concurrencies of that configuration only) and the
      frontier across configurations (the site's); --reading (default deployable) says which the cost, the
      energy, "tput_per_gpu" and the ratios are of, and both are printed, with why they differ.
      --baseline H adds each reading's ratio to H's at the same target
      (the explorer's "vs H": "vs_baseline" and "vs_baseline_status" in JSON and CSV, a "vs H" table column).
      Where the store holds evaluations, each reading says the accuracy of its group ("accuracy", an accuracy
      column); --min-accuracy gsm8k:0.95 (or 95%, or best-2se: within 2 standard errors of the best on its
      hardware) leaves the groups below it, and those not evaluated unless --allow-unevaluated, out of the readings.
      The accuracy shown is on --accuracy-task (default: the requirement's task, else gsm8k, else the first).
)",
                cli::cmdLadder },
            { "frontier", StoreNeed::Read,
                with({ { "x", true }, { "min-accuracy", true }, { "allow-unevaluated", false } }),
                R"(  frontier [--db FILE] --model M (--isl N --osl N | --workload W) [--hardware H] [--engine E] [--precision P]
          [--spec S] [--metric total|input|output] [--x interactivity|e2el|ttft|ttft-p99] [--format json|csv]
          [--min-accuracy TASK:MIN|TASK:best-Nse [--allow-unevaluated]]
      Each group's Pareto frontier points with their full configuration and source. --x picks the frontier's x:
      interactivity (higher is better, the default), or median end-to-end latency, median TTFT or p99 TTFT (lower
      is better: the Pareto set of 1 / latency against tok/s/GPU), listed by latency ascending. --min-accuracy
      (see ladder) leaves out the groups that do not meet it, and says on stderr how many and why.
)",
                cli::cmdFrontier },
            { "sol", StoreNeed::Read, scopeOpts,
                R"(  sol     [--db FILE] --model M --isl N --osl N [--hardware H] [--precision P] [--metric total|input|output]
      The speed-of-light bound per hardware and precision in scope (docs/probe.md): its points
      (tok/s/user, tok/s/GPU, batch, GPUs) and what it assumed; and why a hardware has none.
)",
                cli::cmdSpeedOfLight },
            { "summary", StoreNeed::Read,
                with({ { "tier", true }, { "target", true }, { "hide-sparse", false }, { "reading", true },
                    { "baseline", true }, { "min-accuracy", true }, { "allow-unevaluated", false },
                    { "accuracy-task", true } }),
                R"(  summary [--db FILE] --model M (--isl N --osl N | --workload W) [--hardware H] [--target 50] [--tier NAME]
          [--reading deployable|frontier] [--baseline H] [--min-accuracy TASK:MIN|TASK:best-Nse [--allow-unevaluated]]
          [--accuracy-task T]
      The quick answer per hardware as Markdown: tok/s/GPU at the target as one configuration delivers it and
      as the frontier across configurations reads it, $ per million tokens at the --reading (deployable), engine,
      configurations, engines, precisions, run dates, peak, fastest TTFT and TPOT (impossible values flagged);
      with --baseline, a row of each reading's ratio to H's. With --min-accuracy (see ladder), the readings among
      the groups that meet it, and a sentence on what it cost: the cheapest $/1M tokens without and with it.
)",
                cli::cmdSummary },
            { "history", StoreNeed::Read,
                with({ { "target", true }, { "targets", true }, { "tier", true }, { "price", true },
                    { "hide-sparse", false }, { "diff", true } }),
                R"(  history [--db FILE] --model M (--isl N --osl N | --workload W) [filters] [--target 50]
          [--tier NAME | --price USD] [--metric total|input|output] [--hide-sparse] [--format json|csv|table]
          [--diff DATE1,DATE2 [--targets 30,50,...]]
      Per hardware, for each run date in scope, the ladder reading at the target as of that date (docs/cli.md, history):
      {"date","status","tput_per_gpu","engine","precision","spec_decoding","cost_per_mtok","tput_low","tput_high"}.
      --diff: per hardware and target (--targets, or --target, or the ladder's), the readings as of two dates
      and the change in %, which says "within run-to-run spread" where the two readings' spreads overlap.
)",
                cli::cmdHistory },
            { "accuracy", StoreNeed::Read,
                { { "db", true }, { "model", true }, { "task", true }, { "as-of", true }, { "metric", true },
                    { "format", true } },
                R"(  accuracy [--db FILE] --model M [--task gsm8k] [--as-of DATE] [--metric em_strict|em_flexible|score]
          [--format table|json|csv]
      Per group of the model (hardware, engine, precision, spec decoding), the accuracy that comes with it on the
      task (InferenceX's evaluations, imported like runs): per configuration its latest evaluation on or before the
      date, the group's latest configuration read; "not evaluated" where none (docs/evaluations.md).
)",
                cli::cmdAccuracy },
            { "precision", StoreNeed::Read,
                with({ { "target", true }, { "tier", true }, { "price", true }, { "task", true } }),
                R"(  precision [--db FILE] --model M (--isl N --osl N | --workload W) [filters] [--target 50]
          [--tier NAME | --price USD] [--task gsm8k] [--format table|json|csv]
      Per hardware, each precision's best tok/s/GPU at the target with its $/1M tokens and the accuracy of the
      group read; FP4 against FP8: the tok/s/GPU and $ ratios and the accuracy difference with its standard
      error, "within error" where the two intervals of two standard errors overlap (docs/evaluations.md).
)",
                cli::cmdPrecision },
            { "plan", StoreNeed::Read, cli::planOptions(),
                R"(  plan    [--db FILE] --model M (--isl N --osl N | --workload W) [filters] --demand VALUE
          --unit tok/s|output-tok/s|tok/day|req/s|users --target X [--ttft-max S [--ttft-stat median|p99]]
          [--tpot-max S] [--headroom 0.25] [--gpus-per-node H=N,...] [--tier NAME | --price USD | --tco FILE]
          [--sweep-targets 20,30,...] [--hide-sparse] [--exact-target] [--format json|csv|table]
          [--budget-mw X | --budget-usd-month X | --max-cost-per-mtok X | --mix SPEC | --mix-file FILE]
          [--min-accuracy TASK:MIN|TASK:best-Nse [--allow-unevaluated]] [--accuracy-task T]
      The capacity plan (docs/plan.md): per hardware, the GPUs (whole replicas of the configuration that meets
      the target), nodes or NVL72 racks, all-in MW, J/token, $/hour, $/month and $ per million tokens (list and
      at the demand) to serve the demand at the target interactivity, the cheapest marked. Sized on what one
      configuration delivers (a measured point, or between two of its concurrencies; never between two
      configurations), the frontier's reading beside it. The target is a floor: hardware whose points are all
      faster is sized at its best ("faster_than_target"); --exact-target refuses those. Only runs meeting
      --ttft-max / --tpot-max (seconds) count; a hardware none of whose runs meets them says "slo_not_met".
      --tco FILE prices each GPU-hour from a TCO model (resources/tco_default.json is an example to edit).
      --sweep-targets adds per hardware the plan at each target (the cost of speed).
      --budget-mw / --budget-usd-month (in place of --demand): per hardware, the whole replicas that fit the
      budget and what they serve at the target (tok/s, output tok/s, users, req/s), headroom kept spare.
      --max-cost-per-mtok: per hardware, the highest interactivity whose list $ per million tokens stays within
      the cap, and the plan there. --mix 1024/1024:0.7,8192/1024:0.3 (ISL/OSL:SHARE[@TARGET], on --model) or
      --mix-file FILE ({"parts": [{"model", "isl", "osl", "share", "target"}]}): each part's share of the
      demand planned on its own scope, summed per hardware, the cheapest for the whole mix and per part.
      --min-accuracy (see ladder) plans only on the groups that meet it ("cheapest hardware meeting 40 tok/s/user
      and GSM8K >= 95%"); a hardware none of whose groups meets it says "accuracy_not_met".
)",
                cli::cmdPlan },
            { "report", StoreNeed::Read, cli::reportOptions(),
                R"(  report  [--db FILE] --model M (--isl N --osl N | --workload W) [filters] [--target 50]
          [--tier NAME | --price USD] [--baseline H] [--demand VALUE --unit U [plan options]] --out FILE.pdf|.html
      The view as a report to take to a meeting (docs/report.md): a PDF (charts as vector paths) or one
      self-contained HTML file (charts as inline SVG): the question (model, sequence, precision, target,
      limits, tier, as-of date, runs), the frontier with the speed of light, the readings at the target (with
      --baseline, each one's ratio), the ladder at 30 to 200 tok/s/user under every tier, the plan with its
      cost of speed (with --demand, as `plan` takes it), accuracy where evaluations are stored, the history of
      the readings, the method, the sources (files and URLs without credentials, run ids and dates) and the
      `ladder` command that prints the same readings. Prints {"report": FILE, "sections": N}.
)",
                cli::cmdReport },
            { "replay", StoreNeed::Read, cli::replayOptions(),
                R"(  replay  [--db FILE] --model M (--isl N --osl N | --workload W) [filters] [--as-of DATE] [--target 50]
          [--tier NAME | --price USD] --out FILE.mp4|.gif [--fps 2] [--size 1920x1080] [--hold 2]
      The as-of replay as a video (docs/report.md): one frame per run date of the scope (up to --as-of), each
      the explorer's chart as exported as of that date, its caption giving the date and each hardware's best
      reading at the target; the last date held --hold seconds. MP4 (H.264) or an animated GIF, by the name's
      extension; the file is written whole at the end (Ctrl-C leaves none). Prints {"replay", "days",
      "frames", "first", "last", "width", "height", "fps"}.
)",
                cli::cmdReplay },
            { "tiers", StoreNeed::None, { { "format", true } },
                R"(  tiers   [--format json|table]       The shipped pricing tiers ($/GPU/hr).
)",
                cli::cmdTiers },
            { "scopes", StoreNeed::Read, { { "db", true }, { "format", true } },
                R"(  scopes  [--db FILE] [--format json|table]   Models and sequence lengths in the store.
)",
                cli::cmdScopes },
            { "export", StoreNeed::Read, with({ { "evaluations", false } }),
                R"(  export  [--db FILE] --model M (--isl N --osl N | --workload W) [--hardware H] [--format csv|json]
  export  [--db FILE] --model M --evaluations [--format csv|json]
      Every run in scope in Paretoscope's own format (importable again); with --evaluations, every evaluation
      (accuracy run) of the model instead, in the same way (docs/evaluations.md).
)",
                cli::cmdExport },
            { "seed", StoreNeed::Write, { { "db", true } },
                R"(  seed    [--db FILE]                 Imports the bundled DeepSeek V4.1 Flash dataset (idempotent).
)",
                cli::cmdSeed },
            { "bench", StoreNeed::Write, cli::benchOptions(),
                R"(  bench   (--recipe NAME | --endpoint URL) --model M --isl N --osl N --concurrency 1,4,16,...
          [--prompts-per-level K] [--warmups W] [--hardware H --gpus N --engine E --precision P] [--db FILE]
          [--format json] [--emit-sbatch FILE] [--workload random|agentic] [--request-rate R] [--chat]
          [--slo-ttft-ms X] [--slo-tpot-ms X] [--slo-e2el-ms X] [--request-timeout S] [--stall-timeout S]
          [--api-key-env VAR] [--tp N] [--ep N] [--port N] [--max-seqs N] [--kv-cache-dtype T] [--devices 0,1]
          [--max-model-len N] [--engine-log FILE] [--recipe-file FILE --confirm-custom-command] [--print-config]
          [--repeats N] [--profile P] [--targets 30,50,... --max-levels N (with --concurrency auto)]
          [--client-threads N] [--dp-attention]
  bench   --matrix FILE [--db FILE] [--emit-sbatch DIR [--submit]]
      A live session: a concurrency sweep (closed loop, 10 x c prompts after 2 x c warm-ups, as InferenceX) against
      an OpenAI-compatible endpoint, or against an engine launched from a recipe (no shell; stopped at the end, on
      Ctrl-C and on failure). One JSON object per level as it finishes (seconds, tok/s); each level is stored at
      once. --emit-sbatch writes a Slurm script that runs the same session on a node and leaves a file to import.
      The API key comes from $OPENAI_API_KEY (or --api-key-env) and is never stored. Without --tp, tp is the GPU
      count (and --gpus is tp without it); --print-config prints the session's configuration as it would be stored
      (the explorer's dialog makes the same of the same choices) and runs nothing. --client-threads N spreads
      each level's streams over N client threads (default: 1 up to 256 streams, then one per 256 streams, up to
      this machine's hardware threads). --repeats N runs each concurrency N times in a row, stored as N runs of
      one configuration: the spread of reruns (tput_low, tput_high) of `ladder --runs all`, or of the latest
      day's repeats with the default --runs latest. --dp-attention runs attention data parallel over the tp
      GPUs (tp above 1; the FFN/MoE stays tensor or expert parallel): a recipe's engine gets its
      dp_attention_args (SGLang --enable-dp-attention --dp-size TP; vLLM --data-parallel-size TP
      --tensor-parallel-size 1; the emulator refuses it), and the runs are stored with dp_attention true, a
      configuration of their own (for --endpoint: it labels the server's runs).
      --matrix FILE runs a sweep matrix's configurations (docs/cluster.md) one after another here; with
      --emit-sbatch DIR it writes them as one Slurm array job (DIR/array.sbatch, a task per configuration with its
      nodes and GPUs; DIR/submit.sh submits it) and with --submit runs sbatch and prints the job id(s).
      --concurrency auto chooses the levels: from 1 up while throughput per GPU rises (stopping at
      over-saturation), then between neighbours until every target (--targets, default 30,50,75,100,150,200
      tok/s/user) has a level within 15% on its side, at most --max-levels (12) levels; each level says why
      it was chosen ("chosen_because"). Every level carries validity flags ("validity": client-bound,
      low-concurrency, prefix-cache, prompt-mismatch, failed, telemetry-gaps); --exclude-flagged leaves
      flagged runs out of a scoped command.
)",
                cli::cmdBench },
            { "cluster", StoreNeed::Write, cli::clusterOptions(),
                R"(  cluster status DIR [--format table|json] [--db FILE]
  cluster collect DIR [--db FILE] [--watch [--interval S]]
      A matrix's Slurm array (the DIR of bench --matrix --emit-sbatch). status: each task pending, running,
      finished or failed (with the reason), from its status file, else squeue and sacct; with --db, whether it was
      collected into that store. collect: imports each finished task's results/TASK.json once (a JSON line per
      task: imported, duplicates), then one line per failed task with its reason; --watch keeps importing every
      S seconds (5) as tasks finish until the array ends.
)",
                cli::cmdCluster },
            { "sessions", StoreNeed::WriteToRecover, { { "db", true }, { "format", true }, { "recover", false } },
                R"(  sessions [--db FILE] [--format table|json] [--recover]
      Live sessions and their status (interrupted ones marked). --recover stores the levels a session measured
      but could not store (a full disk, a damaged store), kept meanwhile in STORE-sessions/.
)",
                cli::cmdSessions },
            { "check", StoreNeed::None, { { "db", true } },
                R"(  check   [--db FILE]                 Checks the store for damage (SQLite's integrity and reference checks, per
                                      table); exit 0 when whole, 1 when damaged.
)",
                cli::cmdCheck },
            { "recover", StoreNeed::None, { { "db", true }, { "to", true } },
                R"(  recover [--db FILE] --to NEW        Copies every run, series, source and session that can still be read from a
                                      damaged store into a new store NEW, and says what was saved and lost.
)",
                cli::cmdRecover },
        };
    }();
    return table;
}

std::string usageText()
{
    std::string text = kUsageHead;
    for (const Command& c : commands())
        text += c.usage;
    return text + kUsageFoot;
}

std::vector<CommandHelp> commandHelp()
{
    std::vector<CommandHelp> help;
    for (const Command& c : commands())
        help.push_back({ c.name, c.options, c.usage });
    return help;
}

// The command whose help was asked for: "help COMMAND", or COMMAND with --help or -h before any "--"; empty where
// none was (a value that reads --help, as in --model --help, counts as asking: no option takes such a value).
std::string commandHelpAsked(int argc, char** argv)
{
    if (argc < 3)
        return {};
    std::string first = argv[1];
    if (first == "help" || first == "--help" || first == "-h")
        return argc == 3 ? std::string(argv[2]) : std::string();
    for (int i = 2; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--")
            break;
        if (arg == "--help" || arg == "-h")
            return first;
    }
    return {};
}

int run(int argc, char** argv)
{
    // names, reasons and file contents from someone else's data are printed: never as terminal control sequences
    escapeControlCharacters(std::cerr);
    if (::isatty(STDOUT_FILENO))
        escapeControlCharacters(std::cout);
    // before any command: the version, and the hidden man page and completion words (from the command table)
    const std::string first = argc > 1 ? argv[1] : "";
    if (first == "--version") {
        std::cout << "paretoscope-cli " << PARETOSCOPE_VERSION << " (licence " << PARETOSCOPE_LICENSE << ")\n";
        return 0;
    }
    if (first == "--man") {
        std::cout << cliManPage(commandHelp(), kUsageFoot);
        return 0;
    }
    if (first == "__complete")
        return complete(commandHelp(), std::vector<std::string>(argv + 2, argv + argc));
    // COMMAND --help (or -h) anywhere before a "--", and help COMMAND: that command's lines of help
    if (const std::string asked = commandHelpAsked(argc, argv); !asked.empty()) {
        for (const Command& c : commands())
            if (c.name == asked) {
                std::cout << "Usage: paretoscope-cli COMMAND [OPTIONS] (paretoscope-cli help: every command)\n\n"
                          << c.usage;
                return 0;
            }
        return usageError("unknown command '" + asked + "'");
    }
    std::map<std::string, std::map<std::string, bool>> spec { { "help", {} }, { "--help", {} }, { "-h", {} } };
    for (const Command& c : commands())
        spec[c.name] = c.options;
    std::string error;
    auto args = cli::parseArgs(argc, argv, spec, error);
    if (!args) {
        if (argc < 2) {
            std::cerr << usageText();
            return kUsageError;
        }
        return usageError(error);
    }
    const std::string& name = args->command;
    if (name == "help" || name == "--help" || name == "-h") {
        std::cout << usageText();
        return 0;
    }
    if (name != "import" && name != "cluster" && !args->positional.empty())
        return usageError("'" + name + "' takes no positional arguments (got '" + args->positional[0] + "')");
    for (const Command& c : commands())
        if (c.name == name)
            return c.run(Invocation { *args, c.store, argc, argv });
    return usageError("unknown command '" + name + "'"); // parseArgs knows the same names: not reached
}

} // namespace

int main(int argc, char** argv)
{
    return paretoscope::guardedMain("paretoscope-cli", [&] { return run(argc, argv); });
}
