#include "core/import/importer.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <unistd.h>

#include "core/import/csvreader.h"
#include "core/import/documentstream.h"
#include "core/import/formats/evaluationschema.h"
#include "core/import/formats/fieldnames.h"
#include "core/import/formats/flatrecord.h"
#include "core/import/formats/formatdetect.h"
#include "core/import/formats/jsonrecordparser.h"
#include "core/import/hashingreadahead.h"
#include "core/import/httpsource.h"
#include "core/import/insertpipeline.h"
#include "core/model/runselection.h"
#include "core/model/urls.h"
#include "core/store/evaluationstore.h"

namespace paretoscope {
namespace {

// Serves the first bytes again after they were peeked at to choose between JSON and CSV.
class PeekedSource final : public ByteSource {
public:
    explicit PeekedSource(ByteSource& inner)
        : m_inner(inner)
    {
    }
    /// The first byte that is not JSON whitespace, or kEnd when there is none.
    static constexpr int kEnd = -1;
    Result<int> firstNonSpace()
    {
        for (;;) {
            for (std::size_t i = m_pos; i < m_head.size(); ++i) {
                char c = m_head[i];
                if (!isJsonSpace(c))
                    return static_cast<int>(static_cast<unsigned char>(c));
            }
            if (m_head.size() > (1u << 20))
                return Error { name() + ": more than 1 MB of whitespace before any content" };
            std::size_t old = m_head.size();
            m_head.resize(old + 65536);
            auto got = m_inner.read(m_head.data() + old, 65536);
            if (!got)
                return Error { got.error() };
            m_head.resize(old + *got);
            if (*got == 0)
                return kEnd;
        }
    }
    Result<std::size_t> read(char* dst, std::size_t n) override
    {
        if (m_pos < m_head.size()) {
            std::size_t take = std::min(n, m_head.size() - m_pos);
            std::memcpy(dst, m_head.data() + m_pos, take);
            m_pos += take;
            return take;
        }
        return m_inner.read(dst, n);
    }
    std::uint64_t size() const override { return m_inner.size(); }
    const std::string& name() const override { return m_inner.name(); }

private:
    ByteSource& m_inner;
    std::string m_head;
    std::size_t m_pos = 0;
};

std::string recordWhere(const std::string& source, std::uint64_t index, std::uint64_t line)
{
    return source + ": record " + std::to_string(index + 1) + " (line " + std::to_string(line) + "): ";
}

// The most evaluations one file may hold: they are read whole, then stored in one transaction (some 400 MB at most)
constexpr std::size_t kMaxEvaluationsPerFile = 1000000;

// Shared by the JSON and CSV paths: once the format is known, open the transaction and the pipeline.
// The first name longer than kMaxNameLength, said (docs/formats.md, "Names"), or empty: a name is printed in every
// table, chart and report, so a long one would make each of them long.
std::string longName(std::initializer_list<std::pair<const char*, const std::string*>> names)
{
    for (const auto& [what, text] : names)
        if (text->size() > kMaxNameLength)
            return "the " + std::string(what) + " name is " + std::to_string(text->size())
                + " characters long, more than " + std::to_string(kMaxNameLength) + ": refused";
    return {};
}

struct ImportState {
    RunStore& store;
    const ImportOptions& options;
    const std::string& name;
    std::unique_ptr<RecordMapper> mapper;
    std::unique_ptr<InsertPipeline> pipeline;
    // an evaluations file (accuracy runs) is read whole, then stored in one transaction (storeEvaluations)
    RecordMapper* evaluations = nullptr; // the mapper, when the file holds evaluations
    std::vector<EvaluationRecord> evaluationRecords {};
    Format format = Format::InferenceXAgg;
    std::uint64_t records = 0;
    std::uint64_t skipped = 0; // left out by options.keep
    // the mappers' notes, in the order first met, with how many records and the first few of them
    struct NoteTally {
        std::string text;
        std::uint64_t count = 0;
        std::vector<std::uint64_t> first;
    };
    std::vector<NoteTally> notes {};

    Status start(Format f)
    {
        format = f;
        if (!options.acceptFormats.empty()
            && std::find(options.acceptFormats.begin(), options.acceptFormats.end(), f)
                == options.acceptFormats.end()) {
            std::string taken;
            for (Format a : options.acceptFormats)
                taken += (taken.empty() ? "" : " or ") + std::string(formatName(a));
            return Error { name + ": " + std::string(formatName(f)) + " records where only " + taken
                + " is taken: refused" };
        }
        if (f == Format::VllmBench || f == Format::SglangBench) {
            std::string missing = missingCallerFields(options);
            if (!missing.empty())
                return Error { name + ": a " + std::string(formatName(f))
                    + " result does not say what it ran on; give: " + missing };
        }
        mapper = makeMapper(f, options);
        if (mapper->holdsEvaluations()) {
            evaluations = mapper.get();
            return ok();
        }
        Provenance p;
        p.source = name;
        p.format = std::string(formatName(f));
        p.importedAt = nowEpochSeconds();
        auto writer = store.beginImport(p);
        if (!writer)
            return Error { writer.error() };
        pipeline = std::make_unique<InsertPipeline>(std::move(*writer));
        return ok();
    }

    Status add(RunRecord&& r, std::uint64_t index)
    {
        ++records;
        if (std::string problem = longName({ { "model", &r.model }, { "hardware", &r.hardware },
                { "engine", &r.engine }, { "precision", &r.precision }, { "spec decoding", &r.specDecoding },
                { "workload", &r.workload }, { "run", &r.run } });
            !problem.empty())
            return Error { name + ": record " + std::to_string(index + 1) + ": " + problem };
        completeConfiguration(r);
        if (!options.run.empty())
            r.run = options.run;
        if (options.expect)
            if (auto st = options.expect(r); !st)
                return Error { name + ": record " + std::to_string(index + 1) + ": " + st.error() };
        if (options.keep && !options.keep(r)) {
            ++skipped;
            return ok();
        }
        for (const std::string& text : mapper->notes())
            noteOf(text, index);
        if (!pipeline->push(std::move(r), index))
            return pipeline->finish();
        return ok();
    }

    /// The evaluation the mapper just read, kept to be stored with the file's others; where: "FILE: record N: ".
    Status addEvaluation(const std::string& where)
    {
        auto evaluation = evaluations->finishEvaluation();
        if (!evaluation)
            return Error { where + evaluation.error() };
        const EvaluationRecord& e = *evaluation;
        if (std::string problem
            = longName({ { "model", &e.model }, { "hardware", &e.hardware }, { "engine", &e.engine },
                { "precision", &e.precision }, { "spec decoding", &e.specDecoding }, { "task", &e.task } });
            !problem.empty())
            return Error { where + problem };
        // read whole before they are stored: a bound on what a file can make this process hold
        if (evaluationRecords.size() >= kMaxEvaluationsPerFile)
            return Error { where + "more than " + std::to_string(kMaxEvaluationsPerFile)
                + " evaluations in one file: split it (InferenceX publishes a few thousand)" };
        ++records;
        evaluationRecords.push_back(std::move(*evaluation));
        return ok();
    }

    void noteOf(const std::string& text, std::uint64_t index)
    {
        auto it = std::find_if(notes.begin(), notes.end(), [&](const NoteTally& n) { return n.text == text; });
        if (it == notes.end()) {
            notes.push_back({ text, 0, {} });
            it = notes.end() - 1;
        }
        ++it->count;
        if (it->first.size() < 5)
            it->first.push_back(index + 1);
    }

    /// "FILE: record 4: TEXT", or "FILE: 3 records (1, 2, 5): TEXT" (the first five named).
    std::vector<std::string> noteLines() const
    {
        std::vector<std::string> out;
        for (const NoteTally& n : notes) {
            std::string which;
            if (n.count == 1) {
                which = "record " + std::to_string(n.first[0]);
            } else {
                which = std::to_string(n.count) + " records (";
                for (std::size_t i = 0; i < n.first.size(); ++i)
                    which += (i ? ", " : "") + std::to_string(n.first[i]);
                which += n.count > n.first.size() ? ", ...)" : ")";
            }
            out.push_back(name + ": " + which + ": " + n.text);
        }
        return out;
    }
};

Status importJson(ImportState& state, ByteSource& source, const ProgressFn& progress)
{
    JsonRecordParser parser;
    StreamLimits limits;
    return forEachJsonElement(
        source, limits,
        [&](const JsonElement& el) -> Status {
            if (!state.mapper) {
                auto keys = parser.keys(el);
                if (!keys)
                    return Error { recordWhere(state.name, el.index, el.line) + keys.error() };
                auto f = detectJsonFormat(*keys);
                if (!f)
                    return Error { recordWhere(state.name, el.index, el.line)
                        + "not a recognised benchmark format (InferenceX aggregate or API, vLLM or SGLang "
                          "bench results, Paretoscope JSON)" };
                if (auto st = state.start(*f); !st)
                    return st;
            }
            state.mapper->begin();
            if (auto st = parser.walk(el, *state.mapper); !st)
                return Error { recordWhere(state.name, el.index, el.line) + st.error() };
            if (state.evaluations)
                return state.addEvaluation(recordWhere(state.name, el.index, el.line));
            auto rec = state.mapper->finish();
            if (!rec)
                return Error { recordWhere(state.name, el.index, el.line) + rec.error() };
            return state.add(std::move(*rec), el.index);
        },
        progress,
        // a flat record is read where it lies, which also finds where it ends; anything else is cut out above
        [&](const JsonElement& from) -> Result<std::size_t> {
            if (!state.mapper || state.evaluations) // evaluations nest their metrics: never flat
                return std::size_t { 0 };
            state.mapper->begin();
            Status st = ok();
            std::size_t length = 0;
            if (!readFlatRecordPrefix(from.text, from.capacity, *state.mapper, st, length))
                return std::size_t { 0 };
            if (!st)
                return Error { recordWhere(state.name, from.index, from.line) + st.error() };
            auto rec = state.mapper->finish();
            if (!rec)
                return Error { recordWhere(state.name, from.index, from.line) + rec.error() };
            if (auto added = state.add(std::move(*rec), from.index); !added)
                return Error { added.error() };
            return length;
        });
}

Status importCsv(ImportState& state, ByteSource& source, const ProgressFn& progress)
{
    CsvReader reader(source);
    std::vector<std::string> header, cells;
    std::uint64_t line = 0;
    auto first = reader.next(header, line);
    if (!first)
        return Error { first.error() };
    if (!*first)
        return Error { state.name + ": empty: no content" };
    {
        FieldNames columns;
        for (const std::string& column : header)
            if (!columns.insert(column))
                return Error { state.name + ": line 1: column '" + column.substr(0, 200)
                    + "' given twice in the header: which would a record's value be?" };
    }
    const bool evaluations = isEvaluationCsvHeader(header);
    if (!evaluations && !isParetoscopeCsvHeader(header))
        return Error { state.name
            + ": line 1: not a recognised format: not JSON, and not a Paretoscope CSV "
              "(its header needs model, hardware and tput_per_gpu_tok_s; or, of evaluations, model, hardware, task "
              "and em_strict, em_flexible or score)" };
    if (auto st = state.start(evaluations ? Format::ParetoscopeEvaluationsCsv : Format::ParetoscopeCsv); !st)
        return st;
    std::uint64_t index = 0;
    for (;;) {
        auto more = reader.next(cells, line);
        if (!more)
            return Error { more.error() };
        if (!*more)
            break;
        std::string where
            = state.name + ": record " + std::to_string(index + 1) + " (line " + std::to_string(line) + "): ";
        if (cells.size() != header.size())
            return Error { where + "has " + std::to_string(cells.size()) + " cells, the header has "
                + std::to_string(header.size()) };
        state.mapper->begin();
        for (std::size_t i = 0; i < cells.size(); ++i) {
            std::string_view cell = cells[i];
            // exports guard text that a spreadsheet would take for a formula with a leading apostrophe
            if (cell.size() > 1 && cell[0] == '\'' && std::strchr("=+-@\t\r", cell[1]))
                cell.remove_prefix(1);
            FieldValue v;
            v.kind = FieldValue::Kind::Text;
            v.text = cell;
            v.fromCsv = true;
            if (auto st = state.mapper->field(header[i], v); !st)
                return Error { where + st.error() };
        }
        if (state.evaluations) {
            if (auto st = state.addEvaluation(where); !st)
                return st;
        } else {
            auto rec = state.mapper->finish();
            if (!rec)
                return Error { where + rec.error() };
            if (auto st = state.add(std::move(*rec), index); !st)
                return st;
        }
        ++index;
        if (progress && (index % 4096) == 0 && !progress(reader.consumed(), source.size()))
            return Error { state.name + ": import cancelled" };
    }
    return ok();
}

// A URL's body is downloaded whole into an unnamed file beside the store before the import's transaction begins:
// a slow or stalling server then never holds the store's write lock, and memory stays the download's buffer.
Result<std::unique_ptr<FileSource>> downloadForImport(
    const std::string& url, const std::string& storePath, const ProgressFn& progress)
{
    const std::string name = redactUrl(url);
    HttpOptions http;
    http.maxBytes = kMaxDownloadBytes;
    http.totalTimeoutMs = 120000; // for the answer to begin; the body then flows for as long as it keeps coming
    auto body = HttpSource::open(url, http);
    if (!body)
        return Error { body.error() };
    auto fd = unnamedFileBeside(storePath);
    if (!fd)
        return Error { name + ": " + fd.error() };
    std::vector<char> buffer(1u << 20);
    std::uint64_t received = 0;
    for (;;) {
        auto got = (*body)->read(buffer.data(), buffer.size());
        if (!got || *got == 0) {
            if (!got) {
                ::close(*fd);
                return Error { got.error() };
            }
            break;
        }
        for (std::size_t done = 0; done < *got;) {
            const ssize_t n = ::write(*fd, buffer.data() + done, *got - done);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                const int err = errno;
                ::close(*fd);
                return Error { name + ": cannot keep the download beside the store: " + std::strerror(err) };
            }
            done += static_cast<std::size_t>(n);
        }
        received += *got;
        if (progress && !progress(received, (*body)->size())) {
            ::close(*fd);
            return Error { name + ": download cancelled" };
        }
    }
    return FileSource::adopt(*fd, name);
}

// The evaluations of a file read whole, stored in one transaction under the file's provenance.
Result<ImportSummary> storeEvaluationsRead(ImportState& state, HashingReadAhead& hashed)
{
    ImportSummary summary;
    summary.source = state.name;
    summary.format = std::string(formatName(state.format));
    auto sha = hashed.sha256Hex();
    if (!sha)
        return Error { sha.error() };
    summary.sha256 = std::move(*sha);
    Provenance p;
    p.source = state.name;
    p.sha256 = summary.sha256;
    p.format = summary.format;
    p.importedAt = nowEpochSeconds();
    auto written = storeEvaluations(state.store, p, state.evaluationRecords);
    if (!written)
        return Error { state.name + ": " + written.error() };
    summary.imported = written->inserted;
    summary.duplicates = written->duplicates;
    summary.evaluations = true;
    return summary;
}

bool importableFile(const std::filesystem::path& p)
{
    std::string ext = p.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    std::string name = p.filename().string();
    return !name.empty() && name[0] != '.' && (ext == ".json" || ext == ".jsonl" || ext == ".csv");
}

} // namespace

Result<int> unnamedFileBeside(const std::string& storePath)
{
    std::error_code ec;
    std::filesystem::path folder = std::filesystem::absolute(storePath, ec).parent_path();
    if (folder.empty())
        folder = std::filesystem::temp_directory_path(ec);
#if defined(O_TMPFILE)
    if (const int fd = ::open(folder.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600); fd >= 0)
        return fd;
#endif
    std::string pattern = (folder / ".paretoscope-download-XXXXXX").string();
    const int fd = ::mkstemp(pattern.data());
    if (fd < 0)
        return Error { "cannot make a file to download into in " + folder.string() + ": " + std::strerror(errno) };
    ::unlink(pattern.c_str());
    return fd;
}

Result<ImportSummary> importSource(
    RunStore& store, ByteSource& raw, const ImportOptions& options, const ProgressFn& progress)
{
    const std::string& name = raw.name();
    HashingReadAhead hashed(raw); // reads and hashes on its own thread
    PeekedSource source(hashed);
    auto first = source.firstNonSpace();
    if (!first)
        return Error { first.error() };
    if (*first == PeekedSource::kEnd)
        return Error { name + (source.size() > 0 ? ": empty: only whitespace, no records" : ": empty: no content") };
    if (*first == 0 || (*first < 0x20 && *first != '\t'))
        return Error { name + ": not a recognised format: binary data (a byte " + std::to_string(*first)
            + " before any text), not JSON or CSV" };

    ImportState state { store, options, name, nullptr, nullptr };
    Status st
        = (*first == '[' || *first == '{') ? importJson(state, source, progress) : importCsv(state, source, progress);
    if (st && state.records == 0)
        st = Error { name + ": no records in the file" };
    if (state.pipeline) {
        Status drained = state.pipeline->finish();
        if (st && !drained)
            st = Error { name + ": " + drained.error() };
    }
    if (st && options.complete)
        if (Status whole = options.complete(); !whole)
            st = Error { name + ": " + whole.error() };
    if (!st)
        return Error { st.error() }; // the writer's destructor rolls the transaction back
    if (state.evaluations)
        return storeEvaluationsRead(state, hashed);

    ImportSummary summary;
    summary.source = name;
    summary.format = std::string(formatName(state.format));
    auto sha = hashed.sha256Hex();
    if (!sha)
        return Error { sha.error() };
    summary.sha256 = std::move(*sha);
    ImportWriter& writer = state.pipeline->writer();
    if (auto recorded = writer.setSha256(summary.sha256); !recorded)
        return Error { name + ": " + recorded.error() };
    if (auto c = writer.commit(); !c)
        return Error { name + ": " + c.error() };
    summary.imported = writer.inserted();
    summary.duplicates = writer.duplicates() + state.pipeline->repeats();
    summary.skipped = state.skipped;
    summary.notes = state.noteLines();
    return summary;
}

std::optional<Format> detectFileFormat(const std::string& path)
{
    auto file = FileSource::open(path);
    if (!file)
        return std::nullopt;
    PeekedSource source(**file);
    auto first = source.firstNonSpace();
    if (!first || *first == PeekedSource::kEnd || *first == 0)
        return std::nullopt;
    if (*first != '[' && *first != '{') {
        CsvReader reader(source);
        std::vector<std::string> header;
        std::uint64_t line = 0;
        auto got = reader.next(header, line);
        if (got && *got && isEvaluationCsvHeader(header))
            return Format::ParetoscopeEvaluationsCsv;
        if (got && *got && isParetoscopeCsvHeader(header))
            return Format::ParetoscopeCsv;
        return std::nullopt;
    }
    JsonRecordParser parser;
    std::optional<Format> found;
    forEachJsonElement(
        source, StreamLimits {},
        [&](const JsonElement& el) -> Status {
            if (auto keys = parser.keys(el))
                found = detectJsonFormat(*keys);
            return Error { "first record read" }; // stop after it
        },
        nullptr);
    return found;
}

bool isUrl(const std::string& s)
{
    return isHttpUrl(s);
}

std::vector<ImportOutcome> importPath(
    RunStore& store, const std::string& pathOrUrl, const ImportOptions& options, const ProgressFn& progress)
{
    std::vector<ImportOutcome> out;
    if (isUrl(pathOrUrl)) {
        const std::string name = redactUrl(pathOrUrl);
        auto body = downloadForImport(pathOrUrl, store.path(), progress);
        if (!body) {
            out.push_back({ name, Error { body.error() } });
            return out;
        }
        out.push_back({ name, importSource(store, **body, options, progress) });
        return out;
    }
    std::error_code ec;
    std::filesystem::path p(pathOrUrl);
    if (auto scheme = urlScheme(pathOrUrl); scheme && !std::filesystem::exists(p, ec)) {
        out.push_back({ redactUrl(pathOrUrl),
            Error { redactUrl(pathOrUrl) + ": " + *scheme
                + ":// is not supported: import takes files, folders and http:// or https:// URLs" } });
        return out;
    }
    if (std::filesystem::is_directory(p, ec)) {
        std::vector<std::filesystem::path> files;
        for (auto it = std::filesystem::recursive_directory_iterator(p, ec);
             !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
            if (it->is_regular_file(ec) && importableFile(it->path()))
                files.push_back(it->path());
        }
        if (ec) {
            out.push_back({ pathOrUrl, Error { pathOrUrl + ": cannot list the folder: " + ec.message() } });
            return out;
        }
        std::sort(files.begin(), files.end());
        if (files.empty())
            out.push_back({ pathOrUrl, Error { pathOrUrl + ": no .json, .jsonl or .csv files in the folder" } });
        for (const auto& f : files) {
            auto sub = importPath(store, f.string(), options, progress);
            out.insert(out.end(), std::make_move_iterator(sub.begin()), std::make_move_iterator(sub.end()));
        }
        return out;
    }
    auto file = FileSource::open(pathOrUrl);
    if (!file) {
        out.push_back({ pathOrUrl, Error { file.error() } });
        return out;
    }
    out.push_back({ pathOrUrl, importSource(store, **file, options, progress) });
    return out;
}

} // namespace paretoscope
