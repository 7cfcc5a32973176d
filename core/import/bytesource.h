#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include "core/model/result.h"

namespace paretoscope {

/// Bytes to import, read in pieces: a file on disk or a buffer already in memory (an HTTP response body).
class ByteSource {
public:
    virtual ~ByteSource() = default;
    /// Reads up to n bytes into dst; returns the count, 0 at the end, or an error.
    virtual Result<std::size_t> read(char* dst, std::size_t n) = 0;
    /// Total size in bytes where known (for progress), else 0.
    virtual std::uint64_t size() const = 0;
    /// The name used in messages: the path or URL.
    virtual const std::string& name() const = 0;
};

/// A file read with stdio; opening fails with a message naming the path and the system's reason.
class FileSource final : public ByteSource {
public:
    static Result<std::unique_ptr<FileSource>> open(const std::string& path);
    /// Reads an open file descriptor from its start (the source closes it), named `name` in messages.
    static Result<std::unique_ptr<FileSource>> adopt(int fd, const std::string& name);
    ~FileSource() override;
    Result<std::size_t> read(char* dst, std::size_t n) override;
    std::uint64_t size() const override { return m_size; }
    const std::string& name() const override { return m_path; }

private:
    FileSource(std::FILE* f, std::string path, std::uint64_t size);
    std::FILE* m_file;
    std::string m_path;
    std::uint64_t m_size;
};

/// A buffer in memory.
class MemorySource final : public ByteSource {
public:
    MemorySource(std::string name, std::string data);
    Result<std::size_t> read(char* dst, std::size_t n) override;
    std::uint64_t size() const override { return m_data.size(); }
    const std::string& name() const override { return m_name; }

private:
    std::string m_name;
    std::string m_data;
    std::size_t m_pos = 0;
};

} // namespace paretoscope
