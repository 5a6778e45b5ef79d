#include "signal/Com.h"

#include <algorithm>
#include <cmath>

#include "signal/ComDetail.h"

namespace rdt::signal {

using cd = std::complex<double>;
using detail::Pdf;

namespace {

constexpr long kPostUi = 200;
constexpr int kPre = 8;

/// Variance of a symbol with L equally spaced levels in [−1, 1].
double symbolVariance(int levels)
{
    return (levels + 1.0) / (3.0 * (levels - 1.0));
}

double txFilter(double f, const ComParams& p)
{
    const double x = M_PI * f * p.txRiseS / 1.6832; // Gaussian filter of the given 20–80 % rise time
    return std::exp(-x * x);
}

/// The CTLE is linear in its DC gain G: H_ctle = G·A(f) + B(f) with A = 1/D and B = (jf/fz)/D. So
/// a channel's pulse response for any G is G·p_A + p_B: two inverse FFTs serve the whole sweep.
struct PulsePair {
    PulseResponse a, b;
    /// The response at CTLE DC gain `gDb` into `r` (its storage is reused across the sweep).
    void into(double gDb, PulseResponse& r) const
    {
        const double g = std::pow(10.0, gDb / 20.0);
        r.dtS = b.dtS;
        r.samplesPerUi = b.samplesPerUi;
        r.v.resize(b.v.size());
        std::size_t peak = 0;
        for (std::size_t i = 0; i < r.v.size(); ++i) {
            r.v[i] = b.v[i] + g * a.v[i];
            if (r.v[i] > r.v[peak])
                peak = i;
        }
        r.peak = peak;
    }
};

PulsePair pulsePair(const ComChannel& ch, const std::vector<cd>& h, const ComParams& p, const PulseShaper& shaper)
{
    std::vector<cd> ha(h.size()), hb(h.size());
    for (std::size_t k = 0; k < h.size(); ++k) {
        const double f = ch.freqHz[k];
        const cd d = (1.0 + cd(0, f) / p.ctlePole1Hz) * (1.0 + cd(0, f) / p.ctlePole2Hz);
        const cd base = h[k] * txFilter(f, p) / d;
        ha[k] = base;
        hb[k] = base * cd(0, f) / p.ctleZeroHz;
    }
    const double delay = shaper.bulkDelayS(h); // one for both parts: they are summed sample by sample
    return {shaper(ha, delay), shaper(hb, delay)};
}

PulseOptions pulseOptions(const ComParams& p)
{
    PulseOptions o;
    o.baudHz = p.baudHz;
    o.samplesPerUi = p.samplesPerUi;
    o.rxBandwidthFraction = p.rxBandwidth;
    return o;
}

/// Receiver noise η0 ∫ |H_ctle·H_rx|² df (one-sided). H_ctle = G·A + B (see PulsePair), so the
/// integral is G²·∫|A|²w + 2G·∫Re(A·B*)w + ∫|B|²w with w = |H_rx|²: three integrals serve the
/// whole DC-gain sweep.
class RxNoise {
public:
    explicit RxNoise(const ComParams& p) : eta_(p.noiseDensity)
    {
        const double df = p.baudHz / 2000.0;
        for (double f = df / 2; f < 4 * p.baudHz; f += df) {
            const cd s(0, f / (p.rxBandwidth * p.baudHz));
            const double w = std::norm(1.0 / ((1.0 + s / 0.5411961 + s * s) * (1.0 + s / 1.3065630 + s * s)));
            const cd jf(0, f);
            const cd a = 1.0 / ((1.0 + jf / p.ctlePole1Hz) * (1.0 + jf / p.ctlePole2Hz));
            const cd b = a * jf / p.ctleZeroHz;
            aa_ += std::norm(a) * w * df;
            ab_ += (a * std::conj(b)).real() * w * df;
            bb_ += std::norm(b) * w * df;
        }
    }
    double variance(double gDb) const
    {
        const double g = std::pow(10.0, gDb / 20.0);
        return eta_ * (g * g * aa_ + 2 * g * ab_ + bb_);
    }

private:
    double eta_, aa_ = 0, ab_ = 0, bb_ = 0;
};

struct Cursors {
    std::vector<double> h; ///< h[k] for k = −pre … post, main at index `main`
    std::size_t main = 0;
    std::vector<double> slope; ///< dh/dt × UI at the same points
    long ts = 0;               ///< sample index of the main cursor
};

/// Equalised (Tx FFE) samples around the best sampling point.
/// `fixedTs` ≥ 0 samples there instead of at the equalised peak (statistical eye phases).
/// The sampling point by the Mueller–Müller criterion (93A-25, 93A-26) within ±1 UI of the
/// equalised pulse's peak: the first DFE tap b1 = h(+1)/h(0) within its limit, and the point where
/// h(−1) = h(+1) − b1·h(0). Exact solutions (residual below `eps`) win, the last one at or before
/// the peak first; otherwise the smallest residual. `eq(i)` is the equalised pulse at sample i.
template <typename Eq>
long muellerMuller(Eq eq, long peakHint, int m, double bmax, double eps)
{
    long peak = peakHint;
    double top = eq(peak);
    for (long i = peakHint - m; i <= peakHint + m; ++i)
        if (const double e = eq(i); e > top) {
            top = e;
            peak = i;
        }
    long best = peak, lastBefore = -1, firstAfter = -1;
    double bestRes = 1e300;
    for (long i = peak - m; i < peak + m; ++i) {
        const double h0 = eq(i);
        if (h0 <= 0)
            continue;
        const double b1 = std::clamp(eq(i + m) / h0, -bmax, bmax);
        const double res = std::fabs(eq(i - m) - (eq(i + m) - b1 * h0));
        if (res < eps) {
            if (i <= peak)
                lastBefore = i;
            else if (firstAfter < 0)
                firstAfter = i;
        } else if (res < bestRes) {
            bestRes = res;
            best = i;
        }
    }
    return lastBefore >= 0 ? lastBefore : firstAfter >= 0 ? firstAfter : best;
}

/// Residual below which the Mueller–Müller criterion counts as met: 1 mV at the victim's
/// amplitude, as the reference implementation does.
double mmEpsilon(const ComParams& p)
{
    return 1e-3 / p.victimV;
}

void sampleInto(Cursors& c, const PulseResponse& pr, double pre, double post, int preCursors, long fixedTs, double bmax,
                double eps)
{
    const int m = pr.samplesPerUi;
    const double c0 = 1.0 - std::fabs(pre) - std::fabs(post);
    auto eq = [&](long i) {
        auto at = [&](long j) {
            return j >= 0 && j < static_cast<long>(pr.v.size()) ? pr.v[static_cast<std::size_t>(j)] : 0.0;
        };
        return pre * at(i + m) + c0 * at(i) + post * at(i - m);
    };
    const long ts = fixedTs >= 0 ? fixedTs : muellerMuller(eq, static_cast<long>(pr.peak), m, bmax, eps);
    c.h.clear();
    c.slope.clear();
    c.main = 0;
    c.ts = ts;
    const long first = ts - static_cast<long>(preCursors) * m;
    // Cursors up to kPostUi after the main one; later ones carry negligible energy in any channel
    // that COM can pass (docs/signal.md).
    const long last = std::min(static_cast<long>(pr.v.size()), ts + kPostUi * m);
    for (long i = std::max(first % m, first); i < last; i += m) {
        if (i == ts)
            c.main = c.h.size();
        c.h.push_back(eq(i));
        c.slope.push_back((eq(i + 1) - eq(i - 1)) / 2.0 * m);
    }
}

/// Cursors sampled at a given point (statistical eye phases).
Cursors sample(const PulseResponse& pr, double pre, double post, int preCursors, long fixedTs)
{
    Cursors c;
    sampleInto(c, pr, pre, post, preCursors, fixedTs, 1.0, 0.0);
    return c;
}

/// Residual ISI after the DFE (every cursor but the main one), and the sums the noise terms need.
struct Residuals {
    std::vector<double> isi; ///< cursor values left after the DFE, main cursor excluded
    double energy = 0;       ///< Σ h_k² over all cursors
    double slopeEnergy = 0;  ///< Σ (dh/dt·UI)² over all cursors
};

void residualsInto(Residuals& out, const Cursors& c, const ComParams& p)
{
    out.isi.clear();
    out.energy = out.slopeEnergy = 0;
    const double h0 = c.h[c.main];
    for (std::size_t k = 0; k < c.h.size(); ++k) {
        out.energy += c.h[k] * c.h[k];
        out.slopeEnergy += c.slope[k] * c.slope[k];
        if (k == c.main)
            continue;
        double r = c.h[k];
        if (k > c.main && k <= c.main + static_cast<std::size_t>(p.dfeTaps))
            r -= std::clamp(r, -p.dfeLimit * h0, p.dfeLimit * h0);
        out.isi.push_back(r);
    }
}

/// The FOM sweep's sums for one equalised victim, over every Tx FFE setting in O(1) each.
/// A cursor of the FFE-equalised response at sample i is h(i) = pre·v(i+m) + c0·v(i) + post·v(i−m),
/// so Σh² over a window of cursors is a quadratic form in (pre, c0, post) whose coefficients are
/// sums of v(i)v(i+jm), j = 0, 1, 2, along the window's phase; cumulative sums along each phase's
/// chain give any window's sums by one subtraction. The slope (dh/dt·UI) is the same form over
/// d(i) = (v(i+1) − v(i−1))·m/2. Gives exactly what sampleInto + residualsInto sum, cursor by cursor.
class FfeSweep {
public:
    /// Tables for sample indices [lo, hi) of `pr` (samples outside the record count as 0); the
    /// sums then cover cursor windows whose samples, ±1 UI, lie in that range.
    void reset(const PulseResponse& pr, long lo, long hi)
    {
        m_ = pr.samplesPerUi;
        n_ = static_cast<long>(pr.v.size());
        pr_ = &pr;
        // Chains start on a multiple of m so that positions keep their phase.
        base_ = lo - ((lo % m_) + m_) % m_;
        const std::size_t len = static_cast<std::size_t>(hi - base_);
        v_.resize(len);
        d_.resize(len);
        for (std::size_t k = 0; k < len; ++k) {
            const long i = base_ + static_cast<long>(k);
            v_[k] = V(i);
            d_[k] = (V(i + 1) - V(i - 1)) / 2.0 * m_;
        }
        chains(v_, cv_);
        chains(d_, cd_);
    }
    double V(long i) const { return i < 0 || i >= n_ ? 0.0 : pr_->v[static_cast<std::size_t>(i)]; }
    double eq(long i, double pre, double c0, double post) const
    {
        return pre * V(i + m_) + c0 * V(i) + post * V(i - m_);
    }
    /// Σh² and Σslope² over cursors i0, i0+m, …, i1 (i0 > −m, i1 < n).
    void energies(long i0, long i1, double pre, double c0, double post, double& e, double& se) const
    {
        e = form(cv_, i0, i1, pre, c0, post);
        se = form(cd_, i0, i1, pre, c0, post);
    }

private:
    struct Chains {
        std::vector<double> s0, s1, s2; ///< cumulative along p, p−m, …: x(p)², x(p)x(p+m), x(p)x(p+2m)
    };
    void chains(const std::vector<double>& x, Chains& c) const
    {
        const std::size_t len = x.size(), m = static_cast<std::size_t>(m_);
        c.s0.assign(len, 0.0);
        c.s1.assign(len, 0.0);
        c.s2.assign(len, 0.0);
        for (std::size_t p = 0; p < len; ++p) {
            const double a = x[p], b = p + m < len ? x[p + m] : 0.0, cc = p + 2 * m < len ? x[p + 2 * m] : 0.0;
            c.s0[p] = a * a + (p >= m ? c.s0[p - m] : 0.0);
            c.s1[p] = a * b + (p >= m ? c.s1[p - m] : 0.0);
            c.s2[p] = a * cc + (p >= m ? c.s2[p - m] : 0.0);
        }
    }
    /// Σ over chain positions of sample indices a, a+m, …, b of the cumulative array `s`.
    double sum(const std::vector<double>& s, long a, long b) const
    {
        const long pa = a - base_, pb = b - base_;
        return s[static_cast<std::size_t>(pb)] - (pa >= m_ ? s[static_cast<std::size_t>(pa - m_)] : 0.0);
    }
    double form(const Chains& c, long i0, long i1, double pre, double c0, double post) const
    {
        const long m = m_;
        return pre * pre * sum(c.s0, i0 + m, i1 + m) + c0 * c0 * sum(c.s0, i0, i1) +
               post * post * sum(c.s0, i0 - m, i1 - m) + 2 * pre * c0 * sum(c.s1, i0, i1) +
               2 * c0 * post * sum(c.s1, i0 - m, i1 - m) + 2 * pre * post * sum(c.s2, i0 - m, i1 - m);
    }
    long m_ = 1, n_ = 0, base_ = 0;
    const PulseResponse* pr_ = nullptr;
    std::vector<double> v_, d_;
    Chains cv_, cd_;
};

/// Samples of an aggressor at its worst phase (largest sum of squares).
std::vector<double> aggressorSamples(const PulseResponse& pr)
{
    const int m = pr.samplesPerUi;
    // The same window as the victim's cursors, around the aggressor's own peak.
    const std::size_t lo = pr.peak > static_cast<std::size_t>(20 * m) ? pr.peak - static_cast<std::size_t>(20 * m) : 0;
    const std::size_t hi = std::min(pr.v.size(), pr.peak + static_cast<std::size_t>(kPostUi * m));
    const std::size_t base = lo - lo % static_cast<std::size_t>(m);
    int bestPhase = 0;
    double bestEnergy = -1;
    for (int ph = 0; ph < m; ++ph) {
        double e = 0;
        for (std::size_t i = base + static_cast<std::size_t>(ph); i < hi; i += static_cast<std::size_t>(m))
            e += pr.v[i] * pr.v[i];
        if (e > bestEnergy) {
            bestEnergy = e;
            bestPhase = ph;
        }
    }
    std::vector<double> out;
    for (std::size_t i = base + static_cast<std::size_t>(bestPhase); i < hi; i += static_cast<std::size_t>(m))
        out.push_back(pr.v[i]);
    return out;
}

} // namespace

namespace {

/// Inner-eye opening versus sampling phase and BER: at each phase the main cursor and the residual
/// ISI (the DFE keeps the taps it set at the chosen phase) are re-sampled; crosstalk and the
/// Gaussian terms are taken as at the chosen phase.
void statisticalEye(ComResult& r, const PulseResponse& victim, const Cursors& chosen, double pre, double post,
                    const std::vector<double>& xtAmps, double gaussVar, const ComParams& p, int preCursors)
{
    const int m = victim.samplesPerUi;
    const double var = symbolVariance(p.levels);
    const double h0 = chosen.h[chosen.main];
    std::vector<double> taps;
    for (int k = 1; k <= p.dfeTaps && chosen.main + static_cast<std::size_t>(k) < chosen.h.size(); ++k)
        taps.push_back(
            std::clamp(chosen.h[chosen.main + static_cast<std::size_t>(k)], -p.dfeLimit * h0, p.dfeLimit * h0));
    r.eyeBer = {1e-3, 1e-4, 1e-5, 1e-6, 1e-9, 1e-12};
    r.eyeOpeningV.assign(r.eyeBer.size(), {});
    double widthLo = 1e9, widthHi = -1e9;
    for (int d = -m / 2; d <= m / 2; d += std::max(1, m / 16)) {
        const Cursors c = sample(victim, pre, post, preCursors, chosen.ts + d);
        const double hm = c.h[c.main];
        const double as = p.levelMismatch * p.victimV * hm / (p.levels - 1);
        double span = 0, small = 0;
        std::vector<double> amps;
        for (std::size_t k = 0; k < c.h.size(); ++k) {
            if (k == c.main)
                continue;
            double v = c.h[k];
            if (k > c.main && k - c.main <= taps.size())
                v -= taps[k - c.main - 1];
            amps.push_back(p.victimV * v);
            span += std::fabs(p.victimV * v);
        }
        for (double a : xtAmps)
            span += std::fabs(a);
        const double step = std::max(std::fabs(as) / 200.0, (span + 6 * std::sqrt(gaussVar)) / 2000.0) + 1e-15;
        Pdf pdf(step, static_cast<std::size_t>(std::ceil((span + 7 * std::sqrt(gaussVar)) / step)) + 2);
        const std::vector<double>* lists[] = {&amps, &xtAmps};
        std::vector<double> onGrid;
        for (const std::vector<double>* list : lists)
            for (double a : *list) {
                if (std::fabs(a) < step / 4)
                    small += a * a * var;
                else
                    onGrid.push_back(a);
            }
        pdf.addSymbols(onGrid, p.levels);
        pdf.addGaussian(std::sqrt(gaussVar + small));
        r.eyePhaseUi.push_back(static_cast<double>(d) / m);
        for (std::size_t b = 0; b < r.eyeBer.size(); ++b)
            r.eyeOpeningV[b].push_back(as - pdf.tail(r.eyeBer[b]));
        // Width at the detector error ratio: the phases where the inner eye stays open.
        if (as - pdf.tail(p.der) > 0) {
            widthLo = std::min(widthLo, static_cast<double>(d) / m);
            widthHi = std::max(widthHi, static_cast<double>(d) / m);
        }
    }
    r.eyeWidthUi = widthHi >= widthLo ? widthHi - widthLo : 0.0;
}

} // namespace

namespace {

ComResult comAt(const ComChannel& original, const ComParams& p, bool withEye)
{
    ComChannel packaged;
    if (p.package.enabled) {
        packaged = original;
        detail::applyPackage(packaged, p.package);
    }
    const ComChannel ch = detail::resampled(p.package.enabled ? packaged : original);
    ComResult best;
    best.comDb = -1e9;
    const double var = symbolVariance(p.levels);
    const double av2 = p.victimV * p.victimV * var;
    // Insertion loss at Nyquist of the channel as given (without the device packages).
    {
        const double fn = p.baudHz / 2;
        const auto hi = std::upper_bound(original.freqHz.begin(), original.freqHz.end(), fn);
        const std::size_t j =
            std::min<std::size_t>(static_cast<std::size_t>(hi - original.freqHz.begin()), original.freqHz.size() - 1);
        const std::size_t i = j == 0 ? 0 : j - 1;
        // Clamped: past the last measured point the loss is the last point's, not an extrapolation.
        const double t =
            j == i ? 0 : std::clamp((fn - original.freqHz[i]) / (original.freqHz[j] - original.freqHz[i]), 0.0, 1.0);
        best.ilNyquistDb = -20 * std::log10((1 - t) * std::abs(original.thru[i]) + t * std::abs(original.thru[j]));
    }
    double bestFom = -1e9;
    struct Choice {
        double g, pre, post;
    } choice{0, 0, 0};
    const PulseShaper shaper(ch.freqHz, pulseOptions(p));
    const PulsePair victimPair = pulsePair(ch, ch.thru, p, shaper);
    std::vector<std::pair<PulsePair, double>> aggressors;
    for (const auto& [list, amp] : {std::pair{&ch.fext, p.fextV}, std::pair{&ch.next, p.nextV}})
        for (const auto& a : *list)
            aggressors.emplace_back(pulsePair(ch, a, p, shaper), amp);
    // Buffers reused across the sweep (the records are long: 1/(data step) of time).
    PulseResponse victim, aggressor;
    Cursors c;
    Residuals res;
    FfeSweep sweep;
    const RxNoise rxNoise(p);
    const std::vector<double> pres = p.txPre.values(), posts = p.txPost.values();
    for (double g : p.ctleGainDb.values()) {
        victimPair.into(g, victim);
        double xt = 0;
        for (const auto& [pair, amp] : aggressors) {
            pair.into(g, aggressor);
            for (double v : aggressorSamples(aggressor))
                xt += amp * amp * var * v * v;
        }
        const double noise = rxNoise.variance(g);
        const long m = victim.samplesPerUi, n = static_cast<long>(victim.v.size());
        // Every window below lies within [peak − (kPre+1) UI, peak + (kPostUi+1) UI), ±1 UI.
        const long pk = static_cast<long>(victim.peak);
        sweep.reset(victim, pk - (kPre + 3) * m, pk + (kPostUi + 3) * m);
        for (double pre : pres)
            for (double post : posts) {
                // The cursors sampleInto would take: the Mueller–Müller point near the peak, kPre
                // before it and up to kPostUi after it.
                const double c0 = 1.0 - std::fabs(pre) - std::fabs(post);
                const long ts = muellerMuller([&](long i) { return sweep.eq(i, pre, c0, post); },
                                              static_cast<long>(victim.peak), m, p.dfeLimit, mmEpsilon(p));
                const double h0 = sweep.eq(ts, pre, c0, post);
                const long first = ts - kPre * m, last = std::min(n, ts + kPostUi * m);
                const long i0 = std::max(first % m, first);
                if (h0 <= 0 || ts >= last)
                    continue;
                const long i1 = i0 + (last - 1 - i0) / m * m;
                double all = 0, jit = 0;
                sweep.energies(i0, i1, pre, c0, post, all, jit);
                // Residual ISI: every cursor but the main one, less what the DFE cancels.
                double isi = all - h0 * h0;
                for (long k = 1; k <= p.dfeTaps && ts + k * m < last; ++k) {
                    const double h = sweep.eq(ts + k * m, pre, c0, post);
                    const double r = h - std::clamp(h, -p.dfeLimit * h0, p.dfeLimit * h0);
                    isi += r * r - h * h;
                }
                const double as = p.levelMismatch * p.victimV * h0 / (p.levels - 1);
                // Transmitter noise scales with the main cursor (93A-30).
                const double tx = av2 * h0 * h0 * std::pow(10.0, -p.txSnrDb / 10);
                const double jitter = av2 * jit * (p.dualDiracUi * p.dualDiracUi + p.randomJitterUi * p.randomJitterUi);
                const double fom = 10 * std::log10(as * as / (av2 * isi + xt + tx + jitter + noise));
                if (fom > bestFom) {
                    bestFom = fom;
                    choice = {g, pre, post};
                }
            }
    }

    // Full COM at the chosen settings, with the noise as a distribution.
    victimPair.into(choice.g, victim);
    sampleInto(c, victim, choice.pre, choice.post, kPre, -1, p.dfeLimit, mmEpsilon(p));
    const double h0 = c.h[c.main];
    const double as = p.levelMismatch * p.victimV * h0 / (p.levels - 1);
    residualsInto(res, c, p);
    std::vector<double> isiAmps;
    for (double r : res.isi)
        isiAmps.push_back(p.victimV * r);
    const double jit = res.slopeEnergy;
    std::vector<double> xtAmps;
    for (const auto& [pair, amp] : aggressors) {
        pair.into(choice.g, aggressor);
        for (double v : aggressorSamples(aggressor))
            xtAmps.push_back(amp * v);
    }
    const double sigmaTx2 = av2 * h0 * h0 * std::pow(10.0, -p.txSnrDb / 10);
    const double sigmaJ2 = av2 * jit * (p.dualDiracUi * p.dualDiracUi + p.randomJitterUi * p.randomJitterUi);
    const double sigmaN2 = rxNoise.variance(choice.g);
    double span = 0, gauss2 = sigmaTx2 + sigmaJ2 + sigmaN2;
    for (double a : isiAmps)
        span += std::fabs(a);
    for (double a : xtAmps)
        span += std::fabs(a);
    // Bins of A_s/500 resolve COM to about 0.02 dB.
    const double step = std::max(as / 500.0, (span + 6 * std::sqrt(gauss2)) / 5000.0);
    Pdf pdf(step, static_cast<std::size_t>(std::ceil((span + 7 * std::sqrt(gauss2)) / step)) + 2);
    double isiVar = 0, xtVar = 0, isiSmall = 0;
    std::vector<double> onGrid;
    for (double a : isiAmps) {
        isiVar += a * a * var;
        if (std::fabs(a) < step / 4) {
            gauss2 += a * a * var; // too small for the grid: counted as Gaussian
            isiSmall += a * a * var;
        } else
            onGrid.push_back(a);
    }
    for (double a : xtAmps) {
        xtVar += a * a * var;
        if (std::fabs(a) < step / 4)
            gauss2 += a * a * var;
        else
            onGrid.push_back(a);
    }
    pdf.addSymbols(onGrid, p.levels);
    pdf.addGaussian(std::sqrt(gauss2));
    const double ani = std::max(pdf.tail(p.der), step);
    best.comDb = 20 * std::log10(as / ani);
    best.signalV = as;
    best.noiseV = ani;
    best.eyeHeightV = std::max(0.0, 2 * (as - ani));
    best.ctleGainDb = choice.g;
    best.txPre = choice.pre;
    best.txPost = choice.post;
    best.sigmaIsiV = std::sqrt(isiVar);
    best.sigmaXtV = std::sqrt(xtVar);
    best.sigmaGaussV = std::sqrt(sigmaTx2 + sigmaJ2 + sigmaN2);
    best.sigmaTxV = std::sqrt(sigmaTx2);
    best.sigmaJitterV = std::sqrt(sigmaJ2);
    best.sigmaRxNoiseV = std::sqrt(sigmaN2);
    best.pass = best.comDb >= p.passDb;
    best.pulse = victim;
    best.samplesPerUi = p.samplesPerUi;
    if (withEye)
        statisticalEye(best, victim, c, choice.pre, choice.post, xtAmps, gauss2 - isiSmall, p, kPre);
    return best;
}

} // namespace

ComResult computeCom(const ComChannel& original, const ComParams& p, bool withEye)
{
    ComResult r = comAt(original, p, withEye);
    if (p.samplesPerUi < kComRefinedSamplesPerUi && std::fabs(r.comDb - p.passDb) < kComRefineBandDb) {
        ComParams fine = p;
        fine.samplesPerUi = kComRefinedSamplesPerUi;
        r = comAt(original, fine, withEye);
    }
    return r;
}

double comPulseSpanS(const ComParams& p)
{
    return static_cast<double>(kPre + 1 + kPostUi) / p.baudHz;
}

} // namespace rdt::signal
