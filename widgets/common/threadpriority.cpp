#include "widgets/common/threadpriority.h"

#include <QCoreApplication>
#include <QThread>

#ifdef __linux__
#include <cerrno>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace paretoscope::ui {

void runBehindTheGui()
{
    // a task queued on a pool is run by the thread that waits for its future (a panel's destructor, on the GUI
    // thread): lowered, the GUI thread could never be raised again without privilege
    const QCoreApplication* app = QCoreApplication::instance();
    if (!app || QThread::currentThread() == app->thread())
        return;
#ifdef __linux__
    // on Linux a nice value belongs to a thread (its id), not to the whole process; raising it needs no privilege
    const auto tid = static_cast<id_t>(::syscall(SYS_gettid));
    errno = 0;
    const int now = ::getpriority(PRIO_PROCESS, tid);
    if (errno == 0 && now < kBehindTheGuiNice)
        ::setpriority(PRIO_PROCESS, tid, kBehindTheGuiNice);
#endif
}

} // namespace paretoscope::ui
