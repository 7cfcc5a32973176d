#include "core/store/storecheck.h"

#include <sqlite3.h>

#include <algorithm>
#include <map>
#include <set>

#include "core/store/contentbuckets.h"
#include "core/store/sqlite.h"

namespace paretoscope {
namespace {

constexpr std::size_t kProblemsShown = 3; // per table: SQLite lists a damaged page's every cell

// SQLite's own words: the check itself is what the plain-words hint of errorText() points to
std::string failureOf(sqlite3* db)
{
    return sqlite3_errmsg(db);
}

std::vector<std::string> integrityLines(sqlite3* db, const std::string& pragma, std::string& failure)
{
    std::vector<std::string> lines;
    sql::Statement s(db, pragma);
    while (s.step()) {
        // a row may hold several problems, one per line, under a "*** in database main ***" heading
        const std::string text = s.text(0);
        std::size_t from = 0;
        while (from < text.size()) {
            std::size_t end = text.find('\n', from);
            if (end == std::string::npos)
                end = text.size();
            const std::string line = text.substr(from, end - from);
            if (!line.empty() && !line.starts_with("*** in database"))
                lines.push_back(line);
            from = end + 1;
        }
    }
    if (!s.valid() || s.failed())
        failure = failureOf(db);
    if (lines.size() == 1 && lines.front() == "ok")
        lines.clear();
    return lines;
}

std::string quoted(const std::string& name)
{
    std::string out = "\"";
    for (char c : name)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

} // namespace

bool StoreCheckReport::ok() const
{
    if (schemaVersion < 0 || !general.empty() || !references.empty())
        return false;
    return std::all_of(tables.begin(), tables.end(), [](const Table& t) { return t.problems.empty(); });
}

std::string StoreCheckReport::text() const
{
    std::string out = path + ": " + (ok() ? "no damage found" : "damaged") + "\n";
    if (schemaVersion >= 0)
        out += "  schema version " + std::to_string(schemaVersion) + "\n";
    for (const Table& t : tables) {
        out += "  " + t.name + ": ";
        if (t.problems.empty()) {
            out += "ok\n";
            continue;
        }
        out += std::to_string(t.problems.size()) + (t.problems.size() == 1 ? " problem" : " problems");
        for (std::size_t i = 0; i < std::min(kProblemsShown, t.problems.size()); ++i)
            out += (i ? "; " : ": ") + t.problems[i];
        out += t.problems.size() > kProblemsShown ? "; ...\n" : "\n";
    }
    for (const std::string& g : general)
        out += "  " + g + "\n";
    for (const std::string& r : references)
        out += "  references: " + r + "\n";
    if (!ok())
        out += "Copy out what can still be read with `paretoscope-cli recover --db " + path
            + " --to NEW.sqlite`; the damaged file is left as it is.\n";
    return out;
}

Result<StoreCheckReport> checkStore(const std::string& path)
{
    auto db = sql::openForReading(path);
    if (!db)
        return Error { db.error() };
    StoreCheckReport report;
    report.path = path;
    {
        sql::Statement v(db->get(), "PRAGMA user_version");
        if (v.step())
            report.schemaVersion = static_cast<int>(v.int64(0));
        else
            report.general.push_back("the header cannot be read: " + failureOf(db->get()));
    }
    std::vector<std::string> names;
    {
        sql::Statement s(db->get(),
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rootpage");
        while (s.step())
            names.push_back(s.text(0));
        if (s.failed() || !s.valid()) {
            report.general.push_back("the list of tables cannot be read: " + failureOf(db->get()));
            return report;
        }
    }
    std::set<std::string> attributed;
    for (const std::string& name : names) {
        StoreCheckReport::Table t { name, {} };
        std::string failure;
        t.problems = integrityLines(db->get(), "PRAGMA integrity_check(" + quoted(name) + ")", failure);
        attributed.insert(t.problems.begin(), t.problems.end());
        if (!failure.empty())
            t.problems.push_back("cannot be checked: " + failure);
        report.tables.push_back(std::move(t));
    }
    // the whole-file check also finds pages that no table uses and a damaged list of free pages
    std::string failure;
    for (const std::string& line : integrityLines(db->get(), "PRAGMA integrity_check", failure))
        if (!attributed.count(line))
            report.general.push_back(line);
    if (!failure.empty())
        report.general.push_back("the whole-file check stopped: " + failure);

    std::map<std::pair<std::string, std::string>, long long> broken; // (table, parent) -> rows
    {
        sql::Statement fk(db->get(), "PRAGMA foreign_key_check");
        while (fk.step())
            ++broken[{ fk.text(0), fk.text(2) }];
        if (fk.failed())
            report.references.push_back("cannot be checked: " + failureOf(db->get()));
    }
    for (const auto& [tables, rows] : broken)
        report.references.push_back(tables.first + ": " + std::to_string(rows)
            + (rows == 1 ? " row points" : " rows point") + " to no row of " + tables.second);

    // every run's content hash is in its bucket, and no other hash is: otherwise duplicates are missed or refused
    const bool hasBuckets = std::find(names.begin(), names.end(), "content_buckets") != names.end();
    if (hasBuckets && report.ok()) {
        std::vector<std::uint64_t> inBuckets, ofRuns;
        sql::Statement b(db->get(), "SELECT hashes FROM content_buckets");
        while (b.step()) {
            const auto hashes = contentbuckets::decode(b.blobView(0));
            inBuckets.insert(inBuckets.end(), hashes.begin(), hashes.end());
        }
        sql::Statement r(db->get(), "SELECT content_hash FROM runs");
        while (r.step())
            ofRuns.push_back(static_cast<std::uint64_t>(r.int64(0)));
        std::sort(inBuckets.begin(), inBuckets.end());
        std::sort(ofRuns.begin(), ofRuns.end());
        if (b.failed() || r.failed())
            report.general.push_back("the content hashes cannot be compared with the runs: " + failureOf(db->get()));
        else if (inBuckets != ofRuns)
            report.general.push_back("content_buckets: " + std::to_string(inBuckets.size()) + " content hashes for "
                + std::to_string(ofRuns.size()) + " runs; duplicates would be missed or refused");
    }
    return report;
}

} // namespace paretoscope
