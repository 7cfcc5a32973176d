#pragma once

#include <string>
#include <utility>
#include <variant>

namespace paretoscope {

/// An error that says where: the file (or URL), the record (index or line) and the field, and what was wrong.
struct Error {
    std::string message;
};

/// A value or an Error. Core functions that can fail on input return one; nothing throws across the core boundary.
template <typename T> class Result {
public:
    Result(T value)
        : m_v(std::move(value))
    {
    }
    Result(Error error)
        : m_v(std::move(error))
    {
    }

    bool ok() const { return std::holds_alternative<T>(m_v); }
    explicit operator bool() const { return ok(); }
    T& value() { return std::get<T>(m_v); }
    const T& value() const { return std::get<T>(m_v); }
    T& operator*() { return value(); }
    const T& operator*() const { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    const std::string& error() const { return std::get<Error>(m_v).message; }

private:
    std::variant<T, Error> m_v;
};

/// Result of an operation with no value.
struct Done { };
using Status = Result<Done>;
inline Status ok()
{
    return Done {};
}

} // namespace paretoscope
