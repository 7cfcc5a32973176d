#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace paretoscope {

/// The name a model is shown by: the InferenceX site's name of a key its runs carry (dsr1 is "DeepSeek-R1-0528",
/// resources/model_names.json), else the model as stored.
std::string modelDisplayName(std::string_view model);

/// The stored model a name given by a person means, among the models a store holds: the name itself where stored,
/// else the one stored key the site shows by that name. Several stored keys of one name (kimik2.5 and kimik2.6 are
/// both "Kimi-K2.5") are an error that lists them; an unknown name comes back unchanged (the scope then says what
/// the store holds).
struct ModelChoice {
    std::string model;
    std::string error; ///< empty unless the name is ambiguous
};
ModelChoice resolveModelName(std::string_view given, const std::vector<std::string>& storedModels);

/// "DeepSeek-R1-0528 (dsr1)" for a key with a site name; the model alone otherwise. For lists where both matter.
std::string modelLabel(std::string_view model);

/// The model a benchmark client's model id names: a Hugging Face cache path
/// ("/models/models--openai--gpt-oss-120b/snapshots/<commit>/") by its "models--org--name" part ("gpt-oss-120b"),
/// another path by its last part that is not a commit hash ("/data/llama-3-70b" -> "llama-3-70b"), an "org/name" or
/// a plain name as written.
std::string benchModelName(std::string_view modelId);

} // namespace paretoscope
