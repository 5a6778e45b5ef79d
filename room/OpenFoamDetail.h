#pragma once
/// \file OpenFoamDetail.h
/// Shared by the OpenFOAM export's mesh writer (OpenFoamExport.cpp) and its case writer
/// (OpenFoamCase.cpp): the patches and their conditions, file helpers.

#include <array>
#include <filesystem>
#include <string>
#include <vector>

#include "room/OpenFoamExport.h"

namespace rdt::room {

/// One boundary patch of the export with its condition.
struct FoamPatch {
    std::string name;
    bool wall = false;
    enum Kind { Wall, Supply, Return, Intake, Exhaust } kind = Wall;
    std::array<double, 3> velocity{}; ///< m/s (supplies, rack faces)
    double temperatureK = 0;          ///< supplies and exhausts
    /// Rack faces: per face of the patch, in its order, the velocity and (exhausts) temperature;
    /// empty: the uniform values above.
    std::vector<std::array<double, 3>> faceVelocity;
    std::vector<double> faceTemperatureK;
    std::size_t faces = 0;
    /// Rack zones (one layer's chassis): the intake's flow (m³/s), rdt's mean intake there (K) and
    /// the rack it belongs to (1-based); the exhaust's intake patch, the zone's heat (W) and the
    /// centres of the air cells it releases into (where OpenFOAM adds the heat); a cooler's
    /// exhaust stays at its own fixed temperature.
    double flowM3s = 0, rdtIntakeK = 0;
    std::size_t rack = 0;
    std::string intakePatch;
    double heatW = 0;
    bool cooler = false;
    std::vector<std::array<double, 3>> heatPoints;
    std::vector<double> heatVolumes; ///< m³, the cell at each heat point
};

std::string foamHeader(const std::string& cls, const std::string& object, const std::string& location = "");
/// Write a file (directories created); throws std::runtime_error when it cannot.
void writeFoamFile(const std::filesystem::path& file, const std::string& text);
std::string foamNumber(double v);
/// The fields, dictionaries, Allrun and the comparison file.
void writeOpenFoamCase(const RoomGeometry& room, const FieldSolver& solved, const std::filesystem::path& dir,
                       const std::vector<FoamPatch>& patches, const OpenFoamOptions& options);

} // namespace rdt::room
