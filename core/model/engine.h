#pragma once
// The serving engines' names as a planner reads them: the keys the record stores ("trt", "dynamo-sglang") are not.

#include <string>

namespace paretoscope {

/// The engine's name for people ("TensorRT-LLM" for "trt", "vLLM" for "vllm"); a key not known is given back as it is.
std::string engineDisplayName(const std::string& key);

} // namespace paretoscope
