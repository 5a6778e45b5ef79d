#pragma once
/// \file ComDetail.h
/// Pieces of the COM computation shared between its source files (not a public interface):
/// preparing the channel (device packages, resampling) and the noise distribution.

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "signal/Com.h"

namespace rdt::signal::detail {

/// Each channel with the transmitter's and the receiver's packages and terminations (93A-8 … 18).
void applyPackage(ComChannel& ch, const PackageModel& m);

/// The channel on a coarser grid when the data is finer than its delay needs.
ComChannel resampled(const ComChannel& ch);

/// A discrete distribution on a symmetric voltage grid.
struct Pdf {
    double step;
    std::vector<double> p; ///< p[i] at voltage (i − centre)·step
    std::size_t centre;
    std::size_t lo, hi; ///< support: p is zero outside [lo, hi]
    Pdf(double s, std::size_t half) : step(s), p(2 * half + 1, 0.0), centre(half), lo(half), hi(half) { p[half] = 1.0; }
    /// Convolve with a symbol of amplitude `a` (levels equally spaced in [−a, a]). Work is
    /// proportional to the support, so adding small amplitudes first keeps it cheap.
    void addSymbol(double a, int levels)
    {
        std::vector<double> out(p.size(), 0.0);
        const long size = static_cast<long>(p.size());
        long newLo = size, newHi = -1;
        if (!std::isfinite(a))
            throw std::domain_error("COM: a pulse-response cursor is not finite");
        for (int l = 0; l < levels; ++l) {
            const double v = levels == 1 ? 0.0 : a * (2.0 * l / (levels - 1) - 1.0);
            // Clamp before rounding: beyond ±size the symbol falls outside the PDF anyway, and a
            // huge value would overflow lround (and its negation below).
            const long shift = std::lround(std::clamp(v / step, -static_cast<double>(size), static_cast<double>(size)));
            const long from = std::max(static_cast<long>(lo), -shift),
                       to = std::min(static_cast<long>(hi), size - 1 - shift);
            for (long i = from; i <= to; ++i)
                out[static_cast<std::size_t>(i + shift)] += p[static_cast<std::size_t>(i)] / levels;
            if (from <= to) {
                newLo = std::min(newLo, from + shift);
                newHi = std::max(newHi, to + shift);
            }
        }
        p.swap(out);
        if (newHi >= newLo) {
            lo = static_cast<std::size_t>(newLo);
            hi = static_cast<std::size_t>(newHi);
        }
    }
    /// addSymbol for each amplitude, smallest first (the result does not depend on the order).
    void addSymbols(std::vector<double> amps, int levels)
    {
        std::sort(amps.begin(), amps.end(), [](double x, double y) { return std::fabs(x) < std::fabs(y); });
        for (double a : amps)
            addSymbol(a, levels);
    }
    void addGaussian(double sigma)
    {
        if (sigma <= 0)
            return;
        const long half = static_cast<long>(std::ceil(6 * sigma / step));
        std::vector<double> k(static_cast<std::size_t>(2 * half + 1));
        double sum = 0;
        for (long i = -half; i <= half; ++i)
            sum += k[static_cast<std::size_t>(i + half)] = std::exp(-0.5 * (i * step / sigma) * (i * step / sigma));
        std::vector<double> out(p.size(), 0.0);
        for (std::size_t i = lo; i <= hi; ++i) {
            if (p[i] == 0)
                continue;
            for (long d = -half; d <= half; ++d) {
                const long j = static_cast<long>(i) + d;
                if (j >= 0 && j < static_cast<long>(p.size()))
                    out[static_cast<std::size_t>(j)] += p[i] * k[static_cast<std::size_t>(d + half)] / sum;
            }
        }
        p.swap(out);
        lo = static_cast<std::size_t>(std::max(0L, static_cast<long>(lo) - half));
        hi = std::min(p.size() - 1, hi + static_cast<std::size_t>(half));
    }
    /// Smallest y ≥ 0 with P(noise ≤ −y) ≤ der.
    double tail(double der) const
    {
        double cdf = 0;
        for (std::size_t i = 0; i < centre; ++i) {
            cdf += p[i];
            if (cdf > der)
                return (static_cast<double>(centre) - static_cast<double>(i)) * step;
        }
        return 0.0;
    }
};

} // namespace rdt::signal::detail
