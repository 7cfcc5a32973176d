#include "core/live/sessionjournal.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <fcntl.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "core/import/formats/jsonrecordparser.h"
#include "core/import/formats/paretoscopemapper.h"
#include "core/live/requestcodec.h"
#include "core/live/sessionstore.h"
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
    const std::string text = line.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
    const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
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
    std::ifstream in(file);
    std::string line, last;
    while (std::getline(in, line))
        if (!line.empty())
            last = line;
    const json j = json::parse(last, nullptr, false);
    return j.is_object() && j.contains("status");
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

// Stores one line of a session file (a level, or how the session ended) and counts it in r; false when the line
// stays in the file, with r.error saying why.
bool recoverLine(RunStore& store, Recovered& r, const std::string& text, const std::string& where)
{
    json line = json::parse(text, nullptr, false);
    if (line.is_discarded() || !line.is_object() || !line.contains("session")) {
        r.error = where + ": not a whole line (the process may have been stopped while writing it)";
        return false;
    }
    r.sessionId = line.value("session", 0LL);
    if (line.contains("status")) {
        auto st = finishSession(
            store, r.sessionId, line.value("status", std::string("failed")), line.value("reason", std::string()));
        if (!st) {
            r.error = where + ": " + st.error();
            return false;
        }
        r.endRecorded = true;
        return true;
    }
    const int level = line.value("level", -1);
    if (levelStored(store, r.sessionId, level)) {
        ++r.levelsAlready;
        return true;
    }
    auto record = parseRecord(line.value("record", json::object()), where);
    auto raw = unbase64(line.value("requests", std::string()));
    Result<std::vector<RequestLog>> requests = Error { "" };
    if (raw)
        requests = decodeRequests(*raw, where);
    if (!record || !raw || !requests) {
        r.error = !record ? record.error() : !raw ? where + ": " + raw.error() : requests.error();
        return false;
    }
    auto stored = storeLevel(store, r.sessionId, level, line.value("concurrency", 0), *record,
        line.value("metrics", std::string("{}")), *requests);
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
    // a session still running may append to its file at any moment: its levels are stored once it has ended
    // (the store says so, or the file's last line records its end)
    const std::string stem = path.stem().string();
    const long long fileSession = stem.starts_with("session-") ? std::atoll(stem.c_str() + 8) : 0;
    const auto running = std::find_if(
        known.begin(), known.end(), [&](const SessionInfo& s) { return s.id == fileSession && s.status == "running"; });
    if (running != known.end() && !endKept(path)) {
        r.sessionId = fileSession;
        r.error = "session " + std::to_string(fileSession) + " is still running; store its levels once it has ended";
        return r;
    }
    std::ifstream in(path);
    std::string text;
    int lineNo = 0;
    bool whole = true;
    while (std::getline(in, text)) {
        ++lineNo;
        const std::string where = r.file + ": line " + std::to_string(lineNo);
        if (!recoverLine(store, r, text, where))
            whole = false;
    }
    if (whole) {
        in.close();
        std::error_code ec;
        std::filesystem::remove(path, ec);
        if (r.levelsStored > 0)
            noteLevelsRecovered(store, r.sessionId, r.levelsStored);
    }
    return r;
}

} // namespace

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
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(directory(storePath), ec)) {
        std::ifstream in(entry.path());
        std::string line;
        while (std::getline(in, line))
            n += line.find("\"level\":") != std::string::npos;
    }
    return n;
}

std::vector<Recovered> recover(RunStore& store)
{
    std::vector<Recovered> out;
    const std::vector<std::filesystem::path> files = sessionFiles(store.path());
    const std::vector<SessionInfo> known = sessions(store);
    for (const auto& path : files)
        out.push_back(recoverFile(store, path, known));
    std::error_code ec;
    std::filesystem::remove(directory(store.path()), ec); // only when empty
    return out;
}

} // namespace paretoscope::sessionjournal
