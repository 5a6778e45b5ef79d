// Redfish payloads as a BMC might send them (any JSON, or not JSON at all): every reader must end in
// readings or errors naming the endpoint, never throw or crash.
#include "FuzzCommon.h"
#include "hil/Redfish.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string body = rdt::fuzz::text(data, size);
    const std::string url = "https://bmc/redfish/v1/Chassis/GT/X";
    rdt::hil::PartReading r;
    rdt::hil::readEnvironmentMetrics(url, body, r);
    rdt::hil::readThermalMetrics(url, body, r);
    rdt::hil::readLegacyPower(url, body, r, false);
    rdt::hil::readLegacyPower(url, body, r, true);
    rdt::hil::readLegacyThermal(url, body, r);
    rdt::hil::readFans(url, body, r);
    for (const char* q : {"power", "gpu_power", "inlet", "exhaust", "airflow", "pressure", "coolant_flow",
                          "coolant_supply", "coolant_return", "coolant_dp", "gpu_temperature"})
        rdt::hil::readSensor(url, body, q, r);
    // A CDU's resources (DMTF CoolingUnit and its collections), then their sum.
    for (const char* what : {"cdu", "connectors", "pumps", "leak-detectors", "connector", "pump", "leak-detector",
                             "environment"})
        rdt::hil::readCduResource(url, body, what, r);
    rdt::hil::finishCoolingUnit(r);
    return 0;
}
