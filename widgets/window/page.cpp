// The page base (what the window tells a tab) and the page table.
#include "widgets/window/page.h"

#include <QSettings>
#include <QStringList>

#include "widgets/window/builtinpages.h"
#include "widgets/window/mainwindow.h"

namespace paretoscope::ui {

Page::Page(MainWindow& window)
    : QObject(&window)
    , m_window(window)
{
}

void Page::restoreSettings(const QSettings&) { }

void Page::saveSettings(QSettings&) const { }

void Page::connectToWindow() { }

void Page::scopeShown(bool inFront)
{
    m_stale = true;
    if (inFront)
        entered();
}

void Page::entered()
{
    if (!m_stale)
        return;
    m_stale = false;
    load();
}

void Page::load()
{
    emit ready();
}

namespace {
std::vector<PageSpec>& table()
{
    static std::vector<PageSpec> specs = builtinPages();
    return specs;
}
} // namespace

const std::vector<PageSpec>& pageSpecs()
{
    return table();
}

bool addPage(PageSpec spec)
{
    if (spec.key.isEmpty() || !spec.make || findPageSpec(spec.key))
        return false;
    table().push_back(std::move(spec));
    return true;
}

const PageSpec* findPageSpec(const QString& key)
{
    for (const PageSpec& s : table())
        if (s.key.compare(key, Qt::CaseInsensitive) == 0)
            return &s;
    return nullptr;
}

QString pageKeys()
{
    QStringList keys;
    for (const PageSpec& s : table())
        keys << s.key;
    return keys.join(QStringLiteral(", "));
}

} // namespace paretoscope::ui
