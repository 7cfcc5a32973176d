#include "core/store/evaluationstore.h"

#include <sqlite3.h>

#include "core/store/runstore.h"
#include "core/store/sqlite.h"
#include "core/store/writetransaction.h"

namespace paretoscope {
namespace {

constexpr const char* kEvaluationColumnList
    = "model, hardware, engine, precision, spec_decoding, disaggregated, tp, ep, dp_attention, prefill_tp, prefill_ep, "
      "prefill_dp_attention, gpus, concurrency, task, em_strict, em_strict_se, em_flexible, em_flexible_se, score, "
      "score_se, questions, run_date, run_url";

} // namespace

Result<EvaluationWrite> storeEvaluations(
    RunStore& store, const Provenance& provenance, const std::vector<EvaluationRecord>& records)
{
    auto txn = WriteTransaction::begin(store, "importing " + provenance.source);
    if (!txn)
        return Error { txn.error() };
    sqlite3* db = store.handle();
    sql::Statement src(db, "INSERT INTO sources(path, sha256, format, imported_at) VALUES (?,?,?,?)");
    src.bindText(1, provenance.source);
    src.bindText(2, provenance.sha256);
    src.bindText(3, provenance.format);
    src.bind(4, static_cast<std::int64_t>(provenance.importedAt));
    src.step();
    if (auto st = txn->check(src, "cannot record the source"); !st)
        return Error { st.error() };
    const std::int64_t sourceId = sqlite3_last_insert_rowid(db);
    sql::Statement insert(db,
        std::string("INSERT INTO evaluations(source_id, content_key, ") + kEvaluationColumnList
            + ") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT (content_key) DO NOTHING");
    EvaluationWrite out;
    for (const EvaluationRecord& r : records) {
        insert.reset();
        int i = 1;
        insert.bind(i++, sourceId);
        insert.bindText(i++, r.contentKey());
        for (const std::string* s : { &r.model, &r.hardware, &r.engine, &r.precision, &r.specDecoding })
            insert.bindText(i++, *s);
        for (long long v : { (long long)r.disaggregated, (long long)r.tp, (long long)r.ep, (long long)r.dpAttention,
                 (long long)r.prefillTp, (long long)r.prefillEp, (long long)r.prefillDpAttention, (long long)r.gpus,
                 (long long)r.concurrency })
            insert.bind(i++, static_cast<std::int64_t>(v));
        insert.bindText(i++, r.task);
        for (const std::optional<double>* v :
            { &r.emStrict, &r.emStrictSe, &r.emFlexible, &r.emFlexibleSe, &r.score, &r.scoreSe })
            insert.bind(i++, *v);
        insert.bind(i++, static_cast<std::int64_t>(r.questions));
        insert.bindText(i++, r.date);
        insert.bind(i++, std::string_view(r.runUrl));
        insert.step();
        if (auto st = txn->check(insert, "cannot store an evaluation"); !st)
            return Error { st.error() };
        if (sqlite3_changes(db) > 0)
            ++out.inserted;
        else
            ++out.duplicates;
    }
    if (out.inserted == 0) { // nothing new: the source row would name an import that brought nothing
        txn->rollback();
        return out;
    }
    if (auto c = txn->commit(); !c)
        return Error { c.error() };
    return out;
}

std::vector<StoredEvaluation> storedEvaluations(RunStore& store, const std::string& model)
{
    std::vector<StoredEvaluation> out;
    sql::Statement q(store.handle(),
        std::string("SELECT id, ") + kEvaluationColumnList + " FROM evaluations WHERE model = ? ORDER BY run_date, id");
    q.bindText(1, model);
    while (q.step()) {
        StoredEvaluation e;
        e.id = q.int64(0);
        EvaluationRecord& r = e.record;
        int c = 1;
        for (std::string* s : { &r.model, &r.hardware, &r.engine, &r.precision, &r.specDecoding })
            *s = q.text(c++);
        r.disaggregated = q.int64(c++) != 0;
        r.tp = static_cast<int>(q.int64(c++));
        r.ep = static_cast<int>(q.int64(c++));
        r.dpAttention = q.int64(c++) != 0;
        r.prefillTp = static_cast<int>(q.int64(c++));
        r.prefillEp = static_cast<int>(q.int64(c++));
        r.prefillDpAttention = q.int64(c++) != 0;
        r.gpus = static_cast<int>(q.int64(c++));
        r.concurrency = static_cast<int>(q.int64(c++));
        r.task = q.text(c++);
        for (std::optional<double>* v :
            { &r.emStrict, &r.emStrictSe, &r.emFlexible, &r.emFlexibleSe, &r.score, &r.scoreSe })
            *v = q.optReal(c++);
        r.questions = q.int64(c++);
        r.date = q.text(c++);
        r.runUrl = q.text(c++);
        out.push_back(std::move(e));
    }
    store.noteRead(q);
    return out;
}

long long evaluationCount(RunStore& store)
{
    sql::Statement q(store.handle(), "SELECT count(*) FROM evaluations");
    const long long n = q.step() ? q.int64(0) : 0;
    store.noteRead(q);
    return n;
}

} // namespace paretoscope
