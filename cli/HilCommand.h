#pragma once
/// \file HilCommand.h
/// `rdt hil snapshot|watch|compare|calibrate|power-trace`: read live Redfish telemetry of the mapped parts,
/// keep it in HDF5, compare it with the model and fit the catalog's estimates to it.

#include <string>
#include <vector>

namespace rdt::cli {

struct HilArgs {
    std::string design, map, output, profile;
    std::vector<std::string> inputs; ///< snapshot / series files
    std::string interval = "5 s";
    std::string timeout; ///< overrides the map's
    std::string caCert;
    bool insecure = false;
    int count = 0; ///< watch: stop after this many sweeps (0: until interrupted)
    std::string traceInterval; ///< power-trace: sampling of a trace without timestamps (dcgmi dmon)
    bool json = false;
};

int runHilSnapshot(const HilArgs& args);
int runHilWatch(const HilArgs& args);
int runHilCompare(const HilArgs& args);
int runHilCalibrate(const HilArgs& args);
/// `rdt hil power-trace DESIGN TRACE`: a measured GPU power trace against the design's waveform.
int runHilPowerTrace(const HilArgs& args);

/// `rdt import netbox DUMP -o design.yaml [--base BASE.yaml]` and `rdt export netbox DESIGN -o DIR`.
int runNetBoxImport(const std::string& dump, const std::string& output, const std::string& base);
int runNetBoxExport(const std::string& design, const std::string& dir, std::size_t pageSize);

} // namespace rdt::cli
