#include <algorithm>
#include <cmath>

#include "signal/ComDetail.h"
#include "signal/NetworkAlgebra.h"
#include "signal/TimeDomain.h"

namespace rdt::signal {

using cd = std::complex<double>;

std::vector<cd> sdd21(const Network& net)
{
    const Network mm = mixedMode(net);
    std::vector<cd> h;
    h.reserve(mm.points());
    for (const auto& s : mm.s)
        h.push_back(s(1, 0));
    return h;
}

std::vector<Eigen::Matrix2cd> sdd(const Network& net)
{
    const Network mm = mixedMode(net);
    std::vector<Eigen::Matrix2cd> out;
    out.reserve(mm.points());
    for (const auto& m : mm.s)
        out.push_back(m.block<2, 2>(0, 0));
    return out;
}

ComChannel channelFromNetworks(const Network& thru, const std::vector<Network>& fext, const std::vector<Network>& next)
{
    ComChannel ch;
    ch.freqHz = thru.freqHz;
    ch.thruS = sdd(thru);
    for (const auto& m : ch.thruS)
        ch.thru.push_back(m(1, 0));
    auto add = [&](const Network& n, std::vector<std::vector<cd>>& h, std::vector<std::vector<Eigen::Matrix2cd>>& s) {
        s.push_back(sdd(interpolate(n, ch.freqHz)));
        h.emplace_back();
        for (const auto& m : s.back())
            h.back().push_back(m(1, 0));
    };
    for (const Network& n : fext)
        add(n, ch.fext, ch.fextS);
    for (const Network& n : next)
        add(n, ch.next, ch.nextS);
    return ch;
}

namespace detail {

namespace {

using Mat2 = Eigen::Matrix2cd;

/// Shunt capacitance as a 2-port (93A-8).
Mat2 shuntC(double f, double c, double r0)
{
    const cd x = cd(0, 2 * M_PI * f) * c * r0;
    Mat2 s;
    s << -x, 2.0, 2.0, -x;
    return s / (2.0 + x);
}

/// Package transmission line of length `mm` (93A-9 … 93A-14).
Mat2 packageLine(double f, const PackageModel& m, double mm)
{
    const double g = f / 1e9;
    const cd gamma = g <= 0 ? cd(m.gamma0)
                            : m.gamma0 + m.a1 * cd(1, 1) * std::sqrt(g) +
                                  (m.a2 * cd(1, -2 / M_PI * std::log(g)) + cd(0, 2 * M_PI * m.tauNsPerMm)) * g;
    const double rho = (m.lineOhm - 2 * m.refOhm) / (m.lineOhm + 2 * m.refOhm);
    const cd e1 = std::exp(-gamma * mm), e2 = e1 * e1;
    const cd den = 1.0 - rho * rho * e2;
    Mat2 s;
    s(0, 0) = s(1, 1) = rho * (1.0 - e2) / den;
    s(0, 1) = s(1, 0) = (1 - rho * rho) * e1 / den;
    return s;
}

/// Two 2-ports in cascade.
Mat2 cascade2(const Mat2& a, const Mat2& b)
{
    const cd d = 1.0 - a(1, 1) * b(0, 0);
    Mat2 s;
    s(0, 0) = a(0, 0) + a(0, 1) * b(0, 0) * a(1, 0) / d;
    s(0, 1) = a(0, 1) * b(0, 1) / d;
    s(1, 0) = a(1, 0) * b(1, 0) / d;
    s(1, 1) = b(1, 1) + b(1, 0) * a(1, 1) * b(0, 1) / d;
    return s;
}

/// Voltage transfer of a 2-port between source and load terminations Γ1, Γ2 (93A-18).
cd terminatedH21(const Mat2& s, double g1, double g2)
{
    const cd det = s(0, 0) * s(1, 1) - s(0, 1) * s(1, 0);
    return s(1, 0) * (1 - g1) * (1 + g2) / (1.0 - s(0, 0) * g1 - s(1, 1) * g2 + g1 * g2 * det);
}

} // namespace

/// Each channel with the transmitter's and the receiver's packages and terminations. The packages
/// depend on frequency only, so they are built once per grid point for all channels.
void applyPackage(ComChannel& ch, const PackageModel& m)
{
    const double zp = m.lengthsMm[static_cast<std::size_t>(m.caseIndex)];
    const double zpNext = *std::min_element(m.lengthsMm.begin(), m.lengthsMm.end());
    const double gamma = (m.termOhm - m.refOhm) / (m.termOhm + m.refOhm);
    const std::size_t n = ch.freqHz.size();
    std::vector<Mat2> tx(n), txNext(n), rx(n);
    for (std::size_t k = 0; k < n; ++k) {
        const double f = ch.freqHz[k];
        const Mat2 die = shuntC(f, m.dieCapF, m.refOhm), pad = shuntC(f, m.padCapF, m.refOhm);
        const Mat2 line = packageLine(f, m, zp);
        tx[k] = cascade2(cascade2(die, line), pad);
        rx[k] = cascade2(cascade2(pad, line), die);
        txNext[k] = zpNext == zp ? tx[k] : cascade2(cascade2(die, packageLine(f, m, zpNext)), pad);
    }
    auto apply = [&](std::vector<cd>& h, const std::vector<Mat2>* full, const std::vector<Mat2>& txPkg) {
        for (std::size_t k = 0; k < h.size(); ++k) {
            Mat2 c;
            if (full && k < full->size())
                c = (*full)[k];
            else
                c << 0.0, h[k], h[k], 0.0;
            h[k] = terminatedH21(cascade2(cascade2(txPkg[k], c), rx[k]), gamma, gamma);
        }
    };
    apply(ch.thru, ch.thruS.empty() ? nullptr : &ch.thruS, tx);
    for (std::size_t i = 0; i < ch.fext.size(); ++i)
        apply(ch.fext[i], i < ch.fextS.size() && !ch.fextS[i].empty() ? &ch.fextS[i] : nullptr, tx);
    for (std::size_t i = 0; i < ch.next.size(); ++i)
        apply(ch.next[i], i < ch.nextS.size() && !ch.nextS[i].empty() ? &ch.nextS[i] : nullptr, txNext);
}

/// The channel on a coarser grid when the data is finer than its delay needs: the record (1/step)
/// must hold delay plus ring-down, and the phase must turn by less than π per step.
ComChannel resampled(const ComChannel& ch)
{
    const double step = (ch.freqHz.back() - ch.freqHz.front()) / std::max<std::size_t>(1, ch.freqHz.size() - 1);
    // The delay from the impulse response's peak: the phase's slope, unwrapped point by point, was
    // wrong where the phase turns by π or more per step (6 m of twinax at 20 MHz gave a short delay,
    // and the channel was "resampled" onto a 50 MHz grid that could not hold it).
    const double delay = bulkDelay(ch.freqHz, ch.thru);
    if (!std::isfinite(delay))
        return ch; // a grid not uniform: kept as it is
    const double want = 1.0 / (2.0 * (delay + 10e-9));
    if (want < 2 * step)
        return ch;
    std::vector<double> f;
    for (double x = ch.freqHz.front(); x <= ch.freqHz.back(); x += want)
        f.push_back(x);
    // The same rule as interpolate() (re/im between points, phase scaled to zero towards DC), on
    // plain vectors: this runs for every aggressor of every COM. Each channel's own bulk delay is
    // taken out first and put back at the new frequencies: between points 0.9 rad apart (29 ns at
    // 5 MHz) a straight re/im line is 10 % short of the channel's magnitude.
    std::vector<std::size_t> upper(f.size());
    for (std::size_t k = 0; k < f.size(); ++k)
        upper[k] =
            static_cast<std::size_t>(std::upper_bound(ch.freqHz.begin(), ch.freqHz.end(), f[k]) - ch.freqHz.begin());
    // Each channel's delay (the thru's is known already: one FFT fewer per COM).
    auto resample = [&](const std::vector<cd>& raw, double known) {
        const double tau = std::isfinite(known) ? known : 0.0;
        std::vector<cd> h(raw.size());
        for (std::size_t k = 0; k < h.size(); ++k)
            h[k] = raw[k] * std::polar(1.0, 2 * M_PI * ch.freqHz[k] * tau);
        std::vector<cd> out(f.size());
        for (std::size_t k = 0; k < f.size(); ++k) {
            const double x = f[k];
            const std::size_t j = upper[k];
            if (x <= ch.freqHz.front()) {
                const double r = ch.freqHz.front() > 0 ? x / ch.freqHz.front() : 0.0;
                out[k] = std::polar(std::abs(h.front()), r * std::arg(h.front()));
            } else if (x >= ch.freqHz.back())
                out[k] = h.back();
            else {
                const double t = (x - ch.freqHz[j - 1]) / (ch.freqHz[j] - ch.freqHz[j - 1]);
                out[k] = (1 - t) * h[j - 1] + t * h[j];
            }
            out[k] *= std::polar(1.0, -2 * M_PI * x * tau);
        }
        return out;
    };
    ComChannel out;
    out.freqHz = f;
    out.thru = resample(ch.thru, delay);
    for (const auto& a : ch.fext)
        out.fext.push_back(resample(a, bulkDelay(ch.freqHz, a)));
    for (const auto& a : ch.next)
        out.next.push_back(resample(a, bulkDelay(ch.freqHz, a)));
    return out;
}

} // namespace detail

} // namespace rdt::signal
