/// \file RedfishRead.cpp
/// Redfish payloads into a PartReading: EnvironmentMetrics, ThermalMetrics, ThermalSubsystem/Fans,
/// the legacy Power and Thermal resources, Sensors and power-supply metrics (the Poller in
/// hil/Redfish.cpp fetches them; hil/RedfishLiquid.cpp reads a CDU's).
#include "hil/Redfish.h"

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>

#include "hil/RedfishDetail.h"

namespace rdt::hil {

using nlohmann::json;
using namespace redfishdetail;

namespace {

constexpr double kCfmToM3s = 0.00047194745;

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

/// Mean and fastest of the fan readings seen (NaN readings skipped).
struct FanTally {
    double sum = 0, max = -1;
    int n = 0;
    void add(double v)
    {
        if (std::isnan(v))
            return;
        sum += v;
        max = std::max(max, v);
        ++n;
    }
    /// Store into `r`; false when no fan had a reading.
    bool store(PartReading& r) const
    {
        if (n == 0)
            return false;
        r.fanPct = sum / n;
        r.fanMaxPct = max;
        return true;
    }
};

} // namespace

namespace redfishdetail {

void setPsu(PartReading& r, std::size_t i, double in, double out, double capacity)
{
    if (i >= kMaxPsus) {
        if (i == kMaxPsus)
            r.errors.push_back("more than " + std::to_string(kMaxPsus) + " power supplies: the rest are not read");
        return;
    }
    if (r.psuInW.size() <= i) {
        r.psuInW.resize(i + 1, NAN);
        r.psuOutW.resize(i + 1, NAN);
        r.psuCapacityW.resize(i + 1, NAN);
        r.psuState.resize(i + 1, NAN);
    }
    if (!std::isnan(in))
        r.psuInW[i] = in;
    if (!std::isnan(out))
        r.psuOutW[i] = out;
    if (!std::isnan(capacity))
        r.psuCapacityW[i] = capacity;
}

bool readPsuStatus(const std::string& url, const json& m, std::size_t i, PartReading& r)
{
    if (i >= kMaxPsus)
        return false; // setPsu names the supplies past the limit
    setPsu(r, i, NAN, NAN, NAN);
    if (!m.contains("Status") || !m["Status"].is_object())
        return false;
    const json& status = m["Status"];
    // A State or Health that is there but not a string is the service's error, named; the supply is
    // then judged on its readings alone.
    for (const char* key : {"State", "Health"})
        if (status.contains(key) && !status[key].is_string() && !status[key].is_null())
            r.errors.push_back("GET " + url + ": supply " + std::to_string(i + 1) + ": Status." + key +
                               " is not a string");
    const std::string state = text(status, "State", "Enabled"), health = text(status, "Health", "OK");
    // StandbySpare is a hot spare, capacity in reserve; StandbyOffline waits for someone to enable it.
    double s = 0;
    if (state == "Absent")
        s = kPsuAbsent;
    else if (state == "UnavailableOffline" || state == "Disabled" || state == "StandbyOffline")
        s = kPsuOffline;
    else if (health == "Critical")
        s = kPsuCritical;
    r.psuState[i] = s;
    // A Critical supply may still deliver: its metrics are read (and judged); an Absent or offline one
    // has none to read.
    return s == kPsuAbsent || s == kPsuOffline;
}

void readPsuMetrics(const std::string& url, const json& m, std::size_t i, PartReading& r)
{
    const double in = number(m, "InputPowerWatts", true), out = number(m, "OutputPowerWatts", true);
    if (std::isnan(in))
        missingReading(r, url, m, "InputPowerWatts");
    if (std::isnan(out))
        missingReading(r, url, m, "OutputPowerWatts");
    setPsu(r, i, in, out, NAN);
}

} // namespace redfishdetail

const char* psuStateName(double state)
{
    if (state == kPsuAbsent)
        return "Absent";
    if (state == kPsuOffline)
        return "offline";
    if (state == kPsuCritical)
        return "Critical";
    return "running";
}

void readEnvironmentMetrics(const std::string& url, const std::string& body, PartReading& r)
{
    json j;
    if (!parse(url, body, j, r))
        return;
    r.powerW = number(j, "PowerWatts", true);
    if (std::isnan(r.powerW))
        missingReading(r, url, j, "PowerWatts");
    if (j.contains("PowerLimitWatts") && j["PowerLimitWatts"].is_object())
        r.powerLimitW = number(j["PowerLimitWatts"], "SetPoint");
    if (j.contains("FanSpeedsPercent") && j["FanSpeedsPercent"].is_array()) {
        FanTally fans;
        for (const json& f : j["FanSpeedsPercent"])
            fans.add(number(f, "Reading"));
        fans.store(r);
    }
}

void readThermalMetrics(const std::string& url, const std::string& body, PartReading& r)
{
    json j;
    if (!parse(url, body, j, r))
        return;
    if (!j.contains("TemperatureReadingsCelsius") || !j["TemperatureReadingsCelsius"].is_array()) {
        missing(r, url, "TemperatureReadingsCelsius");
        return;
    }
    for (const json& t : j["TemperatureReadingsCelsius"]) {
        const std::string name = t.contains("DeviceName") && t["DeviceName"].is_string()
                                     ? lower(t["DeviceName"].get<std::string>())
                                     : std::string();
        const double v = number(t, "Reading");
        if (std::isnan(r.inletC) &&
            (name.find("intake") != std::string::npos || name.find("inlet") != std::string::npos))
            r.inletC = v;
        else if (std::isnan(r.exhaustC) &&
                 (name.find("exhaust") != std::string::npos || name.find("outlet") != std::string::npos))
            r.exhaustC = v;
    }
    if (std::isnan(r.inletC))
        missing(r, url, "intake temperature (a TemperatureReadingsCelsius entry named Intake or Inlet with a Reading)");
}

void readFans(const std::string& url, const std::string& body, PartReading& r)
{
    json j;
    if (!parse(url, body, j, r))
        return;
    if (!j.contains("Members") || !j["Members"].is_array()) {
        missing(r, url, "Members");
        return;
    }
    FanTally fans;
    for (const json& f : j["Members"])
        fans.add(f.is_object() && f.contains("SpeedPercent") ? number(f["SpeedPercent"], "Reading") : NAN);
    if (!fans.store(r))
        missing(r, url, "SpeedPercent.Reading of any fan (the service did not expand the members)");
}

void readLegacyPower(const std::string& url, const std::string& body, PartReading& r, bool shelf)
{
    json j;
    if (!parse(url, body, j, r))
        return;
    if (shelf) {
        if (!j.contains("PowerSupplies") || !j["PowerSupplies"].is_array()) {
            missing(r, url, "PowerSupplies");
            return;
        }
        std::size_t i = 0;
        for (const json& p : j["PowerSupplies"]) {
            // A supply that says it is Absent or failed delivers nothing, whatever figures it still shows.
            const bool off = p.is_object() && readPsuStatus(url, p, i, r);
            const double in = off ? NAN : number(p, "PowerInputWatts"), out = off ? NAN : number(p, "PowerOutputWatts");
            if (!off && (std::isnan(in) || std::isnan(out)))
                missing(r, url, "PowerInputWatts/PowerOutputWatts of PowerSupplies[" + std::to_string(i) + "]");
            setPsu(r, i++, in, out, number(p, "PowerCapacityWatts"));
        }
        return;
    }
    if (j.contains("PowerControl") && j["PowerControl"].is_array() && !j["PowerControl"].empty()) {
        const json& c = j["PowerControl"][0];
        r.powerW = number(c, "PowerConsumedWatts");
        if (c.contains("PowerLimit") && c["PowerLimit"].is_object())
            r.powerLimitW = number(c["PowerLimit"], "LimitInWatts");
    }
    if (std::isnan(r.powerW))
        missing(r, url, "PowerControl[0].PowerConsumedWatts");
}

void readLegacyThermal(const std::string& url, const std::string& body, PartReading& r)
{
    json j;
    if (!parse(url, body, j, r))
        return;
    if (j.contains("Temperatures") && j["Temperatures"].is_array())
        for (const json& t : j["Temperatures"]) {
            const std::string ctx = t.contains("PhysicalContext") && t["PhysicalContext"].is_string()
                                        ? t["PhysicalContext"].get<std::string>()
                                        : std::string();
            if (ctx == "Intake" && std::isnan(r.inletC))
                r.inletC = number(t, "ReadingCelsius");
            else if (ctx == "Exhaust" && std::isnan(r.exhaustC))
                r.exhaustC = number(t, "ReadingCelsius");
        }
    if (std::isnan(r.inletC))
        missing(r, url, "Temperatures entry with PhysicalContext Intake and ReadingCelsius");
    if (j.contains("Fans") && j["Fans"].is_array()) {
        FanTally fans;
        bool rpm = false;
        for (const json& f : j["Fans"]) {
            const std::string units = f.contains("ReadingUnits") && f["ReadingUnits"].is_string()
                                          ? f["ReadingUnits"].get<std::string>()
                                          : std::string("RPM");
            if (units != "Percent") {
                rpm = true;
                continue;
            }
            fans.add(number(f, "Reading"));
        }
        if (!fans.store(r) && rpm)
            r.errors.push_back("GET " + url + ": fan readings are in RPM, not Percent: fan speed not read");
    }
}

void readSensor(const std::string& url, const std::string& body, const std::string& quantity, PartReading& r)
{
    json j;
    if (!parse(url, body, j, r))
        return;
    const double v = number(j, "Reading");
    if (std::isnan(v)) {
        missing(r, url, "Reading");
        return;
    }
    const std::string units =
        j.contains("ReadingUnits") && j["ReadingUnits"].is_string() ? j["ReadingUnits"].get<std::string>() : "";
    auto wrong = [&](const char* expected) {
        r.errors.push_back("GET " + url + ": " + quantity + " sensor reads in \"" + units + "\", expected " + expected);
    };
    if (quantity == "power" || quantity == "gpu_power") {
        if (units != "W")
            return wrong("W");
        (quantity == "power" ? r.powerW : r.gpuPowerW) = v;
    } else if (quantity == "inlet" || quantity == "exhaust") {
        if (units != "Cel")
            return wrong("Cel");
        (quantity == "inlet" ? r.inletC : r.exhaustC) = v;
    } else if (quantity == "airflow") {
        if (units == "[ft_i]3/min")
            r.airflowM3s = v * kCfmToM3s;
        else if (units == "m3/min")
            r.airflowM3s = v / 60.0;
        else
            return wrong("[ft_i]3/min or m3/min");
    } else if (quantity == "pressure") {
        if (units == "Pa")
            r.pressurePa = v;
        else if (units == "kPa")
            r.pressurePa = v * 1000.0;
        else
            return wrong("Pa or kPa");
    } else if (quantity == "coolant_flow") {
        if (units != "L/min")
            return wrong("L/min");
        r.coolantFlowLpm = v;
    } else if (quantity == "coolant_supply" || quantity == "coolant_return" || quantity == "gpu_temperature") {
        if (units != "Cel")
            return wrong("Cel");
        (quantity == "coolant_supply" ? r.coolantSupplyC
                                      : quantity == "coolant_return" ? r.coolantReturnC : r.gpuTemperatureC) = v;
    } else if (quantity == "coolant_dp") {
        if (units == "kPa")
            r.coolantDpKPa = v;
        else if (units == "Pa")
            r.coolantDpKPa = v / 1000.0;
        else
            return wrong("kPa or Pa");
    }
}

} // namespace rdt::hil
