#include "truthlog.h"

#include <QFile>

#include <algorithm>
#include <unordered_map>

namespace paretoscope::testsupport {

std::vector<TruthLine> readTruthLog(const QString& path, int* bad)
{
    std::vector<TruthLine> lines;
    int broken = 0;
    QFile f(path);
    if (f.open(QIODevice::ReadOnly)) {
        f.readLine(); // header
        while (!f.atEnd()) {
            QList<QByteArray> fields = f.readLine().trimmed().split(',');
            bool ok[6] = {};
            TruthLine l;
            if (fields.size() == 7) {
                l.id = fields[0].toStdString();
                l.receivedNs = fields[1].toLongLong(&ok[0]);
                l.firstNs = fields[2].toLongLong(&ok[1]);
                l.lastNs = fields[3].toLongLong(&ok[2]);
                l.tokens = fields[4].toInt(&ok[3]);
                l.queued = fields[5].toInt(&ok[4]) != 0;
                l.outcome = fields[6].toStdString();
                ok[5] = !l.id.empty();
            }
            if (std::all_of(std::begin(ok), std::end(ok), [](bool b) { return b; }))
                lines.push_back(std::move(l));
            else
                ++broken;
        }
    }
    if (bad)
        *bad = broken;
    return lines;
}

TruthComparison compareWithTruth(const LevelResult& level, const std::vector<TruthLine>& truth, double nominalTtft)
{
    TruthComparison c;
    std::unordered_map<std::string, const TruthLine*> byId;
    for (const TruthLine& l : truth)
        if (!byId.emplace(l.id, &l).second)
            ++c.duplicated;
    const double origin = static_cast<double>(level.clockOriginNs) * 1e-9;
    for (const RequestLog& q : level.requests) {
        if (q.warmup || !q.ok())
            continue;
        auto it = q.responseId.empty() ? byId.end() : byId.find(q.responseId);
        if (it == byId.end()) {
            ++c.unmatched;
            continue;
        }
        ++c.matched;
        const TruthLine& t = *it->second;
        c.queued += t.queued ? 1 : 0;
        double received = static_cast<double>(t.receivedNs) * 1e-9, first = static_cast<double>(t.firstNs) * 1e-9,
               last = static_cast<double>(t.lastNs) * 1e-9;
        double clientTtft = q.firstToken - q.sent;
        double clientLast = q.chunks.empty() ? q.end : q.sent + static_cast<double>(q.chunks.back());
        c.ttftNominal.push_back(clientTtft - nominalTtft);
        c.ttftTruth.push_back(clientTtft - (first - received));
        c.e2eTruth.push_back(clientLast - q.sent - (last - received));
        c.firstLag.push_back(origin + q.firstToken - first);
        c.lastLag.push_back(origin + clientLast - last);
        c.sendLag.push_back(received - (origin + q.sent));
        c.simLate.push_back(first - received - nominalTtft);
    }
    return c;
}

double quantileOf(std::vector<double> v, double q)
{
    if (v.empty())
        return 0;
    auto at = v.begin() + static_cast<std::ptrdiff_t>(q * static_cast<double>(v.size() - 1));
    std::nth_element(v.begin(), at, v.end());
    return *at;
}

} // namespace paretoscope::testsupport
