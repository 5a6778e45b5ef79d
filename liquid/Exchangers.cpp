#include "liquid/Exchangers.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace rdt::liquid {

PlateRise plateRise(const ColdPlate& plate, double flowM3s, double heatW)
{
    const auto& pts = plate.resistance;
    if (pts.empty())
        throw std::invalid_argument("a cold plate needs its measured resistance against flow");
    for (std::size_t i = 0; i < pts.size(); ++i)
        if (!(pts[i].second > 0) || (i > 0 && !(pts[i].first > pts[i - 1].first)))
            throw std::invalid_argument("a cold plate's resistance points need increasing flows and R > 0");
    PlateRise out;
    if (!(flowM3s >= pts.front().first)) {
        out.measured = false;
        out.riseK = out.resistance = std::numeric_limits<double>::quiet_NaN();
        return out;
    }
    if (flowM3s >= pts.back().first) {
        out.resistance = pts.back().second;
    } else {
        std::size_t i = 0;
        while (flowM3s > pts[i + 1].first)
            ++i;
        const double f = (flowM3s - pts[i].first) / (pts[i + 1].first - pts[i].first);
        out.resistance = pts[i].second + f * (pts[i + 1].second - pts[i].second);
    }
    out.riseK = out.resistance * heatW;
    return out;
}

double counterflowEffectiveness(double ntu, double cr)
{
    if (!(ntu >= 0) || !(cr >= 0 && cr <= 1))
        throw std::invalid_argument("counterflow effectiveness needs NTU >= 0 and 0 <= C_r <= 1");
    if (std::abs(1.0 - cr) < 1e-9)
        return ntu / (1.0 + ntu);
    const double e = std::exp(-ntu * (1.0 - cr));
    return (1.0 - e) / (1.0 - cr * e);
}

double counterflowNtu(double eps, double cr)
{
    if (!(cr >= 0 && cr <= 1) || !(eps > 0 && eps < 1) || eps * cr >= 1)
        throw std::invalid_argument("no counterflow exchanger reaches that effectiveness");
    if (std::abs(1.0 - cr) < 1e-9)
        return eps / (1.0 - eps);
    return std::log((1.0 - eps * cr) / (1.0 - eps)) / (1.0 - cr);
}

double cduUa(const CduRating& r)
{
    if (!(r.ratedW > 0) || !(r.approachK > 0) || !(r.itRate > 0) || !(r.facilityRate > 0))
        throw std::invalid_argument("a CDU rating needs its heat, approach and both capacity rates > 0");
    // IT return = IT supply + Q / C_it; IT supply = facility supply + approach: the inlet difference
    // the exchanger sees is approach + Q / C_it.
    const double cmin = std::min(r.itRate, r.facilityRate), cmax = std::max(r.itRate, r.facilityRate);
    const double eps = r.ratedW / (cmin * (r.approachK + r.ratedW / r.itRate));
    return counterflowNtu(eps, cmin / cmax) * cmin;
}

double cduHeat(double ua, double itReturnC, double facilitySupplyC, double itRate, double facilityRate)
{
    const double cmin = std::min(itRate, facilityRate), cmax = std::max(itRate, facilityRate);
    return counterflowEffectiveness(ua / cmin, cmin / cmax) * cmin * (itReturnC - facilitySupplyC);
}

double cduCapacity(double ua, double itSupplyC, double facilitySupplyC, double itRate, double facilityRate)
{
    const double approach = itSupplyC - facilitySupplyC;
    if (!(approach > 0))
        return 0.0;
    // Q = ε C_min (approach + Q / C_it)  →  Q = ε C_min approach / (1 − ε C_min / C_it).
    const double cmin = std::min(itRate, facilityRate), cmax = std::max(itRate, facilityRate);
    const double eps = counterflowEffectiveness(ua / cmin, cmin / cmax);
    return eps * cmin * approach / (1.0 - eps * cmin / itRate);
}

} // namespace rdt::liquid
