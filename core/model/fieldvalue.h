#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace paretoscope {

/// One scalar value of a record field, whatever parser read it. CSV cells arrive as Text and are converted by the
/// mapper where a number is expected.
struct FieldValue {
    enum class Kind { Null, Bool, Number, Text, Array, Object };
    Kind kind = Kind::Null;
    double number = 0;
    bool boolean = false;
    std::string_view text; ///< for Text (a Number's text is formatted only when a message needs it)
    bool fromCsv = false;

    /// "a number", "a string" ... for messages.
    std::string kindName() const;
};

} // namespace paretoscope
