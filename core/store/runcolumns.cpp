#include "core/store/runcolumns.h"

#include "core/store/latencypack.h"

namespace paretoscope {
namespace {

#define PS_TEXT(col, member)                                                                                           \
    RunColumn                                                                                                          \
    {                                                                                                                  \
        col, "TEXT", [](sql::Statement& s, int i, const RunRecord& r) { s.bindUncopied(i, r.member); },                \
            [](const sql::Statement& s, int i, RunRecord& r) { r.member = s.text(i); }                                 \
    }
#define PS_INT(col, member)                                                                                            \
    RunColumn                                                                                                          \
    {                                                                                                                  \
        col, "INTEGER", [](sql::Statement& s, int i, const RunRecord& r) { s.bindIntOrNull(i, r.member); },            \
            [](const sql::Statement& s, int i, RunRecord& r) { r.member = static_cast<int>(s.optInt(i).value_or(0)); } \
    }
#define PS_BOOL(col, member)                                                                                           \
    RunColumn                                                                                                          \
    {                                                                                                                  \
        col, "INTEGER",                                                                                                \
            [](sql::Statement& s, int i, const RunRecord& r) { s.bind(i, static_cast<std::int64_t>(r.member)); },      \
            [](const sql::Statement& s, int i, RunRecord& r) { r.member = s.int64(i) != 0; }                           \
    }
#define PS_REAL(col, member)                                                                                           \
    RunColumn                                                                                                          \
    {                                                                                                                  \
        col, "REAL", [](sql::Statement& s, int i, const RunRecord& r) { s.bind(i, r.member); },                        \
            [](const sql::Statement& s, int i, RunRecord& r) { r.member = s.optReal(i); }                              \
    }
#define PS_COUNT(col, member)                                                                                          \
    RunColumn                                                                                                          \
    {                                                                                                                  \
        col, "INTEGER", [](sql::Statement& s, int i, const RunRecord& r) { s.bind(i, r.member); },                     \
            [](const sql::Statement& s, int i, RunRecord& r) { r.member = s.optInt(i); }                               \
    }

const RunColumn kRunColumns[] = {
    PS_TEXT("engine_image", engineImage),
    PS_INT("tp", tp),
    PS_INT("ep", ep),
    PS_INT("pp", pp),
    PS_BOOL("dp_attention", dpAttention),
    PS_BOOL("disaggregated", disaggregated),
    PS_INT("prefill_gpus", prefillGpus),
    PS_INT("decode_gpus", decodeGpus),
    PS_INT("gpus", gpus),
    PS_INT("concurrency", concurrency),
    PS_TEXT("run_date", runDate),
    PS_TEXT("run_url", runUrl),
    PS_REAL("tput_per_gpu", tputPerGpu),
    PS_REAL("output_tput_per_gpu", outputTputPerGpu),
    PS_REAL("input_tput_per_gpu", inputTputPerGpu),
    PS_REAL("interactivity", interactivity),
    PS_REAL("ttft_median_s", ttft.median),
    PS_REAL("tpot_median_s", tpot.median),
    PS_REAL("itl_median_s", itl.median),
    PS_REAL("e2el_median_s", e2el.median),
    RunColumn { "latency_stats", "BLOB",
        [](sql::Statement& s, int i, const RunRecord& r) {
            const PackedLatency packed(r);
            if (packed.bytes().empty())
                s.bindNull(i);
            else
                s.bindBlob(i, packed.bytes());
        },
        [](const sql::Statement& s, int i, RunRecord& r) { PackedLatency::unpack(s.blob(i), r); } },
    PS_REAL("avg_power_w", avgPowerW),
    PS_COUNT("completed", completed),
    PS_COUNT("failed", failed),
    PS_TEXT("note", provenance.note),
    PS_TEXT("marked", marked),
    PS_TEXT("validity", validity),
    // schema 8: the prefill side of a disaggregated run apart from its decode side (NULL: stored before they were
    // kept apart, and shown as the decode side's until the file is imported again)
    PS_INT("prefill_tp", prefillTp),
    PS_INT("prefill_ep", prefillEp),
    RunColumn { "prefill_dp_attention", "INTEGER",
        [](sql::Statement& s, int i, const RunRecord& r) {
            if (r.prefillTp == 0 && r.prefillEp == 0)
                s.bindNull(i); // unknown with the rest of its side
            else
                s.bind(i, static_cast<std::int64_t>(r.prefillDpAttention));
        },
        [](const sql::Statement& s, int i, RunRecord& r) { r.prefillDpAttention = s.int64(i) != 0; } },
    PS_INT("prefill_workers", prefillWorkers),
    PS_INT("decode_workers", decodeWorkers),
    // schema 11: the InferenceX site's append-only runs and recipe fingerprints (docs/architecture.md section 10.2)
    PS_BOOL("append_only", appendOnly),
    PS_TEXT("recipe_fingerprint", recipeFingerprint),
};

#undef PS_TEXT
#undef PS_INT
#undef PS_BOOL
#undef PS_REAL
#undef PS_COUNT

} // namespace

std::span<const RunColumn> runColumns()
{
    return kRunColumns;
}

} // namespace paretoscope
