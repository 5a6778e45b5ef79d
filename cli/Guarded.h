#pragma once
/// \file Guarded.h
/// Every subcommand's outer shell: bad input (core::InputError, a cancelled run) exits 2 with its
/// located message; anything unexpected is reported as an internal error (exit 3). The CLI never
/// dies with an uncaught exception.

#include <iostream>

#include "core/Error.h"
#include "core/Progress.h"

namespace rdt::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitViolations = 1;
inline constexpr int kExitBadInput = 2;
inline constexpr int kExitInternal = 3;

inline int badInput(const std::exception& e)
{
    std::cerr << "rdt: error: " << e.what() << "\n";
    return kExitBadInput;
}

template <typename Fn>
int guarded(Fn fn)
{
    try {
        return fn();
    } catch (const core::InputError& e) {
        return badInput(e);
    } catch (const core::Cancelled&) {
        std::cerr << "rdt: cancelled\n";
        return kExitBadInput;
    } catch (const std::exception& e) {
        std::cerr << "rdt: internal error: " << e.what() << "\n";
        return kExitInternal;
    }
}

} // namespace rdt::cli
