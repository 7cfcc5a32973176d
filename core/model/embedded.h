#pragma once

#include <string_view>

/// The files of resources/, compiled into the core (cmake/embed.cmake writes the definitions).
namespace paretoscope::embedded {
std::string_view pricing_tiers_json();
std::string_view deepseek_v4_1_flash_agentic_json();
std::string_view model_architectures_json();
std::string_view device_specs_json();
std::string_view engine_recipes_json();
std::string_view hardware_power_json();
std::string_view tco_default_json();
std::string_view model_names_json();
} // namespace paretoscope::embedded
