#pragma once
/// \file Redfish.h
/// Reads the mapped parts' telemetry from their BMCs / rack managers over Redfish, one sweep at a
/// time, all endpoints concurrently. Per chassis or switch: power, inlet and exhaust air, fan speed,
/// power limit (EnvironmentMetrics + ThermalSubsystem/ThermalMetrics, falling back on
/// ThermalSubsystem/Fans and Controls/PowerLimit, or the legacy Power and Thermal resources), plus any Sensor resources the map names (GPU power, airflow, pressure). Per
/// power shelf: every supply's input and output power and capacity (PowerSubsystem/PowerSupplies
/// and their Metrics, or legacy Power.PowerSupplies). A failing endpoint costs only its own
/// readings: each error names the endpoint and what was wrong; the rest of the sweep stands.

#include <array>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "hil/TelemetryMap.h"

namespace rdt::hil {

/// Power supplies kept per shelf (ORv3 shelves hold 6).
inline constexpr std::size_t kMaxPsus = 8;
/// A supply's state in PartReading::psuState (any of these: it delivers nothing).
inline constexpr double kPsuAbsent = 1, kPsuOffline = 2, kPsuCritical = 3;
/// "Absent", "offline" or "Critical" for a state above; "running" for 0.
const char* psuStateName(double state);

/// One part's readings in one sweep; NaN where not read.
struct PartReading {
    double powerW = NAN;                               ///< chassis input power (48 V busbar side)
    double inletC = NAN;                               ///< air at the front (degC)
    double exhaustC = NAN;                             ///< air at the rear (degC)
    double fanPct = NAN;                               ///< mean fan speed (% of full)
    double fanMaxPct = NAN;                            ///< fastest fan
    double gpuPowerW = NAN;                            ///< all GPUs together
    double airflowM3s = NAN;                           ///< chassis airflow
    double pressurePa = NAN;                           ///< chassis pressure drop
    double powerLimitW = NAN;                          ///< Controls/PowerLimit set point
    std::vector<double> psuInW, psuOutW, psuCapacityW; ///< power shelves: per supply
    /// Per supply, what its Status says: 0 delivering, kPsuAbsent, kPsuOffline (UnavailableOffline,
    /// Disabled, StandbyOffline), kPsuCritical (Health Critical); NaN where it gave no Status.
    std::vector<double> psuState;
    // Liquid cooling: a CDU (its secondary, IT-side coolant connectors together; `powerW` its
    // draw) or a tray (its connector's sensors named in the map).
    double coolantFlowLpm = NAN;  ///< L/min, summed over the connectors
    double coolantSupplyC = NAN;  ///< degC, flow-weighted over the connectors
    double coolantReturnC = NAN;  ///< degC, flow-weighted
    double coolantDpKPa = NAN;    ///< supply-to-return pressure difference (kPa), the largest
    double coolantHeatKW = NAN;   ///< HeatRemovedkW, summed
    double pumpSpeedPct = NAN;    ///< mean of the running pumps (% of full)
    double pumpsFailed = NAN;     ///< pumps not running (State not Enabled, or Health Critical)
    double leakState = NAN;       ///< worst leak detector: 0 OK, 1 Warning, 2 Critical; NaN: none read
    double gpuTemperatureC = NAN; ///< the hottest GPU (a sensor the map names)
    /// While a sweep reads a CDU: each connector's (flow, supply, return, Δp, heat), each pump's
    /// (speed, failed), each detector's state; finishCoolingUnit() turns them into the figures above.
    std::vector<std::array<double, 5>> connectors;
    std::vector<std::array<double, 2>> pumps;
    std::vector<int> leaks;
    std::vector<std::string> errors;                   ///< each names its endpoint
};

/// One sweep over every mapped part.
struct Sample {
    double unixTime = 0;            ///< when the sweep started (s since 1970, UTC)
    std::vector<PartReading> parts; ///< aligned with TelemetryMap::parts
    std::size_t requests = 0, failed = 0;
    double seconds = 0; ///< wall time of the sweep
    std::size_t errorCount() const;
};

/// Polls a map's parts; keeps sessions and each service's capabilities between sweeps.
class Poller {
public:
    explicit Poller(TelemetryMap map);
    ~Poller();
    Poller(const Poller&) = delete;
    Poller& operator=(const Poller&) = delete;
    const TelemetryMap& map() const { return m_map; }
    /// One sweep. Never throws for an endpoint's failure (see PartReading::errors).
    Sample poll();
    /// End the Redfish sessions opened (DELETE); also done by the destructor.
    void logout();

private:
    struct Service {
        bool probed = false;
        bool expandLevels = false; ///< ProtocolFeaturesSupported.ExpandQuery.Levels
        std::string token, session;
        std::string error; ///< login or service-root failure
    };
    void prepare(); ///< service roots and sessions of BMCs not yet seen
    TelemetryMap m_map;
    std::map<std::string, Service> m_services; ///< by BMC base URL
};

/// Parse helpers, exposed for tests: a Redfish payload's readings into `r` (errors appended).
void readEnvironmentMetrics(const std::string& url, const std::string& body, PartReading& r);
void readThermalMetrics(const std::string& url, const std::string& body, PartReading& r);
void readLegacyPower(const std::string& url, const std::string& body, PartReading& r, bool shelf);
/// ThermalSubsystem/Fans expanded: the members' SpeedPercent.Reading (mean and max).
void readFans(const std::string& url, const std::string& body, PartReading& r);
void readLegacyThermal(const std::string& url, const std::string& body, PartReading& r);
/// A CDU's resources (DMTF CoolingUnit, 2023.1+; the OCP CDU profile's mandatory properties):
/// `what` is "cdu" (the CoolingUnit, $expand-ed or not), "connectors" / "pumps" /
/// "leak-detectors" (collections), "connector", "pump", "leak-detector" (members) or
/// "environment". Readings go into `r`; the resources still to GET (links the answer did not
/// expand) are returned as (path, what).
std::vector<std::pair<std::string, std::string>> readCduResource(const std::string& url, const std::string& body,
                                                                 const std::string& what, PartReading& r);
/// Sum the CDU's connectors, pumps and detectors into the reading's figures.
void finishCoolingUnit(PartReading& r);
/// A Sensor resource's Reading for `quantity`, its ReadingUnits checked.
void readSensor(const std::string& url, const std::string& body, const std::string& quantity, PartReading& r);

} // namespace rdt::hil
