#include "core/live/sessionjournal.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "core/import/formats/jsonrecordparser.h"
#include "core/import/formats/paretoscopemapper.h"
#include "core/live/requestcodec.h"
#include "core/live/sessionstore.h"
#include "core/model/outsidefile.h"
#include "core/model/outsidejson.h"
#include "core/model/printable.h"
#include "core/output/reports.h"
#include "core/store/sqlite.h"

namespace paretoscope::sessionjournal {
namespace {

using nlohmann::json;

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

std::string base64(std::string_view bytes)
{
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    std::size_t i = 0;
    for (; i + 3 <= bytes.size(); i += 3) {
        const unsigned v = static_cast<unsigned char>(bytes[i]) << 16 | static_cast<unsigned char>(bytes[i + 1]) << 8
            | static_cast<unsigned char>(bytes[i + 2]);
        for (int s = 18; s >= 0; s -= 6)
            out += kAlphabet[(v >> s) & 63];
    }
    if (const std::size_t left = bytes.size() - i; left > 0) {
        unsigned v = static_cast<unsigned char>(bytes[i]) << 16;
        if (left == 2)
            v |= static_cast<unsigned char>(bytes[i + 1]) << 8;
        out += kAlphabet[(v >> 18) & 63];
        out += kAlphabet[(v >> 12) & 63];
        out += left == 2 ? kAlphabet[(v >> 6) & 63] : '=';
        out += '=';
    }
    return out;
}

Result<std::string> unbase64(std::string_view text)
{
    std::string out;
    out.reserve(text.size() / 4 * 3);
    unsigned v = 0;
    int bits = 0;
    for (char c : text) {
        if (c == '=')
            break;
        const char* at = std::find(kAlphabet, kAlphabet + 64, c);
        if (at == kAlphabet + 64)
            return Error { "the requests are not base64" };
        v = v << 6 | static_cast<unsigned>(at - kAlphabet);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out += static_cast<char>((v >> bits) & 0xff);
        }
    }
    return out;
}

std::string fileOf(const std::string& storePath, long long sessionId)
{
    return (std::filesystem::path(directory(storePath)) / ("session-" + std::to_string(sessionId) + ".jsonl")).string();
}

// Appends one line and syncs it: the line is either whole on the disk or, after a crash, a torn last line that
// recover() reports and skips.
Result<std::string> append(const std::string& storePath, long long sessionId, const json& line)
{
    std::error_code ec;
    std::filesystem::create_directories(directory(storePath), ec);
    const std::string file = fileOf(storePath, sessionId);
    const std::string text = jsonText(line) + "\n";
    if (text.size() > limits::kJournalLine)
        return Error { file + ": cannot keep the level there either: its line would be " + std::to_string(text.size())
            + " bytes, over the journal's limit of " + std::to_string(limits::kJournalLine) };
    // never through a link planted at the name, and never into anything but a regular file
    const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644);
    struct stat st { };
    if (fd >= 0 && (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
        ::close(fd);
        return Error { file + ": cannot keep the level there either: not a regular file" };
    }
    if (fd < 0)
        return Error { file + ": cannot keep the level there either: " + std::strerror(errno) };
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            const int err = errno;
            ::close(fd);
            return Error { file + ": cannot keep the level there either: " + std::strerror(err) };
        }
        done += static_cast<std::size_t>(n);
    }
    const bool synced = ::fsync(fd) == 0;
    ::close(fd);
    if (!synced)
        return Error { file + ": cannot keep the level there either: " + std::strerror(errno) };
    return file;
}

Result<RunRecord> parseRecord(const json& object, const std::string& where)
{
    // the record goes through the importer's own reader of Paretoscope JSON, padded as its parsers expect
    std::string text = object.dump();
    const std::size_t size = text.size();
    text.resize(size + 64, '\0');
    JsonElement el { std::string_view(text.data(), size), text.size(), 0, 1 };
    auto mapper = makeParetoscopeMapper();
    JsonRecordParser parser;
    mapper->begin();
    if (auto st = parser.walk(el, *mapper); !st)
        return Error { where + ": " + st.error() };
    auto record = mapper->finish();
    if (!record)
        return Error { where + ": " + record.error() };
    return record;
}

// Whether a session file ends with the session's end: the last line a session writes there.
bool endKept(const std::filesystem::path& file)
{
    std::string last;
    bool lastTooLong = false;
    forEachLine(file.string(), limits::kJournalLine, [&](std::string_view line, bool tooLong) {
        if (!line.empty() || tooLong) {
            last = line;
            lastTooLong = tooLong;
        }
        return true;
    });
    if (lastTooLong)
        return false;
    auto j = parseOutsideJson(last, file.string(), limits::kJsonDepth);
    return j && j->is_object() && j->contains("status");
}

bool levelStored(RunStore& store, long long sessionId, int level)
{
    for (const StoredLevel& l : sessionLevels(store, sessionId))
        if (l.level == level)
            return true;
    return false;
}

// The store's session files, in name order.
std::vector<std::filesystem::path> sessionFiles(const std::string& storePath)
{
    std::error_code ec;
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(directory(storePath), ec))
        if (entry.path().extension() == ".jsonl")
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

// The session a file is kept for, from its name (session-ID.jsonl); 0 when the name is not one a session writes.
long long fileSession(const std::filesystem::path& path)
{
    const std::string stem = path.stem().string();
    if (!stem.starts_with("session-") || stem.size() == 8 || stem.size() > 8 + 18
        || stem.find_first_not_of("0123456789", 8) != std::string::npos)
        return 0;
    return std::atoll(stem.c_str() + 8);
}

// A whole number field of a journal line within [lo, hi]; an error names the field.
Result<long long> wholeField(const json& line, const char* field, long long lo, long long hi)
{
    const auto it = line.find(field);
    if (it == line.end() || !it->is_number_integer())
        return Error { std::string("field ") + field + ": missing or not a whole number" };
    if (it->is_number_unsigned()
        && it->get<unsigned long long>() > static_cast<unsigned long long>(std::numeric_limits<long long>::max()))
        return Error { std::string("field ") + field + ": " + std::to_string(it->get<unsigned long long>())
            + " is out of range (" + std::to_string(lo) + " to " + std::to_string(hi) + ")" };
    const long long v = it->get<long long>();
    if (v < lo || v > hi)
        return Error { std::string("field ") + field + ": " + std::to_string(v) + " is out of range ("
            + std::to_string(lo) + " to " + std::to_string(hi) + ")" };
    return v;
}

Result<std::string> textField(const json& line, const char* field)
{
    const auto it = line.find(field);
    if (it == line.end() || !it->is_string())
        return Error { std::string("field ") + field + ": missing or not text" };
    return it->get<std::string>();
}

// Stores one line of a session file (a level, or how the session ended) and counts it in r; false when the line
// stays in the file, with r.error saying why.
bool recoverLine(RunStore& store, Recovered& r, std::string_view text, const std::string& where)
{
    auto line = parseLine(text, r.sessionId, where);
    if (!line) {
        r.error = line.error();
        return false;
    }
    if (line->ends) {
        if (auto st = finishSession(store, r.sessionId, line->status, line->reason); !st) {
            r.error = where + ": " + st.error();
            return false;
        }
        r.endRecorded = true;
        return true;
    }
    if (levelStored(store, r.sessionId, line->level)) {
        ++r.levelsAlready;
        return true;
    }
    auto stored
        = storeLevel(store, r.sessionId, line->level, line->concurrency, line->record, line->metrics, line->requests);
    if (!stored) {
        r.error = where + ": " + stored.error();
        return false;
    }
    ++r.levelsStored;
    return true;
}

// Stores what one session file holds, line by line, and removes the file when every line was stored.
Recovered recoverFile(RunStore& store, const std::filesystem::path& path, const std::vector<SessionInfo>& known)
{
    Recovered r;
    r.file = path.string();
    r.sessionId = fileSession(path);
    if (r.sessionId == 0) {
        r.error = r.file + ": not a session's file (session-ID.jsonl): left alone";
        return r;
    }
    const auto session
        = std::find_if(known.begin(), known.end(), [&](const SessionInfo& s) { return s.id == r.sessionId; });
    if (session == known.end()) {
        r.error = r.file + ": this store has no session " + std::to_string(r.sessionId) + ": not stored";
        return r;
    }
    // a session still running may append to its file at any moment: its levels are stored once it has ended
    // (the store says so, or the file's last line records its end)
    if (session->status == "running" && !endKept(path)) {
        r.error = "session " + std::to_string(r.sessionId) + " is still running; store its levels once it has ended";
        return r;
    }
    int lineNo = 0;
    bool whole = true;
    auto read = forEachLine(r.file, limits::kJournalLine, [&](std::string_view text, bool tooLong) {
        const std::string where = r.file + ": line " + std::to_string(++lineNo);
        if (tooLong) {
            r.error = where + ": longer than " + std::to_string(limits::kJournalLine) + " bytes: not read";
            whole = false;
        } else if (!recoverLine(store, r, text, where)) {
            whole = false;
        }
        return true;
    });
    if (!read) {
        r.error = read.error();
        return r;
    }
    if (whole) {
        std::error_code ec;
        std::filesystem::remove(path, ec);
        if (r.levelsStored > 0)
            noteLevelsRecovered(store, r.sessionId, r.levelsStored);
    }
    return r;
}

} // namespace

Result<Line> parseLine(std::string_view text, long long fileSession, const std::string& where)
{
    auto parsed = parseOutsideJson(text, where, limits::kJsonDepth);
    if (!parsed || !parsed->is_object() || !parsed->contains("session"))
        return Error { where + ": not a whole line (the process may have been stopped while writing it)" };
    const json& j = *parsed;
    const auto fail = [&](const std::string& why) { return Error { where + ": " + why }; };
    auto session = wholeField(j, "session", 1, std::numeric_limits<long long>::max());
    if (!session)
        return fail(session.error());
    if (*session != fileSession)
        return fail("names session " + std::to_string(*session) + ", but the file is kept for session "
            + std::to_string(fileSession) + ": not stored");
    Line line;
    if (j.contains("status")) {
        auto status = textField(j, "status");
        if (!status)
            return fail(status.error());
        if (*status != "finished" && *status != "failed" && *status != "cancelled" && *status != "interrupted")
            return fail("field status: \"" + printable(*status) + "\" is not how a session ends");
        const auto reason = j.find("reason");
        if (reason != j.end() && !reason->is_string())
            return fail("field reason: not text");
        line.ends = true;
        line.status = *status;
        line.reason = reason != j.end() ? reason->get<std::string>() : std::string();
        return line;
    }
    auto level = wholeField(j, "level", 0, kMaxLevels - 1);
    auto concurrency = wholeField(j, "concurrency", 1, kMaxConcurrency);
    auto metrics = textField(j, "metrics");
    auto requestsText = textField(j, "requests");
    if (!level || !concurrency || !metrics || !requestsText)
        return fail(!level     ? level.error()
                : !concurrency ? concurrency.error()
                : !metrics     ? metrics.error()
                               : requestsText.error());
    const auto recordJson = j.find("record");
    if (recordJson == j.end() || !recordJson->is_object())
        return fail("field record: missing or not an object");
    auto record = parseRecord(*recordJson, where);
    if (!record)
        return Error { record.error() };
    if (record->concurrency != *concurrency)
        return fail("field concurrency: " + std::to_string(*concurrency) + ", but its record says "
            + std::to_string(record->concurrency));
    auto raw = unbase64(*requestsText);
    if (!raw)
        return fail(raw.error());
    auto requests = decodeRequests(*raw, where);
    if (!requests)
        return Error { requests.error() };
    line.level = static_cast<int>(*level);
    line.concurrency = static_cast<int>(*concurrency);
    line.record = std::move(*record);
    line.metrics = std::move(*metrics);
    line.requests = std::move(*requests);
    return line;
}

std::string directory(const std::string& storePath)
{
    return storePath + "-sessions";
}

Result<std::string> keepLevel(const std::string& storePath, long long sessionId, int level, int concurrency,
    const RunRecord& record, const std::string& metricsJson, const std::vector<RequestLog>& requests)
{
    json line = { { "session", sessionId }, { "level", level }, { "concurrency", concurrency },
        { "record", json::parse(runRecordJson(record)) }, { "metrics", metricsJson },
        { "requests", base64(encodeRequests(requests)) } };
    return append(storePath, sessionId, line);
}

Result<std::string> keepEnd(
    const std::string& storePath, long long sessionId, const std::string& status, const std::string& reason)
{
    return append(storePath, sessionId, { { "session", sessionId }, { "status", status }, { "reason", reason } });
}

int pendingLevels(const std::string& storePath)
{
    int n = 0;
    for (const auto& path : sessionFiles(storePath))
        forEachLine(path.string(), limits::kJournalLine, [&](std::string_view line, bool) {
            n += line.find("\"level\":") != std::string_view::npos;
            return true;
        });
    return n;
}

std::vector<Recovered> recover(RunStore& store)
{
    std::vector<Recovered> out;
    const std::vector<std::filesystem::path> files = sessionFiles(store.path());
    const std::vector<SessionInfo> known = sessions(store);
    out.reserve(files.size());
    for (const auto& path : files)
        out.push_back(recoverFile(store, path, known));
    std::error_code ec;
    std::filesystem::remove(directory(store.path()), ec); // only when empty
    return out;
}

} // namespace paretoscope::sessionjournal
