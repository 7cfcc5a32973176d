#pragma once
// Processes and ports for the tests that launch engines: a free port, the processes running with given words on their
// command line, and waiting for them to be gone.

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <netinet/in.h>
#include <string>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace paretoscope::testsupport {

// A TCP port free on the loopback now (the kernel picks it), or -1 where no socket could be bound.
inline int freePort()
{
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a {};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
        ::close(fd);
        return -1;
    }
    socklen_t len = sizeof a;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
    ::close(fd);
    return ntohs(a.sin_port);
}

// Processes whose command line holds every one of the words (the engine emulator on a given port).
inline std::vector<pid_t> processesWith(const std::vector<std::string>& words)
{
    std::vector<pid_t> found;
    DIR* d = ::opendir("/proc");
    while (dirent* e = d ? ::readdir(d) : nullptr) {
        pid_t pid = static_cast<pid_t>(std::atoi(e->d_name));
        if (pid <= 0)
            continue;
        std::ifstream in("/proc/" + std::string(e->d_name) + "/cmdline", std::ios::binary);
        std::string cmd((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        for (char& c : cmd)
            c = c == '\0' ? ' ' : c;
        bool all = !cmd.empty();
        for (const std::string& w : words)
            all = all && cmd.find(w) != std::string::npos;
        // a zombie has an empty cmdline; a live match is what matters
        if (all)
            found.push_back(pid);
    }
    if (d)
        ::closedir(d);
    return found;
}

inline bool goneWithin(const std::vector<std::string>& words, double seconds)
{
    auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < until) {
        if (processesWith(words).empty())
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return processesWith(words).empty();
}

} // namespace paretoscope::testsupport
