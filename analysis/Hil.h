#pragma once
/// \file Hil.h
/// Hardware in the loop: measured telemetry (hil/ snapshots and series) beside the model's
/// predictions for the same parts — residuals per part and quantity, judged by the `hil.*` rules
/// of the profile — and calibration of the catalog's estimated figures from measurements
/// (platform power versus load, fan curve scale and chassis impedance, PSU efficiency curve),
/// each with its standard uncertainty.

#include <string>
#include <vector>

#include "analysis/Pipeline.h"
#include "core/PartField.h"
#include "hil/Series.h"

namespace rdt::analysis {

/// One quantity of one part: the mean of its readings over a series, and the model's figure.
struct HilResidual {
    std::string part, kind, quantity, unit;
    double measured = NAN, predicted = NAN;
    double residual = NAN; ///< measured − predicted
    int samples = 0;       ///< readings behind `measured`
};

/// One supply of a power shelf over the series: its highest output beside its capacity, and the
/// sweeps in which its Status said it delivered nothing.
struct HilSupply {
    std::string shelf;      ///< the shelf's slot id
    std::size_t index = 0;  ///< 1-based, in the service's order
    double maxOutputW = NAN; ///< highest OutputPowerWatts read
    double capacityW = NAN;  ///< PowerCapacityWatts read, else the catalog's module_rating
    bool capacityRead = false;
    int offSweeps = 0, sweeps = 0; ///< sweeps not delivering (Absent, offline, Critical), sweeps with a state
    double worstState = NAN;       ///< hil::kPsuAbsent … kPsuCritical, 0, or NaN where no Status was read
};

/// A power shelf's supplies against its catalog part.
struct HilShelf {
    std::string shelf;
    int reported = 0;   ///< supplies the service listed: the fewest in any sweep that listed them
    int shortSweeps = 0; ///< sweeps that listed fewer than the catalog's modules
    int listedSweeps = 0; ///< sweeps that listed any
    int modules = 0;  ///< the catalog's
    double moduleRatingW = NAN, meanOutputW = NAN;
};

struct HilComparison {
    std::vector<HilResidual> rows;
    std::vector<HilSupply> supplies;
    std::vector<HilShelf> shelves;
    /// Mapped parts whose readings are missing or failed: `part: why` (shown as "not checked").
    std::vector<std::string> notChecked;
    std::size_t sweeps = 0;
};

/// Compare a run's predictions with the series' readings (means over its sweeps). Parts of the
/// series that the design lacks are an InputError (the wrong design or file).
HilComparison compareTelemetry(const RunResult& run, const hil::Series& series);
/// The same from a design and its solver results (the studio's last check); any may be null.
/// A liquid loop's CDUs (`LOOP/cduN`, kind `cdu`) are compared with the loop, a tray's coolant
/// readings with its branch.
HilComparison compareTelemetry(const core::Design& design, const power::PowerResult* power,
                               const thermal::ThermalResult* thermal, const hil::Series& series,
                               const liquid::LiquidResult* liquid = nullptr);

/// Liquid cooling's part of the comparison (analysis/HilLiquid.cpp): whether a series part is one
/// of the design's CDUs; one CDU's rows (flow, supply, return, heat, head, pump speed, failed
/// pumps, leak state); a tray's coolant flow and inlet.
bool isLiquidTelemetryPart(const core::Design& design, const std::string& part, const std::string& kind);
void compareCoolingUnit(const core::Design& design, const liquid::LiquidResult* liquid, const hil::Series& series,
                        std::size_t part, HilComparison& out);
void compareTray(const core::Design& design, const liquid::LiquidResult* liquid, const hil::Series& series,
                 std::size_t part, HilComparison& out);
/// The `hil.liquid.*` rules (registered by registerHilChecks).
void registerHilLiquidChecks(core::CheckRegistry& registry);
/// A power shelf's supplies (analysis/HilSupply.cpp): each one's state and highest output.
void compareSupplies(const core::Design& design, const hil::Series& series, std::size_t part, HilComparison& out);
/// `hil.psu.lost` and `hil.psu.load` (registered by registerHilChecks).
void registerHilSupplyChecks(core::CheckRegistry& registry);

/// The residuals (measured − model) laid over the layout for the studio's "Colour by": "Power residual" (% of
/// the model), "Inlet residual" (K), "Fan residual" (points of full speed), each on a range symmetric about 0
/// (grey: as modelled; red: above; blue: below), with the rule that judges it.
std::vector<core::PartField> residualFields(const core::Design& design, const HilComparison& comparison);

/// The `hil.*` rules (thresholds in the profile); they judge a comparison put in the result store
/// under "hil" and stay silent in runs without telemetry.
void registerHilChecks(core::CheckRegistry& registry);

/// Judge a comparison with the profile's `hil.*` rules (waivers applied).
std::vector<core::Violation> judgeTelemetry(const RunResult& run, const HilComparison& comparison);

/// One fitted catalog figure.
struct FittedValue {
    std::string part;                ///< catalog slug
    std::string field;               ///< catalog field path (`power.base_idle`)
    std::string unit;                ///< unit the value is printed in
    double value = NAN, sigma = NAN; ///< in `unit`; sigma: one standard uncertainty
    double catalog = NAN;            ///< the catalog's figure, same unit
    int points = 0;
};

/// A fitted curve (efficiency or fan curve) with per-point uncertainty.
struct FittedCurve {
    std::string part, field, xUnit, yUnit;
    std::vector<double> x, y, sigma;
    std::vector<double> catalogY;
    double xMin = NAN, xMax = NAN; ///< measured range of x
    int points = 0;
};

struct Calibration {
    std::vector<FittedValue> values;
    std::vector<FittedCurve> curves;
    std::vector<std::string> notes; ///< what could not be fitted, and why
    std::vector<std::string> files;
    std::size_t sweeps = 0;
};

/// Fit the estimated catalog figures of the design's parts to the readings of the series.
Calibration calibrate(const RunResult& run, const std::vector<hil::Series>& series);

/// The liquid model's part of the fit (analysis/HilCalibrateLiquid.cpp): each mapped loop's
/// pressure drop against flow (Δp = k·Qⁿ from its CDUs' flow and head; reported at the model's
/// flow beside the model's drop) and each tray part's cold-plate resistance curve (a scale on the
/// catalog's, from the trays' coolant flow, supply and return and their GPUs' temperature and power,
/// through the part's thermal.r_jc). Called by calibrate().
void calibrateLiquid(const RunResult& run, const std::vector<hil::Series>& series, Calibration& c);

/// Catalog YAML lines (`field: {value: …, source: "measured: …"}`) for the fitted figures.
std::string calibrationCatalogLines(const Calibration& c);

} // namespace rdt::analysis
