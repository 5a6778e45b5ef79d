#include <catch2/catch.hpp>

#include <cmath>

#include "core/Units.h"

using namespace rdt::core;
using Catch::Matchers::Contains;

static double si(const char* text, Dimension d, Range r = {})
{
    const ParsedQuantity p = parseQuantity(text, d, r);
    INFO(text << ": " << p.error);
    REQUIRE(p.value.has_value());
    return *p.value;
}

static std::string error(const char* text, Dimension d, Range r = {})
{
    const ParsedQuantity p = parseQuantity(text, d, r);
    REQUIRE_FALSE(p.value.has_value());
    return p.error;
}

TEST_CASE("quantities convert to SI", "[units]")
{
    CHECK(si("700 W", Dimension::Power) == 700.0);
    CHECK(si("15 kW", Dimension::Power) == 15000.0);
    CHECK(si("48 mm", Dimension::Length) == Approx(0.048).epsilon(1e-12));
    CHECK(si("21 in", Dimension::Length) == Approx(0.5334).epsilon(1e-12));
    CHECK(si("35 degC", Dimension::Temperature) == Approx(308.15).epsilon(1e-12));
    CHECK(si("95 degF", Dimension::Temperature) == Approx(308.15).epsilon(1e-12));
    CHECK(si("12 degC", Dimension::TemperatureDelta) == Approx(12.0));
    CHECK(si("1.2 kg", Dimension::Mass) == Approx(1.2));
    CHECK(si("400 Gb/s", Dimension::DataRate) == Approx(400e9));
    CHECK(si("50 GB/s", Dimension::DataRate) == Approx(400e9)); // bytes, times 8
    CHECK(si("97.5 %", Dimension::Ratio, Range{0, 1}) == Approx(0.975));
    CHECK(si("1000 CFM", Dimension::VolumeFlow) == Approx(0.4719474).epsilon(1e-6));
    CHECK(si("2 OU", Dimension::OpenU) == 2.0);
    CHECK(si("1.5e3 W", Dimension::Power) == 1500.0);
    CHECK(si("+90s", Dimension::Time) == 90.0);
    CHECK(si("1 kWh", Dimension::Energy) == 3.6e6);
}

TEST_CASE("bad quantities are rejected with a reason", "[units]")
{
    CHECK_THAT(error("700", Dimension::Power), Contains("missing unit") && Contains("700 W"));
    CHECK_THAT(error("25 kg", Dimension::Temperature), Contains("wrong unit \"kg\"") && Contains("mass"));
    // A symbol of two dimensions names both (degC was called only "a temperature difference").
    CHECK_THAT(error("5 degC", Dimension::Power),
               Contains("wrong unit \"degC\": that is a temperature or temperature difference, expected a power"));
    CHECK_THAT(error("25 furlongs", Dimension::Length), Contains("unknown unit"));
    CHECK_THAT(error("nan W", Dimension::Power), Contains("not a finite number"));
    CHECK_THAT(error("inf W", Dimension::Power), Contains("not a finite number"));
    CHECK_THAT(error("-3 kW", Dimension::Power), Contains("must not be negative"));
    // A temperature below absolute zero says so (it read "must not be negative", for -300 degC).
    CHECK_THAT(error("-300 degC", Dimension::Temperature), Contains("is below absolute zero"));
    CHECK_THAT(error("-300 degC", Dimension::Temperature), !Contains("negative"));
    CHECK_THAT(error("abc", Dimension::Power), Contains("is not a number"));
    CHECK_THAT(error("", Dimension::Power), Contains("empty"));
    CHECK_THAT(error("1.5 OU", Dimension::OpenU), Contains("whole number"));
    CHECK_THAT(error("150 %", Dimension::Ratio, Range{0, 1}), Contains("outside the allowed range"));
    CHECK_THAT(error("1e999 W", Dimension::Power), Contains("out of range"));
    // Case matters: a milliwatt is not a megawatt.
    CHECK(si("5 mW", Dimension::Power) == Approx(0.005));
    CHECK(si("5 MW", Dimension::Power) == Approx(5e6));
}

TEST_CASE("negative values are allowed only where the range says so", "[units]")
{
    CHECK(si("-5 degC", Dimension::Temperature, Range{200, 400}) == Approx(268.15));
    // A bound written in another unit holds at its own value: -50 degC is 223.14999999999998 K, and was
    // refused against a 223.15 K bound ("outside the allowed range -50 degC … 100 degC"); -50.01 is not.
    CHECK(si("-50 degC", Dimension::Temperature, Range{223.15, 373.15}) == Approx(223.15));
    CHECK(si("100 degC", Dimension::Temperature, Range{223.15, 373.15}) == Approx(373.15));
    CHECK_THAT(error("-50.01 degC", Dimension::Temperature, Range{223.15, 373.15}),
               Contains("outside the allowed range"));
    // "Greater than zero" stays so: a step of 0 looped `rdt com` until it ran out of memory (review).
    CHECK_THAT(error("0 dB", Dimension::Gain, Range{1e-12, 100}), Contains("must be greater than zero"));
    // …but a small SI bound of a real range is told as the range: 0.1 L/min per kW is 1.7e-9 m³/s per W,
    // and "0.001 L/min/kW" read "must be greater than zero" (trust trial).
    constexpr double kLpmPerKw = 1e-3 / 60.0 / 1e3;
    const std::string low = error("0.001 L/min/kW", Dimension::FlowPerPower, Range{0.1 * kLpmPerKw, 10 * kLpmPerKw});
    CHECK_THAT(low, Contains("outside the allowed range") && Contains("0.1 L/min/kW"));
    CHECK(si("0.1 L/min/kW", Dimension::FlowPerPower, Range{0.1 * kLpmPerKw, 10 * kLpmPerKw}) ==
          Approx(0.1 * kLpmPerKw));
    CHECK(si("-100 m", Dimension::Length, Range::any()) == -100.0);
}

TEST_CASE("formatting picks a readable unit", "[units]")
{
    CHECK(formatQuantity(15000.0, Dimension::Power) == "15 kW");
    CHECK(formatQuantity(1630.0, Dimension::Mass) == "1,630 kg");
    CHECK(formatQuantity(308.15, Dimension::Temperature) == "35 degC");
    CHECK(formatQuantity(0.537, Dimension::Length) == "537 mm");
    CHECK(formatQuantity(0.0, Dimension::Length) == "0 m");
    // Below 1,000 and at or above 10^precision: a whole number, never an exponent ("6.1e+02 K").
    CHECK(formatQuantity(611.2, Dimension::TemperatureDelta, 2) == "611 K");
    CHECK(formatQuantity(99.4, Dimension::TemperatureDelta, 2) == "99 K");
    CHECK(formatQuantity(9.94, Dimension::TemperatureDelta, 2) == "9.9 K");
    CHECK(formatQuantity(99.7, Dimension::TemperatureDelta, 2) == "100 K"); // rounds up past 10^2
    CHECK(formatQuantity(999.6, Dimension::TemperatureDelta, 3) == "1,000 K");
    CHECK(formatQuantity(0.00012, Dimension::TemperatureDelta, 2) == "0.00012 K");
    CHECK(formatQuantity(400e9, Dimension::DataRate) == "400 Gb/s");
    CHECK(acceptedUnits(Dimension::Power) == "mW, W, kW, MW");
}

TEST_CASE("a value beside its limit is printed with the figures that tell them apart", "[units]")
{
    CHECK(formatQuantityBeside(15000.2, 15000.0, Dimension::Power) == "15.0002 kW");
    CHECK(formatQuantityBeside(15000.0, 15000.2, Dimension::Power) == "15 kW");
    CHECK(formatQuantityBeside(375.01, 375.0, Dimension::Current) == "375.01 A");
    // From 1,000 up formatQuantity gives whole numbers: the decimals come after them.
    CHECK(formatQuantity(1917.3, Dimension::Current) == "1,917 A");
    CHECK(formatQuantityBeside(1917.3, 1917.0, Dimension::Current) == "1917.3 A");
    CHECK(formatQuantityBeside(2.5e6, 2.0e6, Dimension::Power) == formatQuantity(2.5e6, Dimension::Power));
}

TEST_CASE("formatSignificant keeps three significant figures at every size", "[units]")
{
    // Issue 33 (defect 8): rdt compare printed a 127 kW design as "0.1" MW.
    CHECK(formatSignificant(0.12737) == "0.127");
    CHECK(formatSignificant(0.18849) == "0.188");
    CHECK(formatSignificant(0.040123) == "0.0401");
    CHECK(formatSignificant(0.38) == "0.380"); // trailing zeros are figures too
    CHECK(formatSignificant(9.7309) == "9.73");
    CHECK(formatSignificant(9.996) == "10.0"); // rounding carries into one more digit
    CHECK(formatSignificant(479.7) == "480");
    CHECK(formatSignificant(1234.4) == "1234"); // whole numbers from 1000 up
    CHECK(formatSignificant(-0.0123) == "-0.0123");
    CHECK(formatSignificant(0.0) == "0.00");
    CHECK(formatSignificant(NAN) == "-");
}
