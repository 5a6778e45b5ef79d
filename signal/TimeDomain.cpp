#include "signal/TimeDomain.h"

#include <algorithm>
#include <cmath>

namespace rdt::signal {

using cd = std::complex<double>;

double PulseResponse::cursor(long k) const
{
    const long i = static_cast<long>(peak) + k * samplesPerUi;
    return i >= 0 && i < static_cast<long>(v.size()) ? v[static_cast<std::size_t>(i)] : 0.0;
}

namespace {

/// Magnitude and unwrapped phase of H on its grid: interpolating these (not re/im) keeps the
/// magnitude right between points where a long channel's phase turns quickly.
struct Polar {
    std::vector<double> mag, phase;
    explicit Polar(const std::vector<cd>& h) : mag(h.size()), phase(h.size())
    {
        double offset = 0, prev = 0;
        for (std::size_t k = 0; k < h.size(); ++k) {
            mag[k] = std::abs(h[k]);
            const double a = std::arg(h[k]);
            if (k > 0) {
                double d = a - prev;
                if (d > M_PI)
                    offset -= 2 * M_PI;
                else if (d < -M_PI)
                    offset += 2 * M_PI;
            }
            prev = a;
            phase[k] = a + offset;
        }
    }
};

/// 4th-order Butterworth low-pass at `fc` (two biquads with Q = 0.5412 and 1.3066).
cd butterworth4(double f, double fc)
{
    const cd s(0, f / fc);
    const cd b1 = 1.0 + s / 0.5411961 + s * s, b2 = 1.0 + s / 1.3065630 + s * s;
    return 1.0 / (b1 * b2);
}

} // namespace

PulseShaper::PulseShaper(const std::vector<double>& freqHz, const PulseOptions& o) : freq_(freqHz), o_(o)
{
    const double ui = 1.0 / o.baudHz;
    dt_ = ui / o.samplesPerUi;
    // The record must hold the channel's delay and ring-down: at least the requested span, and at
    // least 1 / (data frequency step), the period the sampled data itself implies; otherwise a
    // long channel's response wraps around the record.
    const double dataStep = (freqHz.back() - freqHz.front()) / std::max<std::size_t>(1, freqHz.size() - 1);
    const double minSeconds = std::max(o.spanUi * ui, dataStep > 0 ? 1.0 / dataStep : 0.0);
    n_ = 1;
    while (static_cast<double>(n_) * dt_ < minSeconds)
        n_ <<= 1;
    const double df = 1.0 / (static_cast<double>(n_) * dt_);
    const double fmax = freqHz.back(), taperStart = 0.9 * fmax;
    for (std::size_t k = 0; k <= n_ / 2; ++k) {
        const double f = static_cast<double>(k) * df;
        if (f >= fmax)
            break;
        cd v = 1.0;
        if (f > taperStart)
            v *= 0.5 * (1.0 + std::cos(M_PI * (f - taperStart) / (fmax - taperStart)));
        // One-UI rectangular symbol: UI·sinc(f·UI)·e^(−jπ f UI).
        const double x = M_PI * f * ui;
        const double sinc = x == 0 ? 1.0 : std::sin(x) / x;
        v *= ui * sinc * std::exp(cd(0, -x));
        if (o.rxBandwidthFraction > 0)
            v *= butterworth4(f, o.rxBandwidthFraction * o.baudHz);
        shape_.push_back(v);
        // 0 marks "at or below the first grid point" (extrapolated to DC).
        const std::size_t j =
            f <= freqHz.front()
                ? 0
                : static_cast<std::size_t>(std::upper_bound(freqHz.begin(), freqHz.end(), f) - freqHz.begin());
        upper_.push_back(j);
        t_.push_back(j == 0 || j >= freqHz.size() ? 0.0 : (f - freqHz[j - 1]) / (freqHz[j] - freqHz[j - 1]));
    }
    fft_ = std::make_unique<Eigen::FFT<double>>();
    fft_->SetFlag(Eigen::FFT<double>::HalfSpectrum);
}

double bulkDelay(const std::vector<double>& freqHz, const std::vector<cd>& h)
{
    const std::size_t m = freqHz.size();
    if (m < 8 || h.size() != m)
        return NAN;
    const double step = (freqHz.back() - freqHz.front()) / static_cast<double>(m - 1);
    if (!(step > 0))
        return NAN;
    for (std::size_t k = 0; k < m; ++k)
        if (std::abs(freqHz[k] - (freqHz.front() + static_cast<double>(k) * step)) > 0.01 * step)
            return NAN;
    std::size_t n = 1;
    while (n < 8 * m)
        n <<= 1;
    std::vector<cd> spectrum(n, cd(0.0)), time;
    for (std::size_t k = 0; k < m; ++k) // Hann taper to the last point: a compact main lobe
        spectrum[k] = h[k] * 0.5 * (1.0 + std::cos(M_PI * static_cast<double>(k) / static_cast<double>(m)));
    Eigen::FFT<double> fft;
    fft.inv(time, spectrum);
    std::size_t at = 0;
    for (std::size_t i = 1; i < time.size(); ++i)
        if (std::abs(time[i]) > std::abs(time[at]))
            at = i;
    double tau = static_cast<double>(at) / (static_cast<double>(n) * step);
    // The grid fixes the delay only modulo 1 / step. From 0 Hz (or a multiple of the step) every
    // choice gives the same samples; from any other start, each period more turns the first point's
    // phase by 2π f0 / step, and a channel's phase near DC is near zero: the period count that
    // leaves the least phase there is the channel's (up to 2 µs; a 40 MHz file from 7 MHz of a
    // 26.5 ns cable otherwise read as 1.5 ns, its pulse distorted by the 1.1 rad left over).
    const double f0 = freqHz.front();
    if (f0 > 0 && std::abs(h.front()) > 0) {
        double best = INFINITY, pick = tau;
        for (int periods = 0; periods <= std::min(64, static_cast<int>(2e-6 * step)); ++periods) {
            const double t = tau + periods / step;
            const double left = std::abs(std::remainder(std::arg(h.front()) + 2 * M_PI * f0 * t, 2 * M_PI));
            if (left < best - 1e-9) {
                best = left;
                pick = t;
            }
        }
        tau = pick;
    }
    return tau;
}

PulseResponse PulseShaper::operator()(const std::vector<cd>& h, double delayS) const
{
    PulseResponse p;
    p.samplesPerUi = o_.samplesPerUi;
    p.dtS = dt_;
    std::vector<cd> spectrum(n_ / 2 + 1, cd(0.0));
    if (!std::isfinite(delayS))
        delayS = 0; // not known: the phase as it is
    std::vector<cd> early(h);
    if (delayS != 0)
        for (std::size_t k = 0; k < early.size(); ++k)
            early[k] *= std::polar(1.0, 2 * M_PI * freq_[k] * delayS);
    const Polar polar(early);
    const double df = 1.0 / (static_cast<double>(n_) * dt_);
    for (std::size_t k = 0; k < shape_.size(); ++k) {
        const std::size_t j = upper_[k];
        cd v;
        if (j == 0) {
            const double f = static_cast<double>(k) * df;
            v = freq_.front() <= 0 ? std::polar(polar.mag.front(), 0.0)
                                   : std::polar(polar.mag.front(), polar.phase.front() * f / freq_.front());
        } else if (j >= freq_.size())
            v = std::polar(polar.mag.back(), polar.phase.back());
        else {
            const double t = t_[k];
            v = std::polar((1 - t) * polar.mag[j - 1] + t * polar.mag[j],
                           (1 - t) * polar.phase[j - 1] + t * polar.phase[j]);
        }
        spectrum[k] = v * shape_[k];
        if (delayS != 0)
            spectrum[k] *= std::polar(1.0, -2 * M_PI * static_cast<double>(k) * df * delayS);
    }
    spectrum[n_ / 2] = spectrum[n_ / 2].real(); // the Nyquist bin of a real signal is real
    std::vector<double> time;
    fft_->inv(time, spectrum, static_cast<Eigen::Index>(n_));
    // Eigen's inverse divides by N; the continuous inverse transform needs N·Δf = 1/dt.
    p.v.resize(n_);
    for (std::size_t i = 0; i < n_; ++i)
        p.v[i] = time[i] / dt_;
    p.peak = static_cast<std::size_t>(std::max_element(p.v.begin(), p.v.end()) - p.v.begin());
    return p;
}

PulseResponse pulseResponse(const std::vector<double>& freqHz, const std::vector<cd>& h, const PulseOptions& o)
{
    const PulseShaper shaper(freqHz, o);
    return shaper(h, bulkDelay(freqHz, h));
}

double precursorEnergyFraction(const PulseResponse& p, double ui)
{
    const long limit = static_cast<long>(p.peak) - static_cast<long>(ui * p.samplesPerUi);
    double before = 0, total = 0;
    for (std::size_t i = 0; i < p.v.size(); ++i) {
        const double e = p.v[i] * p.v[i];
        total += e;
        if (static_cast<long>(i) < limit)
            before += e;
    }
    return total > 0 ? before / total : 0.0;
}

} // namespace rdt::signal
