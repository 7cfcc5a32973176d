#include "core/model/engine.h"

#include <array>
#include <utility>

namespace paretoscope {

std::string engineDisplayName(const std::string& key)
{
    static constexpr std::array<std::pair<const char*, const char*>, 8> known { { { "vllm", "vLLM" },
        { "engine-sim", "engine emulator" }, { "sglang", "SGLang" }, { "trt", "TensorRT-LLM" },
        { "dynamo-trt", "Dynamo TRT" }, { "dynamo-sglang", "Dynamo SGLang" }, { "atom", "ATOM" },
        { "mori-sglang", "MoRI SGLang" } } };
    for (const auto& [k, name] : known)
        if (key == k)
            return name;
    return key;
}

} // namespace paretoscope
