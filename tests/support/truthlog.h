#pragma once

#include <QString>

#include <string>
#include <vector>

#include "core/live/loadgenerator.h"

namespace paretoscope::testsupport {

/// One line of paretoscope-engine-sim's --truth-log: what the emulator really did, CLOCK_MONOTONIC ns.
struct TruthLine {
    std::string id;
    long long receivedNs = 0; ///< the request read
    long long firstNs = 0; ///< the first token written
    long long lastNs = 0; ///< the last token written, 0 if the stream ended before it
    int tokens = 0;
    bool queued = false;
    std::string outcome;
};

/// Reads a truth log (header first); `bad` counts the lines that do not parse.
std::vector<TruthLine> readTruthLog(const QString& path, int* bad = nullptr);

/// The client's measured requests set against the emulator's truth, per request in seconds (client minus truth).
struct TruthComparison {
    int matched = 0; ///< completed measured requests found in the truth log
    int unmatched = 0; ///< completed measured requests with no truth line (no id, or none with it)
    int duplicated = 0; ///< truth ids seen more than once
    int queued = 0; ///< matched requests some of whose token bytes waited in the emulator (their times are early)
    std::vector<double> ttftNominal; ///< client TTFT minus the nominal TTFT
    std::vector<double> ttftTruth; ///< client TTFT minus the emulator's (first token written minus request read)
    std::vector<double> e2eTruth; ///< client end-to-end (to the last token) minus the emulator's (last minus read)
    std::vector<double> firstLag; ///< client receive of the first token minus the emulator's write
    std::vector<double> lastLag; ///< the same for the last token
    std::vector<double> sendLag; ///< the emulator's read of the request minus the client's send
    std::vector<double> simLate; ///< the emulator's first write minus (its read + nominal TTFT): the emulator late
};

/// Joins the completed, measured requests of a level with truth lines by response id.
TruthComparison compareWithTruth(const LevelResult& level, const std::vector<TruthLine>& truth, double nominalTtft);

/// The median of a list of figures (0 when empty), and the given quantile.
double quantileOf(std::vector<double> v, double q);

} // namespace paretoscope::testsupport
