// Plain-JSON superset match, the pattern language of driver triggers and permission rules
// (docs/drivers.md §2): objects match when every key of the pattern matches, arrays element-wise
// with equal length, scalars by equality. No `$` operators, on purpose: every driver can
// implement it in a few lines, so triggers fire the same way whatever the SDK.
//
// How it fails: never. What it costs: one walk over the pattern.
#pragma once

#include <nlohmann/json.hpp>

namespace claude::driver {

[[nodiscard]] bool json_superset_match(const nlohmann::json& pattern, const nlohmann::json& value);

}  // namespace claude::driver
