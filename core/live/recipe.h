#pragma once

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/model/result.h"

namespace paretoscope {

/// An engine launch recipe (resources/engine_recipes.json): an argv template with {parameter} placeholders. Data,
/// never code: it is rendered into an argv and started without a shell.
struct Recipe {
    std::string name;
    std::string description;
    std::string engine;
    std::string hardware;
    std::string precision;
    std::string program;
    std::vector<std::string> args;
    std::vector<std::string> expertParallelArgs; ///< added when ep > 1
    /// Added when the session runs attention data parallel (dp_attention); an option given here that the arguments
    /// before already have replaces it, its value with it, so that every option is given once. Empty: the recipe
    /// cannot run attention data parallel, and such a session is refused.
    std::vector<std::string> dpAttentionArgs;
    std::vector<std::pair<std::string, std::string>> env;
    std::map<std::string, std::string> defaults;
    std::vector<std::string> health;
    double startupTimeout = 1800;
    bool custom = false; ///< read from a user's file, not shipped: runs only when the user confirms it as such
};

/// The parameters a recipe may use, and nothing else. profile (the emulator's) alone may have no value.
const std::vector<std::string>& recipeParameters();

/// Reads a recipe file: only known keys, placeholders only of known parameters. `custom` marks user files.
Result<std::vector<Recipe>> parseRecipes(std::string_view json, const std::string& name, bool custom);
/// The recipes shipped in resources/.
const std::vector<Recipe>& bundledRecipes();
/// A shipped recipe by name, or an error listing the names.
Result<Recipe> bundledRecipe(const std::string& name);

/// A rendered launch: what is executed, exactly.
struct LaunchPlan {
    std::string program; ///< as written in the recipe; resolved to a path at start
    std::vector<std::string> argv; ///< argv[0] is the program
    std::vector<std::pair<std::string, std::string>> env; ///< set on top of the inherited environment
    std::string baseUrl; ///< http://127.0.0.1:PORT
    std::vector<std::string> health;
    double startupTimeout = 1800;
};

/// Fills the placeholders with the parameters (defaults where not given). Values are checked (integers, a model
/// name that cannot pass for an option, device lists of digits) since they become arguments. A custom recipe is
/// refused unless confirmedCustom. With dpAttention, the recipe's dp_attention_args are applied (see Recipe); a
/// recipe without them is refused, the error naming dp_attention.
Result<LaunchPlan> renderRecipe(const Recipe& recipe, const std::map<std::string, std::string>& parameters,
    bool confirmedCustom = false, bool dpAttention = false);

} // namespace paretoscope
