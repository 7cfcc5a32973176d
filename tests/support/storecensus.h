#pragma once
// What a store holds, counted so that any row of a failed import would show: the store fault suites compare it before
// and after.

#include <QString>

#include "core/store/runstore.h"
#include "tests/support/storequeries.h"

namespace paretoscope::testsupport {

struct Census {
    long long runs = 0, sources = 0, series = 0, hashes = 0, brokenReferences = 0;
    QString integrity;
    bool operator==(const Census&) const = default;
};

/// The store's rows counted on connections of their own.
inline Census census(const QString& db)
{
    Census c;
    c.runs = scalar(db, "SELECT count(*) FROM runs");
    c.sources = scalar(db, "SELECT count(*) FROM sources");
    c.series = scalar(db, "SELECT count(*) FROM series");
    c.brokenReferences = scalar(db, "SELECT count(*) FROM pragma_foreign_key_check");
    auto s = RunStore::open(db.toStdString(), StoreAccess::ReadOnly);
    if (s) {
        c.hashes = static_cast<long long>((*s)->storedContentHashes().size());
        c.integrity = QString::fromStdString((*s)->integrityCheck());
    }
    return c;
}

/// The census in one line, for a failure's message.
inline QString describe(const Census& c)
{
    return QStringLiteral("runs %1 sources %2 series %3 hashes %4 broken references %5 integrity %6")
        .arg(c.runs)
        .arg(c.sources)
        .arg(c.series)
        .arg(c.hashes)
        .arg(c.brokenReferences)
        .arg(c.integrity);
}

} // namespace paretoscope::testsupport
