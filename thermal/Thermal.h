#pragma once
/// \file Thermal.h
/// Thermal analysis of a whole design: every rack's airflow network inside its row, rows as
/// rooms drawing from a cooling supply of a given temperature and flow (a shortfall recirculates
/// hot-aisle air into the cold aisle), and the row metrics RCI_HI, RCI_LO, RTI and SHI
/// (field-survey §4: Herrlin 2005/2008, Sharma–Bash–Patel 2002).

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "core/Design.h"
#include "core/Progress.h"
#include "core/ResultStore.h"
#include "thermal/RackThermal.h"

namespace rdt::thermal {

struct RowThermal {
    std::string id;
    double supplyK = 0;              ///< CRAH supply
    double coldAisleK = 0;           ///< supply mixed with any recirculated shortfall
    double hotAisleK = 0;            ///< flow-weighted rear-door exhaust
    double demandM3s = 0;            ///< air the racks (and liquid-to-air units) draw from the cold aisle
    double supplyM3s = 0;            ///< air the cooling delivers
    double rciHi = 100, rciLo = 100; ///< %
    double rti = NAN;                ///< %; NaN with no air through any chassis (no equipment rise)
    double shi = NAN;                ///< 0…1; NaN likewise
    int iterations = 0;
    /// Liquid-to-air CDUs (AALC) serving this row's racks: the air they draw from the cold aisle and
    /// the heat they give it (their racks' coolant heat, their fans), exhausted into the hot aisle.
    double aalcFlowM3s = 0, aalcHeatW = 0;
};

/// Detail a higher-level solver attaches to a result (the room field's solutions, for one). The
/// network does not know what it holds; the solver that attached it reads it back.
struct ThermalDetail {
    virtual ~ThermalDetail() = default;
};

struct ThermalResult {
    std::string scenario;
    double altitudeM = 0;
    double densityKgM3 = 0;
    std::vector<RackThermal> racks;
    std::vector<RowThermal> rows;
    std::size_t throttledChassis = 0;
    core::ThermalModel model = core::ThermalModel::Network;
    std::shared_ptr<const ThermalDetail> detail; ///< what the solver that produced it attached
    /// Empty when the racks' intakes are the model's own; otherwise the reference solve they were
    /// taken from (`thermal: {intakes_from: DIR}`, `--intakes-from DIR`), in words every output prints.
    std::string intakesFrom;
    /// With intakes from a reference: its largest change of a rack's intake over its last samples
    /// (OpenFOAM: 500 iterations), K — a reference still moving is not yet an answer.
    double referenceDriftK = 0;
};

/// RCI_HI and RCI_LO (%) of intake temperatures for a class's recommended and allowable limits.
double rciHi(const std::vector<double>& intakesK, double maxRecK, double maxAllK);
double rciLo(const std::vector<double>& intakesK, double minRecK, double minAllK);

/// A row's RTI and SHI sums over its chassis, the network's and the room field's alike. Only chassis
/// that carry air count: one with none (every rotor failed) has no exhaust of its own, and alone it
/// read SHI 1.0 (trust trial, 2026-12-07).
struct RowIndexSums {
    double inSum = 0, outSum = 0, flowDt = 0, flowSum = 0;
    void add(const ChassisThermal& c, double supplyK);
    /// RTI (%) for the room's return air; NaN with no equipment rise (no air through any chassis).
    double rti(double returnK, double supplyK) const;
    /// SHI; NaN with no air through any chassis.
    double shi() const;
};

/// Solve every rack and row. Throws NetworkError (bad input) or std::runtime_error.
ThermalResult computeThermal(const core::Design& design, const RackAirflowParams& params = {});

/// What makes two racks the same rack to the airflow network (type, parts, positions and the
/// settings that change heat or airflow): racks with equal keys are solved once.
std::string contentKey(const core::Rack& rack);

/// Where the pipeline keeps the exception of a thermal solve that failed (a std::exception_ptr), so
/// that every later caller rethrows the real reason instead of solving again.
inline constexpr const char* kThermalFailureKey = "thermal-failure";

/// From `store` (key "thermal"), computed on first use with the rack network. A design whose
/// thermal model is the room field must have its solution stored first (analysis::thermalFor
/// chooses the model); std::logic_error otherwise.
std::shared_ptr<const ThermalResult> thermalFor(const core::Design& design, core::ResultStore& store,
                                                core::Progress* progress = nullptr);

} // namespace rdt::thermal
