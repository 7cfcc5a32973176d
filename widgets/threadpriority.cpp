#include "threadpriority.h"

#ifdef __linux__
#include <cerrno>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace paretoscope::ui {

void runBehindTheGui()
{
#ifdef __linux__
    // on Linux a nice value belongs to a thread (its id), not to the whole process; raising it needs no privilege
    constexpr int kBehind = 10;
    const auto tid = static_cast<id_t>(::syscall(SYS_gettid));
    errno = 0;
    const int now = ::getpriority(PRIO_PROCESS, tid);
    if (errno == 0 && now < kBehind)
        ::setpriority(PRIO_PROCESS, tid, kBehind);
#endif
}

} // namespace paretoscope::ui
