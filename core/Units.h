#pragma once
/// \file Units.h
/// The one place where quantities written with units in files (`700 W`, `35 degC`,
/// `400 Gb/s`) become SI doubles. Inside the code every quantity is SI; names say the unit.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rdt::core {

/// Physical dimension of a quantity. SI base of each: see `siUnit()`.
enum class Dimension {
    Ratio,               ///< dimensionless fraction (`97.5 %` → 0.975)
    Length,              ///< m
    Mass,                ///< kg
    Time,                ///< s
    Temperature,         ///< K (absolute; `degC` and `degF` are offset)
    TemperatureDelta,    ///< K (a difference; `degC` is not offset)
    Power,               ///< W
    Energy,              ///< J
    Voltage,             ///< V
    Current,             ///< A
    Resistance,          ///< ohm
    ResistancePerLength, ///< ohm/m
    ThermalResistance,   ///< K/W
    Gain,                ///< dB (kept in dB: a ratio on a log scale)
    NoiseDensity,        ///< V²/Hz
    Capacitance,         ///< F
    DataRate,            ///< bit/s (`GB/s` is bytes and multiplied by 8)
    DataSize,            ///< byte
    Frequency,           ///< Hz
    ComputeRate,         ///< FLOP/s
    Pressure,            ///< Pa
    VolumeFlow,          ///< m^3/s (`CFM` converted)
    OpenU,               ///< count of 48 mm OpenU (`2 OU`); a whole number
    Velocity,            ///< m/s
    FlowPerPower,        ///< m^3/s per W: coolant allocated per unit of heat (`1.5 L/min/kW`)
    PowerRate,           ///< W/s: how fast a load may change (`20 MW/min`)
};

/// Human name of a dimension ("power", "length", ...).
std::string_view dimensionName(Dimension d);
/// SI unit symbol the code uses internally for a dimension ("W", "m", "K", ...).
std::string_view siUnit(Dimension d);
/// Unit symbols accepted for a dimension, for messages ("W, kW, MW").
std::string acceptedUnits(Dimension d);

/// An example of a quantity of this dimension, e.g. `"700 W"` (with the quotes).
std::string exampleQuantity(Dimension d);

/// Allowed range of a quantity after conversion to SI. Defaults reject negatives.
struct Range {
    double min = 0.0;                              ///< inclusive lower bound (SI)
    double max = 1e300;                            ///< inclusive upper bound (SI)
    static Range any() { return {-1e300, 1e300}; } ///< any finite value
};

/// Result of a parse: either the SI value, or an error message without location.
struct ParsedQuantity {
    std::optional<double> value;
    std::string error;
};

/// Parse `text` (e.g. "700 W", "35degC", "1.2e3 kg") as a quantity of dimension `dim`
/// and convert to SI. Rejects a missing unit, a unit of another dimension, NaN/inf and
/// values outside `range` — each with a message that says what was expected.
ParsedQuantity parseQuantity(std::string_view text, Dimension dim, Range range = {});

/// Why an SI value, written `text`, lies outside `range`: the words parseQuantity uses
/// (`"100 W" is outside the allowed range 200 W … 700 W`); empty when it lies inside.
std::string rangeError(std::string_view text, double si, Dimension dim, Range range);

/// `x` to `figures` significant figures, trailing zeros kept ("0.380", "9.73", "0.0401"); from
/// 10^figures up, the whole number ("480", "1234"); "-" for NaN or infinity. For table cells whose
/// unit is in the header.
std::string formatSignificant(double x, int figures = 3);

/// Format an SI value in a readable unit of its dimension ("15.0 kW", "45.0 degC").
std::string formatQuantity(double siValue, Dimension dim, int precision = 3);

/// `siValue` as formatQuantity gives it, with as many more figures (up to 8) as tell it apart from
/// `other` — a value just beyond its limit never reads "15 kW exceeds 15 kW".
std::string formatQuantityBeside(double siValue, double other, Dimension dim, int precision = 3);

} // namespace rdt::core
