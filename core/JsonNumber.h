#pragma once
/// \file JsonNumber.h
/// A figure for JSON output: the number, or null when it is not finite (JSON has no NaN or
/// infinity; a figure the model could not give reads as null, never as a made-up value).

#include <cmath>
#include <nlohmann/json.hpp>

namespace rdt::core {

inline nlohmann::json jsonNumber(double v)
{
    return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
}

} // namespace rdt::core
