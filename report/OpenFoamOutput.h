#pragma once
/// \file OpenFoamOutput.h
/// An OpenFOAM run of an exported room beside rdt's solve of the same design
/// (`rdt field DESIGN --from-openfoam DIR`): per rack the two mean intakes and their difference,
/// as text, as JSON (`openfoam`) and as HDF5 (`/openfoam/intakes`, units in its `units` attribute).

#include <string>

#include <nlohmann/json.hpp>

#include "room/OpenFoamResult.h"

namespace rdt::report {

struct OpenFoamComparison {
    room::OpenFoamResult result;
    /// Per rack of `result`, rdt's mean intake in this solve (°C).
    std::vector<double> rdtIntakeC;
};

/// The largest |rdt − OpenFOAM| and the most negative rdt − OpenFOAM (rdt cooler: optimistic), K,
/// with the racks' indices.
struct ComparisonWorst {
    double largestK = 0, coolestK = 0;
    std::size_t largestAt = 0, coolestAt = 0;
};
ComparisonWorst worstOf(const OpenFoamComparison& c);

nlohmann::json openFoamJson(const OpenFoamComparison& c);
/// The side-by-side table, one rack a line, then the worst racks.
std::string openFoamText(const OpenFoamComparison& c);
/// Write the comparison to `path` (atomically): `/openfoam/intakes` and the run's attributes.
/// core::InputError (located at `path`, `--h5`) when it cannot be written.
void writeOpenFoamH5(const std::string& path, const OpenFoamComparison& c);

} // namespace rdt::report
