#include "core/store/storeschema.h"

#include <sqlite3.h>

#include <algorithm>
#include <cstdint>
#include <string_view>

#include "core/model/runidentity.h"
#include "core/model/urls.h"
#include "core/store/contentbuckets.h"
#include "core/store/latencypack.h"

namespace paretoscope {
namespace {

// The columns the runs tables of schema 1 and of schema 4 begin with. Frozen, as both tables are.
constexpr const char* kRunsLeadingColumns = "  id INTEGER PRIMARY KEY,\n"
                                            "  series_id INTEGER NOT NULL REFERENCES series(id),\n"
                                            "  source_id INTEGER NOT NULL REFERENCES sources(id),\n"
                                            "  record_index INTEGER NOT NULL,\n"
                                            "  content_hash INTEGER NOT NULL,\n"
                                            "  engine_image TEXT,\n"
                                            "  tp INTEGER,\n"
                                            "  ep INTEGER,\n"
                                            "  pp INTEGER,\n"
                                            "  dp_attention INTEGER,\n"
                                            "  disaggregated INTEGER,\n"
                                            "  prefill_gpus INTEGER,\n"
                                            "  decode_gpus INTEGER,\n"
                                            "  gpus INTEGER,\n"
                                            "  concurrency INTEGER,\n"
                                            "  run_date TEXT,\n"
                                            "  run_url TEXT,\n"
                                            "  tput_per_gpu REAL,\n"
                                            "  output_tput_per_gpu REAL,\n"
                                            "  input_tput_per_gpu REAL,\n"
                                            "  interactivity REAL,\n";

// The per-run columns after them in schema 1's runs table. Frozen: migrations that come later change the table.
constexpr const char* kRunsTrailingColumnsV1 = "  ttft_mean_s REAL,\n"
                                               "  ttft_median_s REAL,\n"
                                               "  ttft_p90_s REAL,\n"
                                               "  ttft_p99_s REAL,\n"
                                               "  ttft_p999_s REAL,\n"
                                               "  tpot_mean_s REAL,\n"
                                               "  tpot_median_s REAL,\n"
                                               "  tpot_p90_s REAL,\n"
                                               "  tpot_p99_s REAL,\n"
                                               "  tpot_p999_s REAL,\n"
                                               "  itl_mean_s REAL,\n"
                                               "  itl_median_s REAL,\n"
                                               "  itl_p90_s REAL,\n"
                                               "  itl_p99_s REAL,\n"
                                               "  itl_p999_s REAL,\n"
                                               "  e2el_mean_s REAL,\n"
                                               "  e2el_median_s REAL,\n"
                                               "  e2el_p90_s REAL,\n"
                                               "  e2el_p99_s REAL,\n"
                                               "  e2el_p999_s REAL,\n"
                                               "  avg_power_w REAL,\n"
                                               "  completed INTEGER,\n"
                                               "  failed INTEGER,\n"
                                               "  note TEXT\n"
                                               ");\n";

// paretoscope_pack_latency(ttft_mean_s, ttft_p90_s, ttft_p99_s, ttft_p999_s, tpot_mean_s, ... e2el_p999_s): the
// PackedLatency of those sixteen columns, or NULL when all are NULL. Used by the migration to schema 4.
void packLatencyFunction(sqlite3_context* ctx, int argc, sqlite3_value** argv)
{
    RunRecord r;
    LatencyStats* metrics[] = { &r.ttft, &r.tpot, &r.itl, &r.e2el };
    for (int i = 0; i < argc && i < 16; ++i) {
        if (sqlite3_value_type(argv[i]) == SQLITE_NULL)
            continue;
        LatencyStats& m = *metrics[i / 4];
        std::optional<double>* stats[] = { &m.mean, &m.p90, &m.p99, &m.p999 };
        *stats[i % 4] = sqlite3_value_double(argv[i]);
    }
    const PackedLatency packed(r);
    if (packed.bytes().empty())
        sqlite3_result_null(ctx);
    else
        sqlite3_result_blob64(ctx, packed.bytes().data(), packed.bytes().size(), SQLITE_TRANSIENT);
}

// paretoscope_hash_list(hash), an aggregate: the content_buckets hash list of the hashes given, in any order.
void hashListStep(sqlite3_context* ctx, int, sqlite3_value** argv)
{
    auto** list = static_cast<std::vector<std::uint64_t>**>(sqlite3_aggregate_context(ctx, sizeof(void*)));
    if (!list)
        return sqlite3_result_error_nomem(ctx);
    if (!*list)
        *list = new std::vector<std::uint64_t>;
    (*list)->push_back(static_cast<std::uint64_t>(sqlite3_value_int64(argv[0])));
}

void hashListFinal(sqlite3_context* ctx)
{
    auto** list = static_cast<std::vector<std::uint64_t>**>(sqlite3_aggregate_context(ctx, 0));
    std::vector<std::uint64_t> hashes;
    if (list && *list) {
        hashes = std::move(**list);
        delete *list;
    }
    std::sort(hashes.begin(), hashes.end());
    const std::string blob = contentbuckets::merged({}, hashes);
    sqlite3_result_blob64(ctx, blob.data(), blob.size(), SQLITE_TRANSIENT);
}

// paretoscope_hash_list_without(list, hash): the hash list without that hash; the delete trigger of runs calls it.
void hashListWithout(sqlite3_context* ctx, int, sqlite3_value** argv)
{
    const void* data = sqlite3_value_blob(argv[0]);
    const std::string_view list(
        static_cast<const char*>(data), data ? static_cast<std::size_t>(sqlite3_value_bytes(argv[0])) : 0);
    const std::string out = contentbuckets::without(list, static_cast<std::uint64_t>(sqlite3_value_int64(argv[1])));
    sqlite3_result_blob64(ctx, out.data(), out.size(), SQLITE_TRANSIENT);
}

// paretoscope_redact_url(text): the URL without its credentials (redactUrl); other text unchanged.
// paretoscope_redact_text(text): every URL in free text so (redactUrlsIn).
template <std::string (*Redact)(const std::string&)>
void redactFunction(sqlite3_context* ctx, int, sqlite3_value** argv)
{
    const unsigned char* text = sqlite3_value_text(argv[0]);
    if (!text)
        return sqlite3_result_null(ctx);
    const std::string out = Redact(reinterpret_cast<const char*>(text));
    sqlite3_result_text(ctx, out.data(), static_cast<int>(out.size()), SQLITE_TRANSIENT);
}

// paretoscope_latency_stat(latency_stats, index): one statistic of a PackedLatency (PackedLatency::stat), or NULL
// when the packing lacks it; the store's p99 TTFT limit (Scope::ttftMax) reads it.
void latencyStatFunction(sqlite3_context* ctx, int, sqlite3_value** argv)
{
    const void* data = sqlite3_value_blob(argv[0]);
    const std::string_view bytes(
        static_cast<const char*>(data), data ? static_cast<std::size_t>(sqlite3_value_bytes(argv[0])) : 0);
    const auto v = PackedLatency::stat(bytes, static_cast<std::size_t>(sqlite3_value_int64(argv[1])));
    if (v)
        sqlite3_result_double(ctx, *v);
    else
        sqlite3_result_null(ctx);
}

// paretoscope_run_key(run_url, source path, source id): the run a stored point belongs to (runIdentity).
void runKeyFunction(sqlite3_context* ctx, int, sqlite3_value** argv)
{
    RunRecord r;
    if (const unsigned char* url = sqlite3_value_text(argv[0]))
        r.runUrl = reinterpret_cast<const char*>(url);
    const unsigned char* path = sqlite3_value_text(argv[1]);
    const std::string key
        = runIdentity(r, path ? reinterpret_cast<const char*>(path) : "", sqlite3_value_int64(argv[2])).key;
    sqlite3_result_text(ctx, key.data(), static_cast<int>(key.size()), SQLITE_TRANSIENT);
}

// paretoscope_run_order(run key): RunIdentity::order of the key.
void runOrderFunction(sqlite3_context* ctx, int, sqlite3_value** argv)
{
    const unsigned char* key = sqlite3_value_text(argv[0]);
    sqlite3_result_int64(ctx, runOrder(key ? reinterpret_cast<const char*>(key) : ""));
}

} // namespace

void addStoreFunctions(sqlite3* db)
{
    const int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC;
    sqlite3_create_function_v2(
        db, "paretoscope_pack_latency", 16, flags, nullptr, packLatencyFunction, nullptr, nullptr, nullptr);
    sqlite3_create_function_v2(
        db, "paretoscope_hash_list", 1, flags, nullptr, nullptr, hashListStep, hashListFinal, nullptr);
    sqlite3_create_function_v2(
        db, "paretoscope_hash_list_without", 2, flags, nullptr, hashListWithout, nullptr, nullptr, nullptr);
    sqlite3_create_function_v2(
        db, "paretoscope_redact_url", 1, flags, nullptr, redactFunction<redactUrl>, nullptr, nullptr, nullptr);
    sqlite3_create_function_v2(
        db, "paretoscope_redact_text", 1, flags, nullptr, redactFunction<redactUrlsIn>, nullptr, nullptr, nullptr);
    sqlite3_create_function_v2(
        db, "paretoscope_latency_stat", 2, flags, nullptr, latencyStatFunction, nullptr, nullptr, nullptr);
    sqlite3_create_function_v2(db, "paretoscope_run_key", 3, flags, nullptr, runKeyFunction, nullptr, nullptr, nullptr);
    sqlite3_create_function_v2(
        db, "paretoscope_run_order", 1, flags, nullptr, runOrderFunction, nullptr, nullptr, nullptr);
}

std::vector<std::string> storeMigrations()
{
    return {
        "CREATE TABLE sources (\n"
        "  id INTEGER PRIMARY KEY,\n"
        "  path TEXT NOT NULL,\n"
        "  sha256 TEXT NOT NULL,\n"
        "  format TEXT NOT NULL,\n"
        "  imported_at INTEGER NOT NULL\n"
        ");\n"
        "CREATE TABLE series (\n"
        "  id INTEGER PRIMARY KEY,\n"
        "  model TEXT NOT NULL,\n"
        "  isl INTEGER NOT NULL,\n"
        "  osl INTEGER NOT NULL,\n"
        "  workload TEXT NOT NULL,\n"
        "  hardware TEXT NOT NULL,\n"
        "  engine TEXT NOT NULL,\n"
        "  precision TEXT NOT NULL,\n"
        "  spec_decoding TEXT NOT NULL,\n"
        "  UNIQUE (model, isl, osl, workload, hardware, engine, precision, spec_decoding)\n"
        ");\n"
            + std::string("CREATE TABLE runs (\n") + kRunsLeadingColumns + kRunsTrailingColumnsV1
            + "CREATE UNIQUE INDEX runs_content ON runs(content_hash);\n"
              "CREATE INDEX runs_series ON runs(series_id);\n",
        // 1 -> 2: duplicates are found in a table keyed by the content hash itself. A rowid (integer key) B-tree
        // takes a random key about twice as fast as the unique index did, which was the dearest part of an import.
        "CREATE TABLE run_content (hash INTEGER PRIMARY KEY);\n"
        "INSERT INTO run_content(hash) SELECT content_hash FROM runs;\n"
        "DROP INDEX runs_content;\n"
        "CREATE TRIGGER runs_release_content AFTER DELETE ON runs BEGIN\n"
        "  DELETE FROM run_content WHERE hash = old.content_hash;\n"
        "END;\n",
        // 2 -> 3: live sessions. Each finished level is a run (in runs, source "session:ID") plus its metrics and the
        // raw per-request times, so any metric can be recomputed later. pid finds sessions whose process died.
        "CREATE TABLE sessions (\n"
        "  id INTEGER PRIMARY KEY,\n"
        "  started_at INTEGER NOT NULL,\n"
        "  finished_at INTEGER,\n"
        "  status TEXT NOT NULL,\n"
        "  reason TEXT NOT NULL DEFAULT '',\n"
        "  pid INTEGER NOT NULL,\n"
        "  simulation TEXT NOT NULL DEFAULT '',\n"
        "  config TEXT NOT NULL\n"
        ");\n"
        "CREATE TABLE session_levels (\n"
        "  session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,\n"
        "  level INTEGER NOT NULL,\n"
        "  concurrency INTEGER NOT NULL,\n"
        "  run_id INTEGER REFERENCES runs(id) ON DELETE SET NULL,\n"
        "  finished_at INTEGER NOT NULL,\n"
        "  metrics TEXT NOT NULL,\n"
        "  requests BLOB NOT NULL,\n"
        "  PRIMARY KEY (session_id, level)\n"
        ");\n",
        // 3 -> 4: the latency statistics that no query filters on (mean, p90, p99, p99.9) go into one packed column
        // (PackedLatency); the medians stay columns. Sixteen columns fewer cut the writer's time by about a quarter.
        // The table is rebuilt, which migrate() does with foreign keys off, as SQLite's ALTER TABLE page describes.
        "CREATE TABLE runs_v4 (\n" + std::string(kRunsLeadingColumns)
            + "  ttft_median_s REAL,\n"
              "  tpot_median_s REAL,\n"
              "  itl_median_s REAL,\n"
              "  e2el_median_s REAL,\n"
              "  latency_stats BLOB,\n"
              "  avg_power_w REAL,\n"
              "  completed INTEGER,\n"
              "  failed INTEGER,\n"
              "  note TEXT\n"
              ");\n"
              "INSERT INTO runs_v4 SELECT id, series_id, source_id, record_index, content_hash, engine_image, tp, ep, "
              "pp,\n"
              "  dp_attention, disaggregated, prefill_gpus, decode_gpus, gpus, concurrency, run_date, run_url,\n"
              "  tput_per_gpu, output_tput_per_gpu, input_tput_per_gpu, interactivity, ttft_median_s, tpot_median_s,\n"
              "  itl_median_s, e2el_median_s,\n"
              "  paretoscope_pack_latency(ttft_mean_s, ttft_p90_s, ttft_p99_s, ttft_p999_s, tpot_mean_s, tpot_p90_s,\n"
              "    tpot_p99_s, tpot_p999_s, itl_mean_s, itl_p90_s, itl_p99_s, itl_p999_s, e2el_mean_s, e2el_p90_s,\n"
              "    e2el_p99_s, e2el_p999_s),\n"
              "  avg_power_w, completed, failed, note FROM runs;\n"
              "DROP TABLE runs;\n"
              "ALTER TABLE runs_v4 RENAME TO runs;\n"
              "CREATE INDEX runs_series ON runs(series_id);\n"
              "CREATE TRIGGER runs_release_content AFTER DELETE ON runs BEGIN\n"
              "  DELETE FROM run_content WHERE hash = old.content_hash;\n"
              "END;\n",
        // 4 -> 5: the content hashes in buckets of their top 16 bits (contentbuckets.h): a large import writes one row
        // per bucket when it commits instead of one per record
        "CREATE TABLE content_buckets (\n"
        "  bucket INTEGER PRIMARY KEY,\n"
        "  hashes BLOB NOT NULL\n"
        ");\n"
        "INSERT INTO content_buckets(bucket, hashes)\n"
        "  SELECT (hash >> 48) & 65535, paretoscope_hash_list(hash) FROM run_content GROUP BY 1;\n"
        "DROP TRIGGER runs_release_content;\n"
        "DROP TABLE run_content;\n"
        "CREATE TRIGGER runs_release_content AFTER DELETE ON runs BEGIN\n"
        "  UPDATE content_buckets SET hashes = paretoscope_hash_list_without(hashes, old.content_hash)\n"
        "    WHERE bucket = (old.content_hash >> 48) & 65535;\n"
        "  DELETE FROM content_buckets WHERE bucket = (old.content_hash >> 48) & 65535 AND length(hashes) = 0;\n"
        "END;\n",
        // 5 -> 6: a run can be marked as not trusted (why, in words); and URLs stored before credentials were
        // stripped lose them (user and password, query parameters named like secrets)
        "ALTER TABLE runs ADD COLUMN marked TEXT;\n" + std::string(kRedactStoredCredentialsSql),
        // 6 -> 7: a live level's validity flags (core/live/validity.h), comma-separated; NULL when it checks out
        "ALTER TABLE runs ADD COLUMN validity TEXT;\n",
        // 7 -> 8: the InferenceX site's rule for "latest" (one run per chart line) needs each point's run, and a
        // configuration keeps its prefill side apart from its decode side. An aggregated run's prefill side is its one
        // side; a disaggregated run's stays NULL (unknown: shown as the decode side's, restored when its file is
        // imported again). The run is its run_url's workflow run, its live session, or the import it came in with.
        // (RunStore::migrate then counts the GPUs of aggregated InferenceX rows as InferenceX does: tp x pp.)
        "ALTER TABLE runs ADD COLUMN prefill_tp INTEGER;\n"
        "ALTER TABLE runs ADD COLUMN prefill_ep INTEGER;\n"
        "ALTER TABLE runs ADD COLUMN prefill_dp_attention INTEGER;\n"
        "ALTER TABLE runs ADD COLUMN prefill_workers INTEGER;\n"
        "ALTER TABLE runs ADD COLUMN decode_workers INTEGER;\n"
        "ALTER TABLE runs ADD COLUMN run_key TEXT;\n"
        "ALTER TABLE runs ADD COLUMN run_order INTEGER;\n"
        "ALTER TABLE runs ADD COLUMN run_started INTEGER;\n"
        "UPDATE runs SET prefill_tp = tp, prefill_ep = ep, prefill_dp_attention = dp_attention\n"
        "  WHERE NOT coalesce(disaggregated, 0);\n"
        "UPDATE runs SET run_key = paretoscope_run_key(run_url,\n"
        "  (SELECT path FROM sources WHERE sources.id = runs.source_id), source_id);\n"
        "UPDATE runs SET run_order = paretoscope_run_order(run_key);\n"
        "UPDATE runs SET run_started = (SELECT started_at FROM sessions WHERE 'session:' || sessions.id = "
        "runs.run_key)\n"
        "  WHERE run_key LIKE 'session:%';\n",
        // 8 -> 9: accuracy runs (InferenceX's evaluations: core/model/evaluation.h), one row per configuration, task,
        // concurrency and date, told apart by their content (an import again adds nothing)
        "CREATE TABLE evaluations (\n"
        "  id INTEGER PRIMARY KEY,\n"
        "  source_id INTEGER NOT NULL REFERENCES sources(id),\n"
        "  content_key TEXT NOT NULL UNIQUE,\n"
        "  model TEXT NOT NULL,\n"
        "  hardware TEXT NOT NULL,\n"
        "  engine TEXT NOT NULL,\n"
        "  precision TEXT NOT NULL,\n"
        "  spec_decoding TEXT NOT NULL,\n"
        "  disaggregated INTEGER NOT NULL,\n"
        "  tp INTEGER, ep INTEGER, dp_attention INTEGER,\n"
        "  prefill_tp INTEGER, prefill_ep INTEGER, prefill_dp_attention INTEGER,\n"
        "  gpus INTEGER, concurrency INTEGER,\n"
        "  task TEXT NOT NULL,\n"
        "  em_strict REAL, em_strict_se REAL, em_flexible REAL, em_flexible_se REAL, score REAL, score_se REAL,\n"
        "  questions INTEGER,\n"
        "  run_date TEXT NOT NULL,\n"
        "  run_url TEXT\n"
        ");\n"
        "CREATE INDEX evaluations_model ON evaluations(model, task, run_date);\n",
        // 9 -> 10: syncs from an InferenceX API (core/sync): per source, model and sequence the newest run date synced,
        // and each sync's summary of what changed (`paretoscope-cli changes`)
        "CREATE TABLE sync_state (\n"
        "  source TEXT NOT NULL,\n"
        "  model TEXT NOT NULL,\n"
        "  sequence TEXT NOT NULL,\n"
        "  last_date TEXT NOT NULL,\n"
        "  history INTEGER NOT NULL,\n"
        "  synced_at INTEGER NOT NULL,\n"
        "  PRIMARY KEY (source, model, sequence)\n"
        ");\n"
        "CREATE TABLE sync_log (\n"
        "  id INTEGER PRIMARY KEY,\n"
        "  source TEXT NOT NULL,\n"
        "  started_at INTEGER NOT NULL,\n"
        "  finished_at INTEGER NOT NULL,\n"
        "  summary TEXT NOT NULL\n"
        ");\n",
        // 10 -> 11: the InferenceX site's rule of today (its migrations 011 and 014): a run can be append-only (its
        // points add to its curve's, chained back to the next older run of the same image) and a point can carry the
        // recipe it was measured with, part of its identity. Runs stored before: not append-only, no recipe.
        // NOLINTNEXTLINE(bugprone-suspicious-missing-comma): one step of two statements, joined on purpose
        "ALTER TABLE runs ADD COLUMN append_only INTEGER;\n"
        "ALTER TABLE runs ADD COLUMN recipe_fingerprint TEXT;\n",
    };
}

} // namespace paretoscope
