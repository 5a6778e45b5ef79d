#pragma once
/// \file Guarded.h
/// Every subcommand's outer shell: bad input (core::InputError, a cancelled run) exits 2 with its
/// located message; anything unexpected is reported as an internal error (exit 3). The CLI never
/// dies with an uncaught exception.

#include <filesystem>
#include <iostream>
#include <new>

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
    } catch (const std::filesystem::filesystem_error& e) {
        // A path the user gave that the system refuses (too long, no permission): their input.
        std::cerr << "rdt: error: " << core::clipped(e.path1().string()) << ": " << e.code().message() << "\n";
        return kExitBadInput;
    } catch (const std::bad_alloc&) {
        std::cerr << "rdt: error: out of memory: the input is too large for this machine\n";
        return kExitBadInput;
    } catch (const std::exception& e) {
        std::cerr << "rdt: internal error: " << e.what()
                  << "\n  please report it with the command line and the input files\n";
        return kExitInternal;
    }
}

} // namespace rdt::cli
