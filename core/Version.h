#pragma once
/// \file Version.h
/// The tool version (from the top-level CMake project version).

#include <string>

namespace rdt::core {

/// e.g. "0.1.0".
std::string version();

} // namespace rdt::core
