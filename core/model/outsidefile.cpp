#include "core/model/outsidefile.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <random>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace paretoscope {

namespace {

std::string kindOf(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a folder";
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISSOCK(mode))
        return "a socket";
    if (S_ISCHR(mode) || S_ISBLK(mode))
        return "a device";
    if (S_ISLNK(mode))
        return "a symbolic link";
    return "not a regular file";
}

class Fd {
public:
    explicit Fd(int fd)
        : m_fd(fd)
    {
    }
    ~Fd()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    int get() const { return m_fd; }
    int release() { return std::exchange(m_fd, -1); }
    void reset(int fd)
    {
        if (m_fd >= 0)
            ::close(m_fd);
        m_fd = fd;
    }

private:
    int m_fd;
};

Status writeAll(int fd, std::string_view text, const std::string& path)
{
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return Error { path + ": cannot write: " + std::strerror(n < 0 ? errno : ENOSPC) };
        done += static_cast<std::size_t>(n);
    }
    return ok();
}

} // namespace

Result<int> openRegularFile(const std::string& path)
{
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer; it is refused below anyway
    Fd fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
    if (fd.get() < 0)
        return Error { path + ": cannot open: " + std::strerror(errno) };
    struct stat st { };
    if (::fstat(fd.get(), &st) != 0)
        return Error { path + ": cannot read: " + std::strerror(errno) };
    if (!S_ISREG(st.st_mode))
        return Error { path + ": " + kindOf(st.st_mode) + ", not a regular file: refused" };
    const int flags = ::fcntl(fd.get(), F_GETFL);
    if (flags < 0 || ::fcntl(fd.get(), F_SETFL, flags & ~O_NONBLOCK) != 0)
        return Error { path + ": cannot read: " + std::strerror(errno) };
    return fd.release();
}

Result<std::string> readRegularFile(const std::string& path, std::uint64_t maxBytes)
{
    auto opened = openRegularFile(path);
    if (!opened)
        return Error { opened.error() };
    Fd fd(*opened);
    struct stat st { };
    if (::fstat(fd.get(), &st) != 0)
        return Error { path + ": cannot read: " + std::strerror(errno) };
    const auto tooLarge = [&] {
        return Error { path + ": larger than " + std::to_string(maxBytes)
            + " bytes, the limit for this kind of file: "
              "refused unread" };
    };
    if (static_cast<std::uint64_t>(st.st_size) > maxBytes)
        return tooLarge();
    std::string text;
    text.reserve(static_cast<std::size_t>(st.st_size));
    char buf[65536];
    for (;;) {
        const ssize_t n = ::read(fd.get(), buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return Error { path + ": cannot read: " + std::strerror(errno) };
        if (n == 0)
            break;
        // a file that grows while it is read is held to the same limit
        if (text.size() + static_cast<std::size_t>(n) > maxBytes)
            return tooLarge();
        text.append(buf, static_cast<std::size_t>(n));
    }
    return text;
}

Status forEachLine(const std::string& path, std::uint64_t maxLineBytes,
    const std::function<bool(std::string_view line, bool tooLong)>& onLine)
{
    auto opened = openRegularFile(path);
    if (!opened)
        return Error { opened.error() };
    Fd fd(*opened);
    std::string line;
    bool tooLong = false;
    char buf[65536];
    for (;;) {
        const ssize_t n = ::read(fd.get(), buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return Error { path + ": cannot read: " + std::strerror(errno) };
        if (n == 0)
            break;
        std::string_view chunk(buf, static_cast<std::size_t>(n));
        while (!chunk.empty()) {
            const std::size_t nl = chunk.find('\n');
            const std::string_view part = chunk.substr(0, nl);
            if (!tooLong && line.size() + part.size() > maxLineBytes) {
                tooLong = true;
                std::string().swap(line);
            }
            if (!tooLong)
                line.append(part);
            if (nl == std::string_view::npos)
                break;
            if (!onLine(line, tooLong))
                return ok();
            line.clear();
            tooLong = false;
            chunk.remove_prefix(nl + 1);
        }
    }
    if (!line.empty() || tooLong)
        onLine(line, tooLong);
    return ok();
}

Result<PendingFile> openPendingFile(const std::string& path, unsigned mode)
{
    namespace fs = std::filesystem;
    const fs::path target(path);
    const fs::path folder = target.parent_path().empty() ? fs::path(".") : target.parent_path();
    PendingFile out;
    // a file replaced keeps its permission bits (a 0600 report stays private), with the execute bits asked added
    if (struct stat st {}; ::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode))
        mode = (st.st_mode & 07777) | (mode & 0111);
    out.mode = mode;
    // written unnamed where the file system can: a signal or kill -9 while it is written leaves nothing
    out.fd = ::open(folder.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, mode);
    if (out.fd < 0) {
        std::random_device random;
        // a short name of its own, whatever the target's length (a name of 255 bytes has no room for a suffix);
        // O_EXCL with O_CREAT: a name that exists (a link planted there) is never opened
        out.temporary
            = (folder / (".paretoscope-" + std::to_string(::getpid()) + "-" + std::to_string(random()) + ".tmp"))
                  .string();
        out.fd = ::open(out.temporary.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode);
        if (out.fd < 0)
            return Error { path + ": cannot write: " + std::strerror(errno) };
    }
    return out;
}

Status publishFile(PendingFile& file, const std::string& path)
{
    namespace fs = std::filesystem;
    Status written = ok();
    if (::fsync(file.fd) != 0)
        written = Error { path + ": cannot write: " + std::strerror(errno) };
    if (written && ::fchmod(file.fd, file.mode) != 0) // the umask narrowed the bits open() set
        written = Error { path + ": cannot set its permissions: " + std::strerror(errno) };
    if (written && file.temporary.empty()) { // named only now, for as long as the rename takes
        const fs::path folder = fs::path(path).parent_path().empty() ? fs::path(".") : fs::path(path).parent_path();
        std::random_device random;
        const std::string name
            = (folder / (".paretoscope-" + std::to_string(::getpid()) + "-" + std::to_string(random()) + ".tmp"))
                  .string();
        const std::string self = "/proc/self/fd/" + std::to_string(file.fd);
        if (::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, name.c_str(), AT_SYMLINK_FOLLOW) != 0)
            written = Error { path + ": cannot write: " + std::strerror(errno) };
        else
            file.temporary = name;
    }
    if (written && ::rename(file.temporary.c_str(), path.c_str()) != 0)
        written = Error { path + ": cannot write: " + std::strerror(errno) };
    if (written)
        file.temporary.clear();
    else if (!file.temporary.empty()) {
        ::unlink(file.temporary.c_str());
        file.temporary.clear();
    }
    return written;
}

void dropPendingFile(PendingFile& file)
{
    if (!file.temporary.empty())
        ::unlink(file.temporary.c_str());
    file.temporary.clear();
    if (file.fd >= 0)
        ::close(file.fd);
    file.fd = -1;
}

Status replaceFile(const std::string& path, std::string_view text, unsigned mode)
{
    auto file = openPendingFile(path, mode);
    if (!file)
        return Error { file.error() };
    Status written = writeAll(file->fd, text, path);
    if (written)
        written = publishFile(*file, path);
    dropPendingFile(*file);
    return written;
}

Status appendToFile(const std::string& path, std::string_view text)
{
    Fd fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644));
    if (fd.get() < 0)
        return Error { path
            + ": cannot append: " + (errno == ELOOP ? std::string("a symbolic link: refused") : std::strerror(errno)) };
    struct stat st { };
    if (::fstat(fd.get(), &st) != 0)
        return Error { path + ": cannot append: " + std::strerror(errno) };
    if (!S_ISREG(st.st_mode))
        return Error { path + ": " + kindOf(st.st_mode) + ", not a regular file: refused" };
    return writeAll(fd.get(), text, path);
}

} // namespace paretoscope
