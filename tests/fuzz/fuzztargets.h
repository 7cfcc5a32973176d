#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace paretoscope::fuzz {

/// One fuzz entry point: the bytes of one input. It must never crash, hang or leak, whatever the bytes.
using Target = void (*)(const std::uint8_t* data, std::size_t size);

struct NamedTarget {
    std::string name;
    Target run;
};

/// Every target, by the name the fuzzer takes (paretoscope_fuzz --target=NAME) and its corpus folder carries.
const std::vector<NamedTarget>& targets();

} // namespace paretoscope::fuzz
