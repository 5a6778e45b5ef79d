#include "models/FanCurve.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace rdt::models {

FanCurve FanCurve::table(std::vector<std::pair<double, double>> points)
{
    if (points.size() < 2)
        throw std::invalid_argument("a fan curve needs at least two points");
    for (std::size_t i = 1; i < points.size(); ++i)
        if (points[i].first <= points[i - 1].first || points[i].second > points[i - 1].second)
            throw std::invalid_argument("a fan curve's pressure must not rise with flow");
    FanCurve c;
    c.m_table = std::move(points);
    c.m_freeFlow = c.findFreeFlow();
    return c;
}

FanCurve FanCurve::polynomial(std::vector<double> coefficients)
{
    FanCurve c;
    c.m_poly = std::move(coefficients);
    c.m_freeFlow = c.findFreeFlow();
    return c;
}

double FanCurve::pressure(double q) const
{
    if (!m_poly.empty()) {
        double p = 0, x = 1;
        for (double a : m_poly) {
            p += a * x;
            x *= q;
        }
        return p;
    }
    const auto& t = m_table;
    if (q <= t.front().first)
        return t.front().second + slope(q) * (q - t.front().first);
    if (q >= t.back().first)
        return t.back().second + slope(q) * (q - t.back().first);
    const auto hi = std::upper_bound(t.begin(), t.end(), q, [](double v, const auto& p) { return v < p.first; });
    const auto lo = hi - 1;
    return lo->second + (q - lo->first) / (hi->first - lo->first) * (hi->second - lo->second);
}

double FanCurve::slope(double q) const
{
    if (!m_poly.empty()) {
        double d = 0, x = 1;
        for (std::size_t i = 1; i < m_poly.size(); ++i) {
            d += static_cast<double>(i) * m_poly[i] * x;
            x *= q;
        }
        return d;
    }
    const auto& t = m_table;
    std::size_t i = 0;
    while (i + 2 < t.size() && q > t[i + 1].first)
        ++i;
    const double s = (t[i + 1].second - t[i].second) / (t[i + 1].first - t[i].first);
    // A flat segment would make Newton stall; keep a small negative slope.
    return std::min(s, -1e-6 * std::max(1.0, t.front().second));
}

double FanCurve::findFreeFlow() const
{
    double lo = 0, hi = 1.0;
    while (pressure(hi) > 0 && hi < 1e3)
        hi *= 2;
    // Bisection to adjacent doubles: at most ~64 halvings from [0, 1e3] (then mid is lo or hi).
    for (int i = 0; i < 200; ++i) {
        const double mid = 0.5 * (lo + hi);
        if (mid <= lo || mid >= hi)
            break;
        (pressure(mid) > 0 ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

double fanPressure(const FanCurve& c, double q, double s, double rho)
{
    return rho * s * s * c.pressure(q / s);
}

double fanSlope(const FanCurve& c, double q, double s, double rho)
{
    return rho * s * c.slope(q / s);
}

namespace {
double lockedRotorK(const FanCurve& c)
{
    const double qf = c.freeFlow();
    return 0.5 * c.shutoffPa() / (qf * qf);
}
} // namespace

double dualRotorPressure(const FanCurve& c, double q, double s, double rho, int failed)
{
    const int running = 2 - std::clamp(failed, 0, 2);
    if (running == 2)
        return fanPressure(c, q, s, rho);
    return 0.5 * running * fanPressure(c, q, s, rho) - (2 - running) * rho * lockedRotorK(c) * q * std::fabs(q);
}

double dualRotorSlope(const FanCurve& c, double q, double s, double rho, int failed)
{
    const int running = 2 - std::clamp(failed, 0, 2);
    if (running == 2)
        return fanSlope(c, q, s, rho);
    return 0.5 * running * fanSlope(c, q, s, rho) - (2 - running) * rho * lockedRotorK(c) * 2.0 * std::fabs(q);
}

} // namespace rdt::models
