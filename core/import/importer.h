#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/import/bytesource.h"
#include "core/import/documentstream.h"
#include "core/import/formats/importoptions.h"
#include "core/import/formats/recordmapper.h"
#include "core/model/result.h"
#include "core/store/runstore.h"

namespace paretoscope {

/// The longest name (a model's, hardware's, engine's, precision's, spec decoding's, workload's, run's, task's) a record
/// may carry, in bytes: the InferenceX availability route's bound. A longer one refuses the source, naming the record.
constexpr std::size_t kMaxNameLength = 200;

/// What one source gave.
struct ImportSummary {
    std::string source;
    std::string format;
    std::string sha256;
    std::uint64_t imported = 0;
    std::uint64_t duplicates = 0;
    /// Records left out by ImportOptions::keep (a sync's runs older than what it synced before).
    std::uint64_t skipped = 0;
    /// The file held evaluations (accuracy runs; docs/evaluations.md): imported and duplicates count those, not runs.
    bool evaluations = false;
    /// What was kept or left out without refusing a record, one line per cause naming the file, the records and the
    /// field, e.g. "agg.json: 3 records (1, 2, 5): field 'input_tput_per_gpu' is 0, left out".
    std::vector<std::string> notes;
};

/// One input's outcome: the source name and either a summary or the error (file, record or line, field).
struct ImportOutcome {
    std::string source;
    Result<ImportSummary> result;
};

/// Imports one stream in one transaction: every record or none. The format is detected from the content.
Result<ImportSummary> importSource(
    RunStore& store, ByteSource& source, const ImportOptions& options, const ProgressFn& progress = {});

/// The largest body an import by URL takes. The body streams, so memory stays small whatever its size; the limit
/// only stops a server that never ends.
constexpr std::uint64_t kMaxDownloadBytes = 4ull << 30;

/// Imports a file, or every .json/.jsonl/.csv file under a folder (recursively, each file on its own), or an
/// http(s) URL of the InferenceX API, downloaded first into an unnamed file beside the store (a bounded buffer in
/// memory; the store's write lock is not held while a server is slow). A URL is stored, and named in the outcome,
/// without its credentials.
std::vector<ImportOutcome> importPath(
    RunStore& store, const std::string& pathOrUrl, const ImportOptions& options, const ProgressFn& progress = {});

/// The format of a file from its first record, without importing it; empty when it is not one Paretoscope reads.
/// The GUI asks this to know whether a file needs the caller's fields (see missingCallerFields) before importing.
std::optional<Format> detectFileFormat(const std::string& path);

/// An unnamed file (O_TMPFILE) in the store's folder to download into, gone when closed or when the process ends
/// however it ends; where the file system has none, a named one removed at once. The caller closes it.
Result<int> unnamedFileBeside(const std::string& storePath);

/// Whether the argument is an http:// or https:// URL (the scheme in any case).
bool isUrl(const std::string& s);

} // namespace paretoscope
