#pragma once

#include <QByteArray>
#include <QFile>
#include <QString>
#include <QTemporaryDir>
#include <memory>

#include "core/store/runstore.h"

namespace paretoscope::testsupport {

inline QString fixture(const QString& rel)
{
    return QStringLiteral(PARETOSCOPE_FIXTURES_DIR "/") + rel;
}

inline QByteArray readAll(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

inline bool writeFile(const QString& path, const QByteArray& data)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    return f.write(data) == data.size();
}

inline std::unique_ptr<RunStore> openTempStore(const QTemporaryDir& dir, const QString& name = "store.sqlite")
{
    auto s = RunStore::open(dir.filePath(name).toStdString());
    return s ? std::move(*s) : nullptr;
}

} // namespace paretoscope::testsupport
