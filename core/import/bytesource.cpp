#include "core/import/bytesource.h"

#include "core/model/outsidefile.h"

#include <cerrno>
#include <cstring>
#include <memory>
#include <sys/stat.h>
#include <unistd.h>

namespace paretoscope {

Result<std::unique_ptr<FileSource>> FileSource::open(const std::string& path)
{
    // a FIFO, device or folder is refused at once: an import never waits on a writer that may never come
    auto fd = openRegularFile(path);
    if (!fd)
        return Error { fd.error() };
    return adopt(*fd, path);
}

Result<std::unique_ptr<FileSource>> FileSource::adopt(int fd, const std::string& name)
{
    struct stat st { };
    if (::fstat(fd, &st) != 0 || ::lseek(fd, 0, SEEK_SET) != 0) {
        const int err = errno;
        ::close(fd);
        return Error { name + ": cannot read back: " + std::strerror(err) };
    }
    std::FILE* f = ::fdopen(fd, "rb");
    if (!f) {
        const int err = errno;
        ::close(fd);
        return Error { name + ": cannot read back: " + std::strerror(err) };
    }
    return std::unique_ptr<FileSource>(new FileSource(f, name, static_cast<std::uint64_t>(st.st_size)));
}

FileSource::FileSource(std::FILE* f, std::string path, std::uint64_t size)
    : m_file(f)
    , m_path(std::move(path))
    , m_size(size)
{
}

FileSource::~FileSource()
{
    std::fclose(m_file);
}

Result<std::size_t> FileSource::read(char* dst, std::size_t n)
{
    std::size_t got = std::fread(dst, 1, n, m_file);
    if (got < n && std::ferror(m_file))
        return Error { m_path + ": read failed: " + std::strerror(errno) };
    return got;
}

MemorySource::MemorySource(std::string name, std::string data)
    : m_name(std::move(name))
    , m_data(std::move(data))
{
}

Result<std::size_t> MemorySource::read(char* dst, std::size_t n)
{
    std::size_t take = std::min(n, m_data.size() - m_pos);
    std::memcpy(dst, m_data.data() + m_pos, take);
    m_pos += take;
    return take;
}

} // namespace paretoscope
