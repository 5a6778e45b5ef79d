#pragma once
/// \file Guarded.h
/// Every subcommand's outer shell: bad input (core::InputError, a cancelled run) exits 2 with its
/// located message; anything unexpected is reported as an internal error (exit 3). The CLI never
/// dies with an uncaught exception.

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <new>

#include "core/Error.h"
#include "core/Progress.h"
#include "core/Units.h"
#include "room/FieldSolver.h"

namespace rdt::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitViolations = 1;
inline constexpr int kExitBadInput = 2;
inline constexpr int kExitInternal = 3;
inline constexpr int kExitNotConverged = 4; ///< a solver did not converge: no result, its history shown
inline constexpr int kExitInterrupted = 130; ///< stopped by Ctrl-C (128 + SIGINT, as shells report it)

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
    } catch (const room::FieldConvergenceError& e) {
        std::cerr << "rdt: error: " << e.what() << "\n";
        const auto& h = e.history();
        if (!h.empty()) {
            std::cerr << "  residual history (iteration: continuity, momentum x/y/z, energy):\n";
            const std::size_t step = std::max<std::size_t>(1, h.size() / 10);
            for (std::size_t i = 0; i < h.size(); i += step)
                std::cerr << "    " << h[i].iteration << ": " << h[i].continuity << ", " << h[i].momentum[0] << "/"
                          << h[i].momentum[1] << "/" << h[i].momentum[2] << ", " << h[i].energy << "\n";
            const auto& last = h.back();
            std::cerr << "    " << last.iteration << ": " << last.continuity << ", " << last.momentum[0] << "/"
                      << last.momentum[1] << "/" << last.momentum[2] << ", " << last.energy << "\n";
        }
        // Over the history's last half: did the residuals stop falling and swing instead (a steady
        // solver on air that does not settle), and how far were the racks' intakes still moving?
        // A swing: after its lowest point the worst residual rose again to more than twice it (one
        // still falling when the iterations ran out has its lowest point at the end).
        double drift = NAN, lo = 1e300, hi = 0;
        for (std::size_t i = h.size() / 2; i < h.size(); ++i) {
            if (std::isfinite(h[i].intakeDriftK))
                drift = std::isfinite(drift) ? std::max(drift, h[i].intakeDriftK) : h[i].intakeDriftK;
            const double worst = std::max({h[i].continuity, h[i].momentum[0], h[i].momentum[1], h[i].momentum[2],
                                           h[i].energy, h[i].turbulence});
            if (worst < lo) {
                lo = worst;
                hi = worst; // the rise counts from the lowest point on
            }
            hi = std::max(hi, worst);
        }
        if (std::isfinite(drift))
            std::cerr << "  the racks' intakes were still moving: up to " << core::formatSignificant(drift, 2)
                      << " K within a window of the last half of the solve\n";
        if (hi > 2.0 * lo && lo > 0)
            std::cerr << "  the residuals rose again after their lowest point in the last half: the room's air may not "
                         "settle (plumes that swing), and such a room has a time mean, not a steady state\n";
        std::cerr << "  no result was written. Ways on: OpenFOAM's transient reference, whose time mean the rules "
                     "then judge (rdt field DESIGN --openfoam DIR --transient 900s, DIR/Allrun, rdt check DESIGN "
                     "--intakes-from DIR); another room.grid; or --thermal network, which takes the aisles as "
                     "sealed (thermal.network.open_aisles)\n";
        return kExitNotConverged;
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
