// The fuzz targets' bodies, shared by the libFuzzer executable (paretoscope_fuzz --target=NAME, clang builds) and the
// regression suite tst_fuzz, which feeds every seed and every input that once crashed through them in every build.
#include "fuzztargets.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string_view>

#include "core/analysis/hardwarepower.h"
#include "core/analysis/planmix.h"
#include "core/analysis/tco.h"
#include "core/analysis/viewoptions.h"
#include "core/import/bytesource.h"
#include "core/import/csvreader.h"
#include "core/import/documentstream.h"
#include "core/import/formats/evaluationmapper.h"
#include "core/import/formats/formatdetect.h"
#include "core/import/formats/jsonrecordparser.h"
#include "core/import/formats/recordmapper.h"
#include "core/import/importer.h"
#include "core/live/cluster.h"
#include "core/live/matrix.h"
#include "core/live/prometheus.h"
#include "core/live/recipe.h"
#include "core/live/requestcodec.h"
#include "core/live/sessionconfig.h"
#include "core/live/sessionjournal.h"
#include "core/live/sseparser.h"
#include "core/model/outsidejson.h"
#include "core/model/printable.h"
#include "core/store/runstore.h"
#include "core/sync/synccatalog.h"
#include "tests/fuzz/flatcheck.h"

namespace paretoscope::fuzz {

namespace {

std::string bytes(const std::uint8_t* data, std::size_t size)
{
    return std::string(reinterpret_cast<const char*>(data), size);
}

ImportOptions callerFields()
{
    // vLLM and SGLang need these from the caller; with them the mappers go all the way
    ImportOptions o;
    o.hardware = "b300";
    o.engine = "vllm";
    o.precision = "fp4";
    o.model = "m";
    o.gpus = 8;
    return o;
}

// One importer: its records cut out of the stream, walked into that format's mapper, finished.
template <Format F> void importer(const std::uint8_t* data, std::size_t size)
{
    MemorySource source("fuzz.json", bytes(data, size));
    JsonRecordParser parser;
    auto mapper = makeMapper(F, callerFields());
    StreamLimits limits;
    limits.maxElementBytes = 1 << 20;
    (void)forEachJsonElement(source, limits,
        [&](const JsonElement& e) -> Status {
            mapper->begin();
            if (auto st = parser.walk(e, *mapper); !st)
                return st;
            auto r = mapper->finish();
            if (!r)
                return Error { r.error() };
            (void)contentHash(*r);
            return ok();
        },
        {});
}

// An evaluations' mapper (InferenceX's rows, Paretoscope's own records): each record walked in, finished as an
// evaluation, its content digested.
template <Format F> void evaluations(const std::uint8_t* data, std::size_t size)
{
    MemorySource source("fuzz.json", bytes(data, size));
    JsonRecordParser parser;
    auto mapper = makeMapper(F, callerFields());
    StreamLimits limits;
    limits.maxElementBytes = 1 << 20;
    (void)forEachJsonElement(source, limits,
        [&](const JsonElement& e) -> Status {
            mapper->begin();
            if (auto st = parser.walk(e, *mapper); !st)
                return st;
            auto r = mapper->finishEvaluation();
            if (!r)
                return Error { r.error() };
            (void)r->contentKey();
            return ok();
        },
        {});
}

// The detector: each record's keys, then the format they name; and a CSV header.
void detector(const std::uint8_t* data, std::size_t size)
{
    MemorySource source("fuzz.json", bytes(data, size));
    JsonRecordParser parser;
    StreamLimits limits;
    limits.maxElementBytes = 1 << 20;
    (void)forEachJsonElement(source, limits,
        [&](const JsonElement& e) -> Status {
            auto keys = parser.keys(e);
            if (keys)
                (void)detectJsonFormat(*keys);
            return ok();
        },
        {});
    MemorySource csv("fuzz.csv", bytes(data, size));
    CsvReader reader(csv, 1 << 20);
    std::vector<std::string> header;
    std::uint64_t line = 0;
    if (auto r = reader.next(header, line); r && *r)
        (void)isParetoscopeCsvHeader(header);
}

// The whole import into a store: detection, mapping, the transaction (CSV takes this path).
void store(const std::uint8_t* data, std::size_t size)
{
    static std::unique_ptr<RunStore> db;
    static int uses = 0;
    if (!db || ++uses % 5000 == 0) // a fresh store now and then, so memory does not grow with the corpus
        db = std::move(*RunStore::open(":memory:"));
    MemorySource source(size && data[0] == 'p' ? "fuzz.csv" : "fuzz.json", bytes(data, size));
    (void)importSource(*db, source, callerFields());
}

void csvReader(const std::uint8_t* data, std::size_t size)
{
    MemorySource source("fuzz.csv", bytes(data, size));
    CsvReader reader(source, 1 << 16);
    std::vector<std::string> cells;
    std::uint64_t line = 0;
    for (int rows = 0; rows < 100000; ++rows) {
        auto r = reader.next(cells, line);
        if (!r || !*r)
            break;
    }
}

// The SSE parser, the input cut into reads at points the first bytes choose.
void sse(const std::uint8_t* data, std::size_t size)
{
    if (size < 2)
        return;
    std::size_t step = 1 + data[0] % 64;
    std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
    SseParser parser(4096);
    std::size_t events = 0;
    for (std::size_t at = 0; at < text.size(); at += step)
        if (!parser.feed(text.substr(at, step), [&](SseEvent& e) { events += e.data.size() + 1; }))
            return;
    parser.finish([&](SseEvent& e) { events += e.data.size(); });
}

void recipes(const std::uint8_t* data, std::size_t size)
{
    auto list = parseRecipes(bytes(data, size), "fuzz.json", true);
    if (!list)
        return;
    for (const Recipe& r : *list)
        for (bool dpAttention : { false, true }) // dp_attention_args replace options of the argv: both ways
            (void)renderRecipe(r,
                { { "model", "m" }, { "tp", "2" }, { "ep", "2" }, { "max_seqs", "8" }, { "kv_cache_dtype", "fp8" },
                    { "port", "8000" }, { "max_model_len", "4096" }, { "devices", "0,1" } },
                true, dpAttention);
}

void sessionConfig(const std::uint8_t* data, std::size_t size)
{
    auto c = parseSessionConfig(bytes(data, size), "fuzz.json");
    if (c) {
        (void)validateSessionConfig(*c);
        (void)parseSessionConfig(sessionConfigJson(*c), "again"); // what is written reads back
    }
}

void requestLog(const std::uint8_t* data, std::size_t size)
{
    auto logs = decodeRequests(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz");
    if (logs)
        (void)encodeRequests(*logs);
}

// The flat record reader against simdjson on every record of the stream: a disagreement is a finding.
void flatRecord(const std::uint8_t* data, std::size_t size)
{
    MemorySource source("fuzz.json", bytes(data, size));
    StreamLimits limits;
    limits.maxElementBytes = 1 << 20;
    (void)forEachJsonElement(source, limits,
        [&](const JsonElement& e) -> Status {
            if (!flatRecordMismatch(e.text).empty())
                __builtin_trap();
            return ok();
        },
        {});
}

void prometheus(const std::uint8_t* data, std::size_t size)
{
    (void)engineState(parsePrometheusText(std::string_view(reinterpret_cast<const char*>(data), size)));
}

// A sweep matrix someone sent, then the batch script and submit commands written from it (tst_outsidedata runs
// such scripts with hostile values; here: no crash, hang or leak whatever the matrix holds).
void matrix(const std::uint8_t* data, std::size_t size)
{
    auto m = parseMatrix(bytes(data, size), "fuzz.json");
    if (!m)
        return;
    (void)arrayScript(*m, "/shared/sweep", "/opt/bin/paretoscope-cli");
    (void)submitCommands(*m, "/shared/sweep/array.sbatch");
    for (const MatrixConfig& c : m->configurations) {
        (void)benchArguments(c);
        (void)unrunnableReason(c);
    }
}

void tco(const std::uint8_t* data, std::size_t size)
{
    auto model = parseTco(bytes(data, size), "fuzz.json");
    if (!model)
        return;
    for (const auto& [hw, entry] : model->byHardware) {
        HardwarePower power;
        power.hardware = hw;
        power.allInKw = 1.0;
        power.tdpW = 700.0;
        if (auto cost = tcoCost(entry, &power, 500.0); cost && !std::isfinite(cost->usdPerGpuHour))
            __builtin_trap(); // a TCO file within its bounds always prices a GPU-hour
    }
}

// A view pasted from someone else (`paretoscope --view '...'`), and the command written back from it.
void viewArguments(const std::uint8_t* data, std::size_t size)
{
    auto words = splitCommandLine(bytes(data, size));
    if (!words)
        return;
    auto view = parseViewArgs(*words);
    if (!view)
        return;
    auto again = splitCommandLine(viewCommand(*view));
    if (!again || !parseViewArgs(*again))
        __builtin_trap(); // what is written reads back
}

// One line of a session journal, read for session 1.
void journalLine(const std::uint8_t* data, std::size_t size)
{
    (void)sessionjournal::parseLine(bytes(data, size), 1, "fuzz.jsonl: line 1");
}

void schedulerOutput(const std::uint8_t* data, std::size_t size)
{
    const std::string text = bytes(data, size);
    (void)parseSchedulerStates(text, false);
    (void)parseSchedulerStates(text, true);
}

// A task's status file, then the task as cluster status prints it in JSON (a reason cut mid-character included).
void statusFile(const std::uint8_t* data, std::size_t size)
{
    TaskStatus t;
    applyStatusText(t, bytes(data, size), "/shared/sweep/results/0.json");
    (void)jsonText(nlohmann::json { { "state", t.state }, { "reason", t.reason } });
    (void)printable(t.reason);
}

// A workload mix from someone else: a mix file, and the same bytes as a --mix line; what a mix of one model writes
// back as --mix reads back as the same parts.
void mix(const std::uint8_t* data, std::size_t size)
{
    Scope base;
    base.model = "dsr1";
    const std::string text = bytes(data, size);
    for (auto parts : { parseMixFile(text, "fuzz.json", base), parseMixSpec(text, base) }) {
        if (!parts)
            continue;
        const std::string spec = mixSpecText(*parts, base);
        if (spec.empty())
            continue;
        auto again = parseMixSpec(spec, base);
        if (!again || again->size() != parts->size())
            __builtin_trap();
        for (std::size_t i = 0; i < parts->size(); ++i)
            if ((*again)[i].share != (*parts)[i].share || (*again)[i].scope.isl != (*parts)[i].scope.isl
                || (*again)[i].target != (*parts)[i].target)
                __builtin_trap();
    }
}

// A sync's list of what a server has (the availability route): every unit it makes has a key and a date, its dates
// ascending, and its sequence's label reads back as the same sequence; the same bytes as a sequence a person typed.
void availability(const std::uint8_t* data, std::size_t size)
{
    const std::string text = bytes(data, size);
    if (auto catalog = parseAvailability(text, "fuzz.json")) {
        for (const SyncUnit& unit : catalog->units) {
            if (unit.keys.empty() || unit.dates.empty() || !std::is_sorted(unit.dates.begin(), unit.dates.end()))
                __builtin_trap();
            auto again = parseSyncSequence(unit.sequence.label());
            if (!again || !(*again == unit.sequence))
                __builtin_trap();
        }
    }
    if (auto seq = parseSyncSequence(text)) {
        auto again = parseSyncSequence(seq->label());
        if (!again || !(*again == *seq))
            __builtin_trap();
    }
}

} // namespace

const std::vector<NamedTarget>& targets()
{
    static const std::vector<NamedTarget> all {
        { "import_inferencex_agg", importer<Format::InferenceXAgg> },
        { "import_inferencex_api", importer<Format::InferenceXApi> },
        { "import_vllm", importer<Format::VllmBench> },
        { "import_sglang", importer<Format::SglangBench> },
        { "import_paretoscope_json", importer<Format::ParetoscopeJson> },
        { "import_evaluations", evaluations<Format::InferenceXEvaluations> },
        { "import_paretoscope_evaluations", evaluations<Format::ParetoscopeEvaluationsJson> },
        { "import_store", store },
        { "detect", detector },
        { "csv", csvReader },
        { "sse", sse },
        { "recipe", recipes },
        { "session_config", sessionConfig },
        { "request_log", requestLog },
        { "prometheus", prometheus },
        { "flat_record", flatRecord },
        { "matrix", matrix },
        { "tco", tco },
        { "view_args", viewArguments },
        { "journal_line", journalLine },
        { "scheduler_output", schedulerOutput },
        { "status_file", statusFile },
        { "mix", mix },
        { "availability", availability },
    };
    return all;
}

} // namespace paretoscope::fuzz
