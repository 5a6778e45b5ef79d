#pragma once
/// \file TimeDomain.h
/// Pulse response of a channel: the transfer function times a one-UI rectangular symbol and the
/// receiver's reference filter (4th-order Butterworth, as COM uses), inverse FFT (Eigen's FFT
/// module) on a grid fine enough in time and long enough to hold the channel's reach. Beyond the
/// last measured frequency the spectrum is tapered to zero (raised cosine) so the truncation adds
/// no ringing; below the first point it is extended to DC.

#include <complex>
#include <memory>
#include <vector>

#include <unsupported/Eigen/FFT>

namespace rdt::signal {

struct PulseResponse {
    double dtS = 0; ///< sample spacing
    int samplesPerUi = 0;
    std::vector<double> v; ///< volts per volt of symbol amplitude
    std::size_t peak = 0;  ///< index of the largest sample (the main cursor)
    /// Sample at `peak + k·samplesPerUi` (k-th cursor, 0 = main); 0 outside the record.
    double cursor(long k) const;
};

struct PulseOptions {
    double baudHz = 53.125e9;
    int samplesPerUi = 32;
    int spanUi = 256;                  ///< record length in UI (rounded up to a power of two of samples)
    double rxBandwidthFraction = 0.75; ///< Butterworth −3 dB at this fraction of the baud rate (0 = none)
};

/// A channel's bulk delay, modulo the period its data grid implies (1 / step): the peak of its
/// impulse response's envelope on that grid (the one-sided spectrum, Hann-tapered, inverse FFT'd
/// complex and 8× over-sampled in time; a grid starting off a multiple of its step only shifts the
/// envelope's carrier). Taken out of H before its phase is unwrapped or interpolated: a long channel
/// turns its phase by π or more per data step (6 m of twinax: 3.3 rad at 20 MHz), where unwrapping
/// picks branches at random and values interpolated between points lose magnitude. NaN where the
/// grid is not uniform within 1 % of its step (not known: there the phase is taken as it is).
double bulkDelay(const std::vector<double>& freqHz, const std::vector<std::complex<double>>& h);

/// Turns transfer functions sampled on one frequency grid into pulse responses. Everything that
/// depends only on the grid and the options (record length, the symbol, receiver filter and
/// band-edge taper per FFT bin, interpolation positions, the FFT plan) is prepared once, so a COM
/// run that needs 2 × (1 + aggressors) responses pays for it once. Not thread-safe (the FFT plan).

class PulseShaper {
public:
    PulseShaper(const std::vector<double>& freqHz, const PulseOptions& options);
    /// Pulse response of `h` (one value per grid frequency). `delayS` (bulkDelayS) is taken out of
    /// `h` before its phase is unwrapped and interpolated, and put back exactly on the FFT's own
    /// grid: a long channel turns its phase by up to π or more per data step, where unwrapping
    /// picks branches at random and the interpolated spectrum is not the channel's. Responses
    /// that are combined (a CTLE's two parts) must share one delay.
    PulseResponse operator()(const std::vector<std::complex<double>>& h, double delayS = 0) const;
    /// bulkDelay() of `h` on this shaper's grid (NaN: not known).
    double bulkDelayS(const std::vector<std::complex<double>>& h) const { return bulkDelay(freq_, h); }
    std::size_t recordSamples() const { return n_; }

private:
    std::vector<double> freq_;
    PulseOptions o_;
    std::size_t n_ = 0;
    double dt_ = 0;
    std::vector<std::complex<double>> shape_; ///< per FFT bin below fmax: symbol · Rx filter · taper
    std::vector<std::size_t> upper_;          ///< per bin: first grid index above the bin frequency
    std::vector<double> t_;                   ///< per bin: interpolation weight of grid[upper_]
    std::unique_ptr<Eigen::FFT<double>> fft_;
};

/// Pulse response of H(f) sampled at `freqHz` (increasing; linear interpolation in between).
PulseResponse pulseResponse(const std::vector<double>& freqHz, const std::vector<std::complex<double>>& h,
                            const PulseOptions& options);

/// Energy (Σv²) of the samples earlier than `ui` UI before the main cursor, over the total: a
/// causality measure (numerical pre-cursor artefacts show up here).
double precursorEnergyFraction(const PulseResponse& p, double ui);

} // namespace rdt::signal
