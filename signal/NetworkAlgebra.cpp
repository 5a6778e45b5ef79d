#include "signal/NetworkAlgebra.h"

#include <unsupported/Eigen/FFT>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace rdt::signal {

using cd = std::complex<double>;

namespace {
CMatrix diag(const Eigen::VectorXd& v)
{
    CMatrix m = CMatrix::Zero(v.size(), v.size());
    for (int i = 0; i < v.size(); ++i)
        m(i, i) = v(i);
    return m;
}
Eigen::VectorXd sqrtv(const Eigen::VectorXd& v)
{
    return v.array().sqrt();
}
} // namespace

CMatrix s2z(const CMatrix& s, const Eigen::VectorXd& z0)
{
    // Z = √Z0 (I + S)(I − S)⁻¹ √Z0 for real references.
    const int n = static_cast<int>(s.rows());
    const CMatrix id = CMatrix::Identity(n, n), r = diag(sqrtv(z0));
    return r * (id + s) * (id - s).inverse() * r;
}

CMatrix z2s(const CMatrix& z, const Eigen::VectorXd& z0)
{
    const Eigen::VectorXd inv = sqrtv(z0).cwiseInverse();
    const CMatrix ri = diag(inv), g = diag(z0);
    return ri * (z - g) * (z + g).inverse() * diag(sqrtv(z0));
}

CMatrix s2y(const CMatrix& s, const Eigen::VectorXd& z0)
{
    return s2z(s, z0).inverse();
}

CMatrix y2s(const CMatrix& y, const Eigen::VectorXd& z0)
{
    // S = √Z0 (Y0 − Y)(Y0 + Y)⁻¹ √Y0 with Y0 = Z0⁻¹, which avoids inverting a singular Y.
    const Eigen::VectorXd y0 = z0.cwiseInverse();
    return diag(sqrtv(z0)) * (diag(y0) - y) * (diag(y0) + y).inverse() * diag(sqrtv(y0));
}

CMatrix s2abcd(const CMatrix& s, const Eigen::VectorXd& z0)
{
    if (s.rows() != 2)
        throw std::invalid_argument("ABCD parameters need a two-port");
    // Directly from S (Frickey, IEEE Trans. MTT 42(2), 1994, for real reference impedances): through Z
    // an ideal through, whose Z does not exist, had no ABCD either, although it is the identity.
    const double z1 = z0(0), z2 = z0(1), k = 2.0 * std::sqrt(z1 * z2);
    const cd s11 = s(0, 0), s12 = s(0, 1), s21 = s(1, 0), s22 = s(1, 1), d = k * s21;
    CMatrix a(2, 2);
    a(0, 0) = (z1 * (1.0 + s11) * (1.0 - s22) + s12 * s21 * z1) / d;
    a(0, 1) = (z1 * z2 * (1.0 + s11) * (1.0 + s22) - s12 * s21 * z1 * z2) / d;
    a(1, 0) = ((1.0 - s11) * (1.0 - s22) - s12 * s21) / d;
    a(1, 1) = (z2 * (1.0 - s11) * (1.0 + s22) + s12 * s21 * z2) / d;
    return a;
}

CMatrix abcd2s(const CMatrix& a, const Eigen::VectorXd& z0)
{
    if (a.rows() != 2)
        throw std::invalid_argument("ABCD parameters need a two-port");
    // Via Z when C ≠ 0; the direct formula below is valid for any real z01, z02.
    const double z1 = z0(0), z2 = z0(1);
    const cd A = a(0, 0), B = a(0, 1), C = a(1, 0), D = a(1, 1);
    const cd den = A * z2 + B + C * z1 * z2 + D * z1;
    CMatrix s(2, 2);
    s(0, 0) = (A * z2 + B - C * z1 * z2 - D * z1) / den;
    s(0, 1) = 2.0 * (A * D - B * C) * std::sqrt(z1 * z2) / den;
    s(1, 0) = 2.0 * std::sqrt(z1 * z2) / den;
    s(1, 1) = (-A * z2 + B - C * z1 * z2 + D * z1) / den;
    return s;
}

CMatrix s2t(const CMatrix& s)
{
    if (s.rows() != 2)
        throw std::invalid_argument("T parameters need a two-port");
    CMatrix t(2, 2);
    t(0, 0) = -(s(0, 0) * s(1, 1) - s(0, 1) * s(1, 0)) / s(1, 0);
    t(0, 1) = s(0, 0) / s(1, 0);
    t(1, 0) = -s(1, 1) / s(1, 0);
    t(1, 1) = cd(1.0) / s(1, 0);
    return t;
}

CMatrix t2s(const CMatrix& t)
{
    CMatrix s(2, 2);
    s(0, 0) = t(0, 1) / t(1, 1);
    s(0, 1) = (t(0, 0) * t(1, 1) - t(0, 1) * t(1, 0)) / t(1, 1);
    s(1, 0) = cd(1.0) / t(1, 1);
    s(1, 1) = -t(1, 0) / t(1, 1);
    return s;
}

Network renormalize(const Network& net, const Eigen::VectorXd& newZ0)
{
    Network out = net;
    out.z0 = newZ0;
    for (std::size_t k = 0; k < net.s.size(); ++k)
        out.s[k] = z2s(s2z(net.s[k], net.z0), newZ0);
    return out;
}

Network cascade(const Network& a, const Network& b)
{
    if (a.ports() != 2 || b.ports() != 2)
        throw std::invalid_argument("cascade needs two-ports");
    if (a.freqHz.size() != b.freqHz.size())
        throw std::invalid_argument("cascade needs the same frequency grid");
    Network bb = std::fabs(a.z0(1) - b.z0(0)) > 1e-12 ? renormalize(b, Eigen::Vector2d(a.z0(1), b.z0(1))) : b;
    Network out = a;
    out.z0 = Eigen::Vector2d(a.z0(0), bb.z0(1));
    for (std::size_t k = 0; k < a.s.size(); ++k)
        out.s[k] = t2s(s2t(a.s[k]) * s2t(bb.s[k]));
    return out;
}

Network reorder(const Network& net, const std::vector<int>& order)
{
    const int n = net.ports();
    if (static_cast<int>(order.size()) != n)
        throw std::invalid_argument("reorder needs one entry per port");
    Network out = net;
    for (int i = 0; i < n; ++i)
        out.z0(i) = net.z0(order[static_cast<std::size_t>(i)]);
    for (std::size_t k = 0; k < net.s.size(); ++k)
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j)
                out.s[k](i, j) = net.s[k](order[static_cast<std::size_t>(i)], order[static_cast<std::size_t>(j)]);
    return out;
}

Network mixedMode(const Network& net, std::array<int, 4> pins)
{
    if (net.ports() != 4)
        throw std::invalid_argument("mixed-mode conversion needs a 4-port");
    // Order the ports p1, p2, n1, n2; then [d1 d2 c1 c2] = M [p1 p2 n1 n2].
    const Network r = reorder(net, {pins[0], pins[2], pins[1], pins[3]});
    CMatrix m = CMatrix::Zero(4, 4);
    const double h = 1.0 / std::sqrt(2.0);
    m(0, 0) = h, m(0, 2) = -h;
    m(1, 1) = h, m(1, 3) = -h;
    m(2, 0) = h, m(2, 2) = h;
    m(3, 1) = h, m(3, 3) = h;
    Network out = r;
    // Mixed-mode references: differential 2·Z0, common Z0/2; with equal single-ended references the
    // normalised S is invariant.
    out.z0 = Eigen::Vector4d(2 * r.z0(0), 2 * r.z0(1), r.z0(0) / 2, r.z0(1) / 2);
    out.mixedModeOrder = "D1 D2 C1 C2";
    const CMatrix mi = m.adjoint(); // M is real orthogonal
    for (std::size_t k = 0; k < r.s.size(); ++k)
        out.s[k] = m * r.s[k] * mi;
    return out;
}

CMatrix lineAbcd(double zLine, double betaL)
{
    CMatrix a(2, 2);
    a(0, 0) = std::cos(betaL);
    a(0, 1) = cd(0, zLine * std::sin(betaL));
    a(1, 0) = cd(0, std::sin(betaL) / zLine);
    a(1, 1) = std::cos(betaL);
    return a;
}

Network interpolate(const Network& net, const std::vector<double>& f)
{
    Network out = net;
    out.freqHz = f;
    out.s.assign(f.size(), CMatrix::Zero(net.ports(), net.ports()));
    for (std::size_t k = 0; k < f.size(); ++k) {
        const double x = f[k];
        if (x <= net.freqHz.front()) {
            // Towards DC: hold magnitude, scale phase linearly to zero at DC.
            const double r = net.freqHz.front() > 0 ? x / net.freqHz.front() : 0.0;
            for (int i = 0; i < net.ports(); ++i)
                for (int j = 0; j < net.ports(); ++j)
                    out.s[k](i, j) = std::polar(std::abs(net.s[0](i, j)), r * std::arg(net.s[0](i, j)));
            continue;
        }
        if (x >= net.freqHz.back()) {
            out.s[k] = net.s.back();
            continue;
        }
        const auto hi = std::upper_bound(net.freqHz.begin(), net.freqHz.end(), x);
        const std::size_t j = static_cast<std::size_t>(hi - net.freqHz.begin());
        const double t = (x - net.freqHz[j - 1]) / (net.freqHz[j] - net.freqHz[j - 1]);
        out.s[k] = (1 - t) * net.s[j - 1] + t * net.s[j];
    }
    return out;
}

Quality quality(const Network& net)
{
    Quality q;
    q.passivityExcess = -1.0;
    for (const CMatrix& s : net.s) {
        // Non-finite figures (|S| of 1e300 overflows the SVD) are the worst case, not skipped:
        // std::max would drop a NaN and call such a file passive.
        const double recip = (s - s.transpose()).cwiseAbs().maxCoeff();
        q.reciprocityError = std::isfinite(recip) ? std::max(q.reciprocityError, recip) : INFINITY;
        const Eigen::JacobiSVD<CMatrix> svd(s);
        const double excess = svd.singularValues()(0) - 1.0;
        q.passivityExcess = std::isfinite(excess) ? std::max(q.passivityExcess, excess) : INFINITY;
    }
    // Causality: inverse FFT of each S_ij on a uniform grid from DC (data resampled), with a
    // raised-cosine taper at the band edge so truncation does not leak into negative time.
    const std::size_t n = 1u << 14;
    const double fmax = net.freqHz.back();
    std::vector<double> grid(n / 2 + 1);
    for (std::size_t k = 0; k <= n / 2; ++k)
        grid[k] = fmax * static_cast<double>(k) / static_cast<double>(n / 2);
    const Network u = interpolate(net, grid);
    Eigen::FFT<double> fft;
    fft.SetFlag(Eigen::FFT<double>::HalfSpectrum);
    double posAll = 0, negAll = 0;
    for (int i = 0; i < net.ports(); ++i)
        for (int j = 0; j < net.ports(); ++j) {
            std::vector<cd> spec(n / 2 + 1);
            for (std::size_t k = 0; k <= n / 2; ++k) {
                const double x = static_cast<double>(k) / static_cast<double>(n / 2);
                const double taper = x < 0.8 ? 1.0 : 0.5 * (1 + std::cos(M_PI * (x - 0.8) / 0.2));
                spec[k] = u.s[k](i, j) * taper;
            }
            spec[n / 2] = spec[n / 2].real();
            std::vector<double> t;
            fft.inv(t, spec, static_cast<Eigen::Index>(n));
            double pos = 0, neg = 0;
            for (std::size_t k = 0; k < n; ++k)
                (k < n / 2 ? pos : neg) += t[k] * t[k];
            posAll += pos;
            negAll += neg;
        }
    // Energy-weighted over all entries, so near-zero terms (noise floor) do not dominate.
    q.acausalEnergy = posAll + negAll > 0 ? negAll / (posAll + negAll) : 0.0;
    return q;
}

} // namespace rdt::signal
