#include "core/Units.h"

#include "core/Error.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace rdt::core {
namespace {

struct UnitDef {
    std::string_view symbol;
    Dimension dim;
    double scale; ///< SI = value * scale + offset
    double offset;
};

constexpr double kZeroCelsiusK = 273.15;
constexpr double kCfmToM3s = 0.3048 * 0.3048 * 0.3048 / 60.0;

// Symbols are matched exactly (case-sensitive: "mW" is not "MW").
constexpr std::array kUnits{
    UnitDef{"%", Dimension::Ratio, 0.01, 0},
    UnitDef{"um", Dimension::Length, 1e-6, 0},
    UnitDef{"mm", Dimension::Length, 1e-3, 0},
    UnitDef{"cm", Dimension::Length, 1e-2, 0},
    UnitDef{"m", Dimension::Length, 1.0, 0},
    UnitDef{"km", Dimension::Length, 1e3, 0},
    UnitDef{"in", Dimension::Length, 0.0254, 0},
    UnitDef{"ft", Dimension::Length, 0.3048, 0},
    UnitDef{"g", Dimension::Mass, 1e-3, 0},
    UnitDef{"kg", Dimension::Mass, 1.0, 0},
    UnitDef{"lb", Dimension::Mass, 0.45359237, 0},
    UnitDef{"oz", Dimension::Mass, 0.028349523125, 0},
    UnitDef{"ns", Dimension::Time, 1e-9, 0},
    UnitDef{"us", Dimension::Time, 1e-6, 0},
    UnitDef{"ms", Dimension::Time, 1e-3, 0},
    UnitDef{"s", Dimension::Time, 1.0, 0},
    UnitDef{"min", Dimension::Time, 60.0, 0},
    UnitDef{"h", Dimension::Time, 3600.0, 0},
    UnitDef{"K", Dimension::Temperature, 1.0, 0},
    UnitDef{"degC", Dimension::Temperature, 1.0, kZeroCelsiusK},
    UnitDef{"degF", Dimension::Temperature, 5.0 / 9.0, kZeroCelsiusK - 32.0 * 5.0 / 9.0},
    UnitDef{"K", Dimension::TemperatureDelta, 1.0, 0},
    UnitDef{"degC", Dimension::TemperatureDelta, 1.0, 0},
    UnitDef{"degF", Dimension::TemperatureDelta, 5.0 / 9.0, 0},
    UnitDef{"mW", Dimension::Power, 1e-3, 0},
    UnitDef{"W", Dimension::Power, 1.0, 0},
    UnitDef{"kW", Dimension::Power, 1e3, 0},
    UnitDef{"MW", Dimension::Power, 1e6, 0},
    UnitDef{"J", Dimension::Energy, 1.0, 0},
    UnitDef{"kJ", Dimension::Energy, 1e3, 0},
    UnitDef{"MJ", Dimension::Energy, 1e6, 0},
    UnitDef{"GJ", Dimension::Energy, 1e9, 0},
    UnitDef{"Wh", Dimension::Energy, 3600.0, 0},
    UnitDef{"kWh", Dimension::Energy, 3.6e6, 0},
    UnitDef{"MWh", Dimension::Energy, 3.6e9, 0},
    UnitDef{"mV", Dimension::Voltage, 1e-3, 0},
    UnitDef{"V", Dimension::Voltage, 1.0, 0},
    UnitDef{"kV", Dimension::Voltage, 1e3, 0},
    UnitDef{"mA", Dimension::Current, 1e-3, 0},
    UnitDef{"A", Dimension::Current, 1.0, 0},
    UnitDef{"kA", Dimension::Current, 1e3, 0},
    UnitDef{"uohm", Dimension::Resistance, 1e-6, 0},
    UnitDef{"mohm", Dimension::Resistance, 1e-3, 0},
    UnitDef{"ohm", Dimension::Resistance, 1.0, 0},
    UnitDef{"uohm/m", Dimension::ResistancePerLength, 1e-6, 0},
    UnitDef{"mohm/m", Dimension::ResistancePerLength, 1e-3, 0},
    UnitDef{"ohm/m", Dimension::ResistancePerLength, 1.0, 0},
    UnitDef{"K/W", Dimension::ThermalResistance, 1.0, 0},
    UnitDef{"dB", Dimension::Gain, 1.0, 0},
    UnitDef{"V^2/Hz", Dimension::NoiseDensity, 1.0, 0},
    UnitDef{"V^2/GHz", Dimension::NoiseDensity, 1e-9, 0},
    UnitDef{"F", Dimension::Capacitance, 1.0, 0},
    UnitDef{"uF", Dimension::Capacitance, 1e-6, 0},
    UnitDef{"nF", Dimension::Capacitance, 1e-9, 0},
    UnitDef{"pF", Dimension::Capacitance, 1e-12, 0},
    UnitDef{"fF", Dimension::Capacitance, 1e-15, 0},
    UnitDef{"degC/W", Dimension::ThermalResistance, 1.0, 0},
    UnitDef{"b/s", Dimension::DataRate, 1.0, 0},
    UnitDef{"kb/s", Dimension::DataRate, 1e3, 0},
    UnitDef{"Mb/s", Dimension::DataRate, 1e6, 0},
    UnitDef{"Gb/s", Dimension::DataRate, 1e9, 0},
    UnitDef{"Tb/s", Dimension::DataRate, 1e12, 0},
    UnitDef{"MB/s", Dimension::DataRate, 8e6, 0},
    UnitDef{"GB/s", Dimension::DataRate, 8e9, 0},
    UnitDef{"TB/s", Dimension::DataRate, 8e12, 0},
    UnitDef{"B", Dimension::DataSize, 1.0, 0},
    UnitDef{"kB", Dimension::DataSize, 1e3, 0},
    UnitDef{"MB", Dimension::DataSize, 1e6, 0},
    UnitDef{"GB", Dimension::DataSize, 1e9, 0},
    UnitDef{"TB", Dimension::DataSize, 1e12, 0},
    UnitDef{"KiB", Dimension::DataSize, 1024.0, 0},
    UnitDef{"MiB", Dimension::DataSize, 1048576.0, 0},
    UnitDef{"GiB", Dimension::DataSize, 1073741824.0, 0},
    UnitDef{"Hz", Dimension::Frequency, 1.0, 0},
    UnitDef{"kHz", Dimension::Frequency, 1e3, 0},
    UnitDef{"MHz", Dimension::Frequency, 1e6, 0},
    UnitDef{"GHz", Dimension::Frequency, 1e9, 0},
    UnitDef{"GFLOPS", Dimension::ComputeRate, 1e9, 0},
    UnitDef{"TFLOPS", Dimension::ComputeRate, 1e12, 0},
    UnitDef{"PFLOPS", Dimension::ComputeRate, 1e15, 0},
    UnitDef{"Pa", Dimension::Pressure, 1.0, 0},
    UnitDef{"kPa", Dimension::Pressure, 1e3, 0},
    UnitDef{"inH2O", Dimension::Pressure, 249.08891, 0},
    UnitDef{"psi", Dimension::Pressure, 6894.757293168, 0}, // lbf/in² (NIST SP 811)
    UnitDef{"bar", Dimension::Pressure, 1e5, 0},
    UnitDef{"m3/s", Dimension::VolumeFlow, 1.0, 0},
    UnitDef{"m3/h", Dimension::VolumeFlow, 1.0 / 3600.0, 0},
    UnitDef{"CFM", Dimension::VolumeFlow, kCfmToM3s, 0},
    UnitDef{"L/min", Dimension::VolumeFlow, 1e-3 / 60.0, 0},
    UnitDef{"gpm", Dimension::VolumeFlow, 3.785411784e-3 / 60.0, 0}, // US gallon (NIST SP 811)
    UnitDef{"OU", Dimension::OpenU, 1.0, 0},
    UnitDef{"m/s", Dimension::Velocity, 1.0, 0},
    UnitDef{"L/min/kW", Dimension::FlowPerPower, 1e-3 / 60.0 / 1e3, 0},
    UnitDef{"W/s", Dimension::PowerRate, 1.0, 0},
    UnitDef{"kW/s", Dimension::PowerRate, 1e3, 0},
    UnitDef{"MW/s", Dimension::PowerRate, 1e6, 0},
    UnitDef{"MW/min", Dimension::PowerRate, 1e6 / 60.0, 0},
};

std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

std::string exampleText(Dimension d)
{
    switch (d) {
    case Dimension::Ratio: return "\"97.5 %\"";
    case Dimension::Length: return "\"48 mm\"";
    case Dimension::Mass: return "\"1.2 kg\"";
    case Dimension::Time: return "\"90 s\"";
    case Dimension::Temperature: return "\"35 degC\"";
    case Dimension::TemperatureDelta: return "\"12 K\"";
    case Dimension::Power: return "\"700 W\"";
    case Dimension::Energy: return "\"1.5 MJ\"";
    case Dimension::Voltage: return "\"48 V\"";
    case Dimension::Current: return "\"375 A\"";
    case Dimension::Resistance: return "\"0.1 mohm\"";
    case Dimension::ResistancePerLength: return "\"0.14 mohm/m\"";
    case Dimension::ThermalResistance: return "\"0.05 K/W\"";
    case Dimension::Gain: return "\"-6 dB\"";
    case Dimension::NoiseDensity: return "\"5.2e-8 V^2/GHz\"";
    case Dimension::Capacitance: return "\"0.25 pF\"";
    case Dimension::DataRate: return "\"400 Gb/s\"";
    case Dimension::DataSize: return "\"80 GB\"";
    case Dimension::Frequency: return "\"16 GHz\"";
    case Dimension::ComputeRate: return "\"989 TFLOPS\"";
    case Dimension::Pressure: return "\"25 Pa\"";
    case Dimension::VolumeFlow: return "\"1200 CFM\"";
    case Dimension::OpenU: return "\"2 OU\"";
    case Dimension::Velocity: return "\"1.5 m/s\"";
    case Dimension::FlowPerPower: return "\"1.5 L/min/kW\"";
    case Dimension::PowerRate: return "\"20 MW/min\"";
    }
    return "";
}

} // namespace

std::string exampleQuantity(Dimension d)
{
    return exampleText(d);
}

std::string_view dimensionName(Dimension d)
{
    switch (d) {
    case Dimension::Ratio: return "ratio";
    case Dimension::Length: return "length";
    case Dimension::Mass: return "mass";
    case Dimension::Time: return "time";
    case Dimension::Temperature: return "temperature";
    case Dimension::TemperatureDelta: return "temperature difference";
    case Dimension::Power: return "power";
    case Dimension::Energy: return "energy";
    case Dimension::Voltage: return "voltage";
    case Dimension::Current: return "current";
    case Dimension::Resistance: return "resistance";
    case Dimension::ResistancePerLength: return "resistance per length";
    case Dimension::ThermalResistance: return "thermal resistance";
    case Dimension::Gain: return "gain";
    case Dimension::NoiseDensity: return "noise spectral density";
    case Dimension::Capacitance: return "capacitance";
    case Dimension::DataRate: return "data rate";
    case Dimension::DataSize: return "data size";
    case Dimension::Frequency: return "frequency";
    case Dimension::ComputeRate: return "compute rate";
    case Dimension::Pressure: return "pressure";
    case Dimension::VolumeFlow: return "volume flow";
    case Dimension::OpenU: return "height in OpenU";
    case Dimension::Velocity: return "velocity";
    case Dimension::FlowPerPower: return "flow per power";
    case Dimension::PowerRate: return "power ramp rate";
    }
    return "quantity";
}

std::string_view siUnit(Dimension d)
{
    switch (d) {
    case Dimension::Ratio: return "1";
    case Dimension::Length: return "m";
    case Dimension::Mass: return "kg";
    case Dimension::Time: return "s";
    case Dimension::Temperature:
    case Dimension::TemperatureDelta: return "K";
    case Dimension::Power: return "W";
    case Dimension::Energy: return "J";
    case Dimension::Voltage: return "V";
    case Dimension::Current: return "A";
    case Dimension::Resistance: return "ohm";
    case Dimension::ResistancePerLength: return "ohm/m";
    case Dimension::ThermalResistance: return "K/W";
    case Dimension::Gain: return "dB";
    case Dimension::NoiseDensity: return "V^2/Hz";
    case Dimension::Capacitance: return "F";
    case Dimension::DataRate: return "b/s";
    case Dimension::DataSize: return "B";
    case Dimension::Frequency: return "Hz";
    case Dimension::ComputeRate: return "FLOP/s";
    case Dimension::Pressure: return "Pa";
    case Dimension::VolumeFlow: return "m3/s";
    case Dimension::OpenU: return "OU";
    case Dimension::Velocity: return "m/s";
    case Dimension::FlowPerPower: return "m3/s/W";
    case Dimension::PowerRate: return "W/s";
    }
    return "";
}

std::string acceptedUnits(Dimension d)
{
    std::string out;
    for (const auto& u : kUnits) {
        if (u.dim != d)
            continue;
        if (!out.empty())
            out += ", ";
        out += u.symbol;
    }
    return out;
}

ParsedQuantity parseQuantity(std::string_view text, Dimension dim, Range range)
{
    const std::string_view s = trim(text);
    const std::string expect =
        "expected a " + std::string(dimensionName(dim)) + " with a unit, such as " + exampleText(dim);
    if (s.empty())
        return {std::nullopt, "empty value; " + expect};

    double number = 0.0;
    const char* begin = s.data();
    const char* end = s.data() + s.size();
    if (*begin == '+')
        ++begin; // from_chars does not take a leading '+'
    const auto [ptr, ec] = std::from_chars(begin, end, number);
    if (ec == std::errc::result_out_of_range)
        return {std::nullopt, "number out of range in \"" + std::string(s) + "\""};
    if (ec != std::errc() || ptr == begin)
        return {std::nullopt, "\"" + std::string(s) + "\" is not a number; " + expect};
    if (!std::isfinite(number))
        return {std::nullopt, "\"" + std::string(s) + "\" is not a finite number; " + expect};

    const std::string_view unit = trim(std::string_view(ptr, static_cast<std::size_t>(end - ptr)));
    if (unit.empty())
        return {std::nullopt, "missing unit in \"" + std::string(s) + "\"; " + expect};

    const UnitDef* found = nullptr;
    std::string otherDims; // each dimension the symbol has ("degC": temperature or temperature difference)
    for (const auto& u : kUnits) {
        if (u.symbol != unit)
            continue;
        if (u.dim == dim) {
            found = &u;
            break;
        }
        otherDims += (otherDims.empty() ? "" : " or ") + std::string(dimensionName(u.dim));
    }
    if (!found) {
        if (!otherDims.empty())
            return {std::nullopt, "wrong unit \"" + std::string(unit) + "\": that is a " + otherDims + ", " + expect +
                                      " (units: " + acceptedUnits(dim) + ")"};
        return {std::nullopt,
                "unknown unit \"" + std::string(unit) + "\"; " + expect + " (units: " + acceptedUnits(dim) + ")"};
    }

    const double si = number * found->scale + found->offset;
    if (dim == Dimension::OpenU && std::floor(si) != si)
        return {std::nullopt, "\"" + std::string(s) + "\" is not a whole number of OU"};
    if (std::string why = rangeError(s, si, dim, range); !why.empty())
        return {std::nullopt, std::move(why)};
    return {si, {}};
}

std::string rangeError(std::string_view text, double si, Dimension dim, Range range)
{
    // The bounds to rounding: -50 degC converts to 223.14999999999998 K, below the 223.15 K bound it
    // is written as, and read "-50 degC is outside the allowed range -50 degC … 100 degC" (trust trial).
    // Relative to the bound alone: a "greater than zero" bound (1e-12) keeps 0 out (review).
    const auto slack = [](double bound) { return 1e-12 * std::fabs(bound); };
    if (si >= range.min - slack(range.min) && si <= range.max + slack(range.max))
        return {};
    const std::string s = clipped(text, 120); // a 5 MB number stays a short message
    // A tiny lower bound far below the upper one stands for "greater than zero"; a small SI bound of
    // a real range (0.1 L/min per kW is 1.7e-9 m³/s per W) is told as the range (trust trial: "0.001
    // L/min/kW must be greater than zero").
    if (si < range.min && range.min > 0.0 && range.min < 1e-6 && range.min < 1e-6 * range.max)
        return "must be greater than zero (got \"" + s + "\")";
    if (si < range.min && range.min == 0.0)
        // A temperature's zero is absolute zero: "-300 degC must not be negative" read as a refusal of
        // every negative Celsius figure.
        return dim == Dimension::Temperature ? "is below absolute zero (got \"" + s + "\")"
                                             : "must not be negative (got \"" + s + "\")";
    return "\"" + s + "\" is outside the allowed range " + formatQuantity(range.min, dim) + " … " +
           formatQuantity(range.max, dim);
}

namespace {

/// `precision` significant digits below 1000; whole numbers with thousands separators above.
std::string formatNumber(double x, int precision)
{
    char buf[64];
    if (std::fabs(x) >= 1000.0 && std::fabs(x) < 1e15) {
        std::snprintf(buf, sizeof buf, "%.0f", x);
        std::string s = buf;
        const std::size_t start = s[0] == '-' ? 1 : 0;
        for (int i = static_cast<int>(s.size()) - 3; i > static_cast<int>(start); i -= 3)
            s.insert(static_cast<std::size_t>(i), ",");
        return s;
    }
    std::snprintf(buf, sizeof buf, "%.*g", precision, x);
    // A whole number where %g switched to an exponent at or above 1 (611 to 2 figures read "6.1e+02 K";
    // trust trial, 2026-12-07), with separators where it rounds to 1,000 (999.6 to 3 figures).
    if (std::strchr(buf, 'e') && std::fabs(x) >= 1.0) {
        const double whole = std::round(x);
        if (std::fabs(whole) >= 1000.0)
            return formatNumber(whole, precision);
        std::snprintf(buf, sizeof buf, "%.0f", whole);
    }
    return buf;
}

} // namespace

std::string formatSignificant(double x, int figures)
{
    if (!std::isfinite(x))
        return "-";
    char buf[64];
    // Decimals that leave `figures` significant ones; the rounding may carry into one more digit
    // (9.996 → "10.00"), so the exponent is taken after rounding to `figures` figures.
    int decimals = 0;
    if (x != 0.0) {
        char e[32];
        std::snprintf(e, sizeof e, "%.*e", std::max(figures - 1, 0), x);
        const int exponent = std::atoi(std::strchr(e, 'e') + 1);
        decimals = std::max(0, figures - 1 - exponent);
    } else {
        decimals = std::max(figures - 1, 0);
    }
    std::snprintf(buf, sizeof buf, "%.*f", std::min(decimals, 30), x);
    return buf;
}

std::string formatQuantity(double v, Dimension dim, int precision)
{
    auto fmt = [&](double x, const char* unit) { return formatNumber(x, precision) + " " + unit; };
    const double a = std::fabs(v);
    switch (dim) {
    case Dimension::Ratio: return fmt(v * 100.0, "%");
    case Dimension::Length: return a < 1.0 && a > 0.0 ? fmt(v * 1e3, "mm") : fmt(v, "m");
    case Dimension::Mass: return fmt(v, "kg");
    case Dimension::Time: return a < 1.0 && a > 0.0 ? fmt(v * 1e3, "ms") : fmt(v, "s");
    case Dimension::Temperature: return fmt(v - kZeroCelsiusK, "degC");
    case Dimension::TemperatureDelta: return fmt(v, "K");
    case Dimension::Power: return a >= 1e6 ? fmt(v / 1e6, "MW") : a >= 1e3 ? fmt(v / 1e3, "kW") : fmt(v, "W");
    case Dimension::Energy:
        return a >= 1e9   ? fmt(v / 1e9, "GJ")
               : a >= 1e6 ? fmt(v / 1e6, "MJ")
               : a >= 1e3 ? fmt(v / 1e3, "kJ")
                          : fmt(v, "J");
    case Dimension::Voltage: return fmt(v, "V");
    case Dimension::Current: return fmt(v, "A");
    case Dimension::Resistance: return a < 1.0 && a > 0.0 ? fmt(v * 1e3, "mohm") : fmt(v, "ohm");
    case Dimension::ResistancePerLength: return fmt(v * 1e3, "mohm/m");
    case Dimension::ThermalResistance: return fmt(v, "K/W");
    case Dimension::Gain: return fmt(v, "dB");
    case Dimension::NoiseDensity: return fmt(v * 1e9, "V^2/GHz");
    case Dimension::Capacitance: return fmt(v * 1e12, "pF");
    case Dimension::DataRate:
        return a >= 1e12 ? fmt(v / 1e12, "Tb/s") : a >= 1e9 ? fmt(v / 1e9, "Gb/s") : fmt(v / 1e6, "Mb/s");
    case Dimension::DataSize: return a >= 1e12 ? fmt(v / 1e12, "TB") : fmt(v / 1e9, "GB");
    case Dimension::Frequency: return a >= 1e9 ? fmt(v / 1e9, "GHz") : fmt(v / 1e6, "MHz");
    case Dimension::ComputeRate: return fmt(v / 1e12, "TFLOPS");
    case Dimension::Pressure: return fmt(v, "Pa");
    case Dimension::VolumeFlow: return fmt(v, "m3/s");
    case Dimension::OpenU: return fmt(v, "OU");
    case Dimension::Velocity: return fmt(v, "m/s");
    case Dimension::FlowPerPower: return fmt(v * 6e7, "L/min/kW");
    case Dimension::PowerRate: return fmt(v * 60.0 / 1e6, "MW/min");
    }
    return fmt(v, "");
}

std::string formatQuantityBeside(double siValue, double other, Dimension dim, int precision)
{
    for (int p = precision;; ++p) {
        std::string a = formatQuantity(siValue, dim, p);
        if (siValue == other || a != formatQuantity(other, dim, p))
            return a;
        if (p >= 8) { // whole numbers from 1,000 up: the decimals that tell them apart
            const std::size_t space = a.rfind(' ');
            const std::string unit = space == std::string::npos ? "" : a.substr(space);
            std::string shown = a.substr(0, space);
            shown.erase(std::remove(shown.begin(), shown.end(), ','), shown.end());
            // The unit's factor (a power of ten: A, kW, MW ...), from the figure shown.
            const double ratio = std::fabs(std::stod(shown) / siValue);
            const double scale =
                ratio > 0 && std::isfinite(ratio) ? std::pow(10.0, std::round(std::log10(ratio))) : 1.0;
            char buf[64];
            for (int decimals = 1; decimals <= 4; ++decimals) {
                std::snprintf(buf, sizeof buf, "%.*f", decimals, siValue * scale);
                char other_[64];
                std::snprintf(other_, sizeof other_, "%.*f", decimals, other * scale);
                if (std::string(buf) != other_)
                    break;
            }
            return buf + unit;
        }
    }
}

} // namespace rdt::core
