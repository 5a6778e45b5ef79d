// A CDU's telemetry over Redfish (DSP8010 2023.1+: ThermalEquipment/CDUs/{id}, a CoolingUnit with
// its Secondary (IT-side) CoolantConnectors, Pumps, EnvironmentMetrics and LeakDetection): the
// resources the OCP coolant distribution unit profile (HWMgmt-OCP-Profiles, LiquidCooling,
// OCPCoolantDistributionUnit v1.0.0) makes mandatory. Readings come from the excerpts' `Reading`;
// a DataSourceUri is never followed (public mockups point them at resources that do not exist).
#include <algorithm>

#include "hil/Redfish.h"
#include "hil/RedfishDetail.h"

namespace rdt::hil {

using namespace redfishdetail;

namespace {

using Links = std::vector<std::pair<std::string, std::string>>;

/// A member or sub-resource: read in place when the service expanded it, else queued by its link.
void member(const std::string& url, const json& m, const std::string& what, PartReading& r, Links& next,
            void (*read)(const std::string&, const json&, PartReading&))
{
    if (!m.is_object() || !m.contains("@odata.id") || !m["@odata.id"].is_string()) {
        missing(r, url, "@odata.id of a " + what);
        return;
    }
    if (m.size() <= 1)
        next.emplace_back(m["@odata.id"].get<std::string>(), what);
    else
        read(url, m, r);
}

void readConnector(const std::string& url, const json& c, PartReading& r)
{
    const double flow = number(c, "FlowLitersPerMinute", true);
    const double supply = number(c, "SupplyTemperatureCelsius", true);
    const double ret = number(c, "ReturnTemperatureCelsius", true);
    // DeltaPressurekPa's sign is not defined by the schema (public payloads differ): its size, else
    // the gauge pressures' difference.
    double dp = std::abs(number(c, "DeltaPressurekPa", true));
    if (std::isnan(dp))
        dp = std::abs(number(c, "SupplyPressurekPa", true) - number(c, "ReturnPressurekPa", true));
    const double heat = number(c, "HeatRemovedkW", true);
    if (std::isnan(flow))
        missing(r, url, "FlowLitersPerMinute.Reading");
    if (std::isnan(supply))
        missing(r, url, "SupplyTemperatureCelsius.Reading");
    r.connectors.push_back({flow, supply, ret, dp, heat});
}

void readPump(const std::string& url, const json& p, PartReading& r)
{
    const json status = p.value("Status", json::object());
    // A State or Health that is there but not a string is the service's error, named; the pump is
    // then judged as if the field were absent.
    for (const char* key : {"State", "Health"})
        if (status.is_object() && status.contains(key) && !status[key].is_string() && !status[key].is_null())
            r.errors.push_back("GET " + url + ": pump " + text(p, "Id", "?") + ": Status." + key +
                               " is not a string");
    const std::string state = text(status, "State", "Enabled");
    const std::string health = text(status, "Health", "OK");
    // Failed: gone, offline or disabled, or Critical. A standby pump (a hot spare) is neither failed
    // nor running; a pump starting, in test or updating counts as running.
    const bool failed = state == "Absent" || state == "UnavailableOffline" || state == "Disabled" ||
                        health == "Critical";
    const bool standby = !failed && (state == "StandbySpare" || state == "StandbyOffline");
    const double speed = number(p, "PumpSpeedPercent", true);
    if (std::isnan(speed) && !failed && !standby)
        missing(r, url, "PumpSpeedPercent.Reading");
    r.pumps.push_back({standby ? NAN : speed, failed ? 1.0 : standby ? -1.0 : 0.0});
}

void readDetector(const std::string& url, const json& d, PartReading& r)
{
    const std::string name = text(d, "Name", text(d, "Id", "?"));
    if (d.contains("Enabled") && d["Enabled"].is_boolean() && !d["Enabled"].get<bool>()) {
        r.errors.push_back("GET " + url + ": leak detector " + name + " is disabled (its zone is not watched)");
        return;
    }
    const std::string state = d.contains("DetectorState") && d["DetectorState"].is_string()
                                  ? d["DetectorState"].get<std::string>()
                                  : std::string();
    if (state == "OK")
        r.leaks.push_back(0);
    else if (state == "Warning")
        r.leaks.push_back(1);
    else if (state == "Critical")
        r.leaks.push_back(2);
    else if (state.empty())
        missing(r, url, "DetectorState of leak detector " + name);
    else // Unavailable, Absent
        r.errors.push_back("GET " + url + ": leak detector " + name + " is " + state + " (its zone is not watched)");
}

void readEnvironment(const std::string& url, const json& e, PartReading& r)
{
    // PowerWatts is optional in the OCP profile (IfImplemented): absent is not an error.
    (void)url;
    const double w = number(e, "PowerWatts", true);
    if (!std::isnan(w))
        r.powerW = w;
}

/// A collection: its members (expanded or linked). Paging (Members@odata.nextLink) is followed.
void collection(const std::string& url, const json& j, const std::string& what, PartReading& r, Links& next,
                void (*read)(const std::string&, const json&, PartReading&))
{
    if (!j.contains("Members") || !j["Members"].is_array()) {
        missing(r, url, "Members");
        return;
    }
    for (const json& m : j["Members"])
        member(url, m, what, r, next, read);
    if (j.contains("Members@odata.nextLink") && j["Members@odata.nextLink"].is_string())
        next.emplace_back(j["Members@odata.nextLink"].get<std::string>(), what + "s");
}

/// A CoolingUnit's link or expanded collection at `key`.
void sub(const std::string& url, const json& cdu, const char* key, const std::string& what, bool required,
         PartReading& r, Links& next, void (*read)(const std::string&, const json&, PartReading&))
{
    if (!cdu.contains(key) || !cdu[key].is_object()) {
        if (required)
            missing(r, url, key);
        return;
    }
    const json& c = cdu[key];
    if (c.contains("Members"))
        collection(url, c, what, r, next, read);
    else if (what == "environment" && c.size() > 1)
        read(url, c, r);
    else if (c.contains("@odata.id") && c["@odata.id"].is_string())
        next.emplace_back(c["@odata.id"].get<std::string>(), what == "environment" ? what : what + "s");
    else if (required)
        missing(r, url, std::string(key) + " link");
}

} // namespace

std::vector<std::pair<std::string, std::string>> readCduResource(const std::string& url, const std::string& body,
                                                                 const std::string& what, PartReading& r)
{
    Links next;
    json j;
    if (!parse(url, body, j, r))
        return next;
    if (what == "cdu") {
        if (j.contains("EquipmentType") && j["EquipmentType"].is_string() && j["EquipmentType"] != "CDU")
            r.errors.push_back("GET " + url + ": EquipmentType is " + j["EquipmentType"].get<std::string>() +
                               ", not CDU");
        sub(url, j, "SecondaryCoolantConnectors", "connector", true, r, next, readConnector);
        sub(url, j, "Pumps", "pump", true, r, next, readPump);
        sub(url, j, "EnvironmentMetrics", "environment", false, r, next, readEnvironment);
    } else if (what == "connectors") {
        collection(url, j, "connector", r, next, readConnector);
    } else if (what == "pumps") {
        collection(url, j, "pump", r, next, readPump);
    } else if (what == "leak-detectors") {
        collection(url, j, "leak-detector", r, next, readDetector);
    } else if (what == "connector") {
        readConnector(url, j, r);
    } else if (what == "pump") {
        readPump(url, j, r);
    } else if (what == "leak-detector") {
        readDetector(url, j, r);
    } else if (what == "environment") {
        readEnvironment(url, j, r);
    }
    return next;
}

void finishCoolingUnit(PartReading& r)
{
    double flow = 0, supply = 0, ret = 0, heat = 0, dp = NAN;
    int nFlow = 0, nSupply = 0, nRet = 0, nHeat = 0;
    double supplyPlain = 0, retPlain = 0, qSupply = 0, qRet = 0; // the flows behind each weighted sum
    for (const auto& c : r.connectors) {
        const double q = c[0];
        if (std::isfinite(q)) {
            flow += q;
            ++nFlow;
        }
        if (std::isfinite(c[1])) {
            supply += (std::isfinite(q) ? q : 0) * c[1];
            qSupply += std::isfinite(q) ? q : 0;
            supplyPlain += c[1];
            ++nSupply;
        }
        if (std::isfinite(c[2])) {
            ret += (std::isfinite(q) ? q : 0) * c[2];
            qRet += std::isfinite(q) ? q : 0;
            retPlain += c[2];
            ++nRet;
        }
        if (std::isfinite(c[3]))
            dp = std::isnan(dp) ? c[3] : std::max(dp, c[3]);
        if (std::isfinite(c[4])) {
            heat += c[4];
            ++nHeat;
        }
    }
    const bool weighted = nFlow == static_cast<int>(r.connectors.size()) && flow > 0;
    if (nFlow > 0)
        r.coolantFlowLpm = flow;
    if (nSupply > 0)
        r.coolantSupplyC = weighted && qSupply > 0 ? supply / qSupply : supplyPlain / nSupply;
    if (nRet > 0)
        r.coolantReturnC = weighted && qRet > 0 ? ret / qRet : retPlain / nRet;
    r.coolantDpKPa = dp;
    if (nHeat > 0)
        r.coolantHeatKW = heat;
    if (!r.pumps.empty()) {
        double sum = 0, failed = 0;
        int running = 0;
        for (const auto& p : r.pumps) {
            if (p[1] > 0) {
                failed += 1;
            } else if (p[1] == 0 && std::isfinite(p[0])) { // running (a standby pump is -1)
                sum += p[0];
                ++running;
            }
        }
        r.pumpsFailed = failed;
        if (running > 0)
            r.pumpSpeedPct = sum / running;
    }
    if (!r.leaks.empty())
        r.leakState = *std::max_element(r.leaks.begin(), r.leaks.end());
    r.connectors.clear();
    r.pumps.clear();
    r.leaks.clear();
}

} // namespace rdt::hil
