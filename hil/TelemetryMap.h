#pragma once
/// \file TelemetryMap.h
/// Which telemetry belongs to which design part: a `telemetry:` file whose targets match design
/// parts by glob (`lab/*/rack*/gt*`) and give, through templates, each part's BMC, Redfish chassis
/// id and optional sensor ids — one entry covers thousands of racks.
///
///     telemetry: 1
///     defaults: {timeout: 3 s, retries: 1, concurrency: 64, per_bmc: 4, auth: basic,
///                credentials_file: ~/.config/rdt/bmc, ca_cert: bmc-ca.pem}
///     targets:
///       - parts: "hall1/*/*/gt*"
///         bmc: "https://{rack}-bmc.example.net"
///         chassis: "{slot}"
///         sensors: {gpu_power: "Chassis/{chassis}/Sensors/GPU_Power"}
///
/// Placeholders: {id} (the part's full id), {slot} (its name in the rack), {rack}, {row}, {pod},
/// {hall} (the last component of each group's id), {rack_index} (0-based, design order),
/// {chassis} (in sensor paths), {env:NAME} (an environment variable).
///
/// A liquid loop's CDUs are mapped by loop id instead of part (each of the loop's `count` units is
/// one mapped part, `LOOP/cduN`, kind `cdu`):
///
///       - loops: "pod*-aalc"
///         bmc: "https://{loop}-cdu{cdu_number}.example.net"
///         cdu: "1"          # its CoolingUnit id under /redfish/v1/ThermalEquipment/CDUs (default {cdu_number})
///
/// with the placeholders {loop}, {cdu_index} (0-based), {cdu_number} (1-based) and {env:NAME}.

#include <map>
#include <string>
#include <vector>

#include "core/Design.h"
#include "core/Error.h"
#include "hil/Http.h"

namespace rdt::hil {

/// Which Redfish resources carry the readings.
enum class RedfishApi {
    Current, ///< EnvironmentMetrics, ThermalSubsystem/ThermalMetrics, PowerSubsystem (Redfish 2020.4+)
    Legacy,  ///< Chassis/{id}/Power and Chassis/{id}/Thermal (deprecated, still common on BMCs)
};

enum class AuthMode { None, Basic, Session };

/// One mapped design part.
struct MappedPart {
    std::string part; ///< design slot id, or `LOOP/cduN` for a liquid loop's N-th CDU
    std::string kind; ///< `chassis`, `switch`, `power-shelf`, `cdu`
    int rack = -1, slot = -1;
    std::string bmc;     ///< `https://host[:port]`, no trailing slash
    std::string chassis; ///< Redfish chassis id (a CDU: its CoolingUnit id)
    RedfishApi api = RedfishApi::Current;
    /// Extra Sensor resources by quantity (`gpu_power`, `airflow`, `pressure`, `inlet`, `power`),
    /// paths below /redfish/v1/.
    std::map<std::string, std::string> sensors;
    core::SourceLoc loc; ///< the target entry that mapped it
    int loop = -1;       ///< a CDU: index into Design::liquid.loops
};

struct TelemetryMap {
    std::string file;
    HttpOptions http; ///< timeouts, retries, TLS, credentials (filled by resolveCredentials)
    AuthMode auth = AuthMode::None;
    std::string credentialsFile;
    bool expand = true; ///< use $expand where the service offers it
    std::vector<MappedPart> parts;
    std::vector<std::string> unmapped; ///< chassis, switches and shelves no target matched
};

/// Sensor quantities a map may name.
const std::vector<std::string>& sensorQuantities();

/// Parse a map against an expanded design. InputError (file:line, field) on bad keys or values,
/// a target that matches no part, a template with an unknown placeholder or an unset variable.
TelemetryMap loadTelemetryMap(const std::string& path, const core::Design& design);
TelemetryMap parseTelemetryMap(const std::string& text, const std::string& fileName, const core::Design& design);

/// Fill `map.http` user/password: from RDT_REDFISH_USER / RDT_REDFISH_PASSWORD, else from the
/// map's credentials_file (one `user:password` line; refused unless mode 0600 or stricter).
/// InputError when authentication is asked for and no credentials are found.
void resolveCredentials(TelemetryMap& map);

/// Glob match with `*` (any run, also across `/`) and `?`.
bool globMatch(const std::string& pattern, const std::string& text);

} // namespace rdt::hil
