#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/model/result.h"
#include "core/model/runrecord.h"

namespace paretoscope {

enum class Format; // recordmapper.h

/// What the caller says about files that do not describe themselves (vLLM and SGLang results carry no hardware or
/// GPU count). Empty strings and zeros mean "not given".
struct ImportOptions {
    std::string hardware;
    std::string engine;
    std::string precision;
    std::string model;
    std::string workload;
    std::string specDecoding;
    int gpus = 0;
    int prefillGpus = 0;
    int decodeGpus = 0;
    int tp = 0;
    int isl = 0;
    int osl = 0;
    /// Checks each record, before keep is asked (cluster collect: the task's configuration; a sync: the record is of
    /// a unit its request asked for). An error refuses the whole source, named with its record.
    std::function<Status(const RunRecord&)> expect;
    /// Asked once every record was read and checked, before anything is committed (a sync: the answer held every
    /// date its units list). An error refuses the whole source.
    std::function<Status()> complete;
    /// Which records to store (a sync: those of its sequence, dated after what it synced before); the others are
    /// read, checked and counted as skipped (ImportSummary::skipped). Empty: every record.
    std::function<bool(const RunRecord&)> keep;
    /// The run every record belongs to, in place of its own (cluster collect: "task:DIR#N"); empty: each record's.
    std::string run;
    /// Only these formats are taken (a cluster task's export: Paretoscope JSON; a sync: what its route answers);
    /// another is refused before anything is stored, naming what it was. Empty: any.
    std::vector<Format> acceptFormats;
};

} // namespace paretoscope
