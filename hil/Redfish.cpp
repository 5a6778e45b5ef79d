#include "hil/Redfish.h"

#include <cstdio>
#include <algorithm>
#include <cctype>
#include <chrono>
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

/// The Redfish error message of a failed request, if its body carries one.
std::string redfishMessage(const std::string& body)
{
    try {
        const json j = json::parse(body);
        if (j.contains("error") && j["error"].is_object()) {
            const json& e = j["error"];
            if (e.contains("@Message.ExtendedInfo") && e["@Message.ExtendedInfo"].is_array() &&
                !e["@Message.ExtendedInfo"].empty() && e["@Message.ExtendedInfo"][0].contains("Message") &&
                e["@Message.ExtendedInfo"][0]["Message"].is_string())
                return e["@Message.ExtendedInfo"][0]["Message"].get<std::string>();
            if (e.contains("message") && e["message"].is_string())
                return e["message"].get<std::string>();
        }
    } catch (const json::exception&) {
    }
    return {};
}

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
    }
    if (!std::isnan(in))
        r.psuInW[i] = in;
    if (!std::isnan(out))
        r.psuOutW[i] = out;
    if (!std::isnan(capacity))
        r.psuCapacityW[i] = capacity;
}

void readPsuMetrics(const std::string& url, const json& m, std::size_t i, PartReading& r)
{
    const double in = number(m, "InputPowerWatts", true), out = number(m, "OutputPowerWatts", true);
    if (std::isnan(in))
        missing(r, url, "InputPowerWatts.Reading");
    if (std::isnan(out))
        missing(r, url, "OutputPowerWatts.Reading");
    setPsu(r, i, in, out, NAN);
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

enum class What {
    Env,
    ThermalMetrics,
    Fans,
    PowerLimit,
    LegacyPower,
    LegacyThermal,
    Sensor,
    Psus,
    PsuMember,
    PsuMetrics,
    Cdu ///< a CDU's resources: `quantity` says which (readCduResource)
};

struct Job {
    std::size_t part = 0;
    What what = What::Env;
    std::string url, token, quantity;
    std::size_t psu = 0; ///< supply index (PsuMember, PsuMetrics) or offset of a collection page (Psus)
};

} // namespace

std::size_t Sample::errorCount() const
{
    std::size_t n = 0;
    for (const PartReading& p : parts)
        n += p.errors.size();
    return n;
}

namespace {

/// A reading no part can give (a negative power, fan speed or coolant flow) is a fault of the BMC or
/// the network, not a measurement: it is dropped and said, never compared with the model. Run before
/// a CDU's connectors and pumps are summed and averaged (finishCoolingUnit), so that none is weighted in.
void dropImplausible(const std::string& part, PartReading& r)
{
    auto check = [&](double& v, const char* what, const char* unit) {
        if (!(v < 0))
            return;
        char m[200];
        std::snprintf(m, sizeof m, "%s: %s reading %.4g %s is negative, not a value a part gives: dropped",
                      part.c_str(), what, v, unit);
        r.errors.push_back(m);
        v = NAN;
    };
    check(r.powerW, "power", "W");
    check(r.gpuPowerW, "GPU power", "W");
    check(r.fanPct, "fan speed", "%");
    check(r.fanMaxPct, "fastest fan speed", "%");
    check(r.airflowM3s, "airflow", "m3/s");
    check(r.coolantFlowLpm, "coolant flow", "L/min");
    check(r.pumpSpeedPct, "pump speed", "%");
    for (std::vector<double>* psu : {&r.psuInW, &r.psuOutW, &r.psuCapacityW})
        for (double& w : *psu)
            check(w, "power supply", "W");
    for (auto& c : r.connectors)
        check(c[0], "coolant connector flow", "L/min");
    for (auto& p : r.pumps)
        check(p[0], "pump speed", "%");
}

} // namespace

void readEnvironmentMetrics(const std::string& url, const std::string& body, PartReading& r)
{
    json j;
    if (!parse(url, body, j, r))
        return;
    r.powerW = number(j, "PowerWatts", true);
    if (std::isnan(r.powerW))
        missing(r, url, "PowerWatts.Reading");
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
            const double in = number(p, "PowerInputWatts"), out = number(p, "PowerOutputWatts");
            if (std::isnan(in) || std::isnan(out))
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

Poller::Poller(TelemetryMap map) : m_map(std::move(map)) {}

Poller::~Poller()
{
    try {
        logout();
    } catch (...) {
    }
}

void Poller::logout()
{
    std::vector<HttpRequest> bye;
    for (auto& [base, s] : m_services)
        if (!s.session.empty()) {
            HttpRequest q{base + s.session, "DELETE", "", s.token};
            if (s.session.rfind("http", 0) == 0)
                q.url = s.session;
            bye.push_back(q);
            s.session.clear();
            s.token.clear();
            s.probed = false;
        }
    if (!bye.empty()) {
        HttpOptions o = m_map.http;
        o.retries = 0;
        httpFetch(bye, o);
    }
}

void Poller::prepare()
{
    std::vector<std::string> bases;
    for (const MappedPart& p : m_map.parts)
        if (!m_services[p.bmc].probed && std::find(bases.begin(), bases.end(), p.bmc) == bases.end())
            bases.push_back(p.bmc);
    if (bases.empty())
        return;
    std::vector<HttpRequest> roots;
    for (const std::string& b : bases)
        roots.push_back({b + "/redfish/v1/", "GET", "", ""});
    HttpOptions o = m_map.http;
    if (m_map.auth != AuthMode::Basic)
        o.user.clear();
    const std::vector<HttpResponse> got = httpFetch(roots, o);
    std::vector<HttpRequest> logins;
    std::vector<std::string> loginBases;
    for (std::size_t i = 0; i < bases.size(); ++i) {
        Service& s = m_services[bases[i]];
        s.error.clear();
        if (!got[i].ok()) {
            const std::string m = redfishMessage(got[i].body);
            s.error = got[i].describe() + (m.empty() ? "" : " (" + m + ")");
            continue; // probed stays false: the next sweep tries again
        }
        try {
            const json j = json::parse(got[i].body);
            const json& e = j.value("/ProtocolFeaturesSupported/ExpandQuery"_json_pointer, json::object());
            s.expandLevels = m_map.expand && e.is_object() && e.value("Levels", false) && e.value("MaxLevels", 0) >= 2;
        } catch (const json::exception&) {
            s.error = "GET " + got[i].url + ": the service root is not valid JSON";
            continue;
        }
        if (m_map.auth == AuthMode::Session) {
            logins.push_back({bases[i] + "/redfish/v1/SessionService/Sessions", "POST",
                              json{{"UserName", m_map.http.user}, {"Password", m_map.http.password}}.dump(), ""});
            loginBases.push_back(bases[i]);
        } else {
            s.probed = true;
        }
    }
    if (logins.empty())
        return;
    HttpOptions lo = m_map.http;
    lo.user.clear();
    const std::vector<HttpResponse> in = httpFetch(logins, lo);
    for (std::size_t i = 0; i < logins.size(); ++i) {
        Service& s = m_services[loginBases[i]];
        if (!in[i].ok() || in[i].token.empty()) {
            const std::string m = redfishMessage(in[i].body);
            s.error =
                "login: " + (in[i].ok() ? "POST " + in[i].url + ": no X-Auth-Token in the answer" : in[i].describe()) +
                (m.empty() ? "" : " (" + m + ")");
            continue;
        }
        s.token = in[i].token;
        s.session = in[i].location;
        s.probed = true;
    }
}

Sample Poller::poll()
{
    const auto t0 = std::chrono::steady_clock::now();
    Sample sample;
    sample.unixTime = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    sample.parts.resize(m_map.parts.size());
    prepare();
    std::vector<Job> jobs;
    for (std::size_t i = 0; i < m_map.parts.size(); ++i) {
        const MappedPart& p = m_map.parts[i];
        const Service& s = m_services[p.bmc];
        if (!s.probed) {
            sample.parts[i].errors.push_back(s.error.empty() ? p.bmc + ": not reachable" : s.error);
            continue;
        }
        const std::string chassis = p.bmc + "/redfish/v1/Chassis/" + p.chassis;
        auto add = [&](What w, const std::string& url, const std::string& q = {}) {
            jobs.push_back(Job{i, w, url, s.token, q, 0});
        };
        if (p.kind == "cdu") {
            const std::string cdu = p.bmc + "/redfish/v1/ThermalEquipment/CDUs/" + p.chassis;
            add(What::Cdu, cdu + (s.expandLevels ? "?$expand=.($levels=2)" : ""), "cdu");
            // The detectors' own resources: LeakDetection's group excerpts may be stale copies.
            add(What::Cdu, cdu + "/LeakDetection/LeakDetectors" + (s.expandLevels ? "?$expand=.($levels=1)" : ""),
                "leak-detectors");
        } else if (p.kind == "power-shelf") {
            if (p.api == RedfishApi::Legacy)
                add(What::LegacyPower, chassis + "/Power");
            else
                add(What::Psus,
                    chassis + "/PowerSubsystem/PowerSupplies" + (s.expandLevels ? "?$expand=.($levels=2)" : ""));
        } else if (p.api == RedfishApi::Legacy) {
            if (!p.sensors.count("power"))
                add(What::LegacyPower, chassis + "/Power");
            add(What::LegacyThermal, chassis + "/Thermal");
        } else {
            add(What::Env, chassis + "/EnvironmentMetrics");
            if (!p.sensors.count("inlet"))
                add(What::ThermalMetrics, chassis + "/ThermalSubsystem/ThermalMetrics");
        }
        for (const auto& [q, path] : p.sensors)
            add(What::Sensor, p.bmc + "/redfish/v1/" + path, q);
    }
    for (int round = 0; !jobs.empty() && round < 8; ++round) {
        std::vector<HttpRequest> requests;
        requests.reserve(jobs.size());
        for (const Job& j : jobs)
            requests.push_back({j.url, "GET", "", j.token});
        HttpOptions o = m_map.http;
        if (m_map.auth != AuthMode::Basic)
            o.user.clear();
        const std::vector<HttpResponse> got = httpFetch(requests, o);
        sample.requests += got.size();
        std::vector<Job> next;
        for (std::size_t k = 0; k < jobs.size(); ++k) {
            const Job& job = jobs[k];
            PartReading& r = sample.parts[job.part];
            const HttpResponse& h = got[k];
            if (!h.ok()) {
                ++sample.failed;
                const std::string m = redfishMessage(h.body);
                r.errors.push_back(h.describe() + (m.empty() ? "" : " (" + m + ")"));
                if (h.status == 401 && m_map.auth == AuthMode::Session)
                    m_services[m_map.parts[job.part].bmc].probed = false; // session expired: log in again
                continue;
            }
            switch (job.what) {
            case What::Env: {
                readEnvironmentMetrics(h.url, h.body, r);
                // BMCs without fan speeds or the power limit in EnvironmentMetrics: the
                // ThermalSubsystem's Fans and Controls/PowerLimit carry them.
                const std::string chassis = h.url.substr(0, h.url.rfind("/EnvironmentMetrics"));
                const bool expand = m_services[m_map.parts[job.part].bmc].expandLevels;
                if (std::isnan(r.fanPct))
                    next.push_back(Job{job.part,
                                       What::Fans,
                                       chassis + "/ThermalSubsystem/Fans" + (expand ? "?$expand=.($levels=1)" : ""),
                                       job.token,
                                       {},
                                       0});
                if (std::isnan(r.powerLimitW))
                    next.push_back(Job{job.part, What::PowerLimit, chassis + "/Controls/PowerLimit", job.token, {}, 0});
                break;
            }
            case What::Fans: readFans(h.url, h.body, r); break;
            case What::PowerLimit: {
                json j;
                if (parse(h.url, h.body, j, r)) {
                    r.powerLimitW = number(j, "SetPoint");
                    if (std::isnan(r.powerLimitW))
                        missing(r, h.url, "SetPoint");
                }
                break;
            }
            case What::ThermalMetrics: readThermalMetrics(h.url, h.body, r); break;
            case What::LegacyPower:
                readLegacyPower(h.url, h.body, r, m_map.parts[job.part].kind == "power-shelf");
                break;
            case What::LegacyThermal: readLegacyThermal(h.url, h.body, r); break;
            case What::Sensor: readSensor(h.url, h.body, job.quantity, r); break;
            case What::Cdu:
                for (const auto& [path, what] : readCduResource(h.url, h.body, job.quantity, r))
                    next.push_back(Job{job.part, What::Cdu, m_map.parts[job.part].bmc + path, job.token, what, 0});
                break;
            case What::Psus: {
                json j;
                if (!parse(h.url, h.body, j, r))
                    break;
                if (!j.contains("Members") || !j["Members"].is_array()) {
                    missing(r, h.url, "Members");
                    break;
                }
                const std::string base = m_map.parts[job.part].bmc;
                std::size_t idx = job.psu;
                for (const json& m : j["Members"]) {
                    const std::size_t i = idx++;
                    if (!m.is_object() || !m.contains("@odata.id") || !m["@odata.id"].is_string()) {
                        missing(r, h.url, "@odata.id of member " + std::to_string(i));
                        continue;
                    }
                    if (m.size() <= 1) { // a plain link: read the supply itself
                        next.push_back(
                            Job{job.part, What::PsuMember, base + m["@odata.id"].get<std::string>(), job.token, {}, i});
                        continue;
                    }
                    setPsu(r, i, NAN, NAN, number(m, "PowerCapacityWatts"));
                    const json metrics = m.value("Metrics", json::object());
                    if (metrics.contains("InputPowerWatts"))
                        readPsuMetrics(h.url, metrics, i, r);
                    else if (metrics.contains("@odata.id") && metrics["@odata.id"].is_string())
                        next.push_back(Job{job.part,
                                           What::PsuMetrics,
                                           base + metrics["@odata.id"].get<std::string>(),
                                           job.token,
                                           {},
                                           i});
                    else
                        missing(r, h.url, "Metrics of member " + std::to_string(i));
                }
                if (j.contains("Members@odata.nextLink") && j["Members@odata.nextLink"].is_string())
                    next.push_back(Job{job.part,
                                       What::Psus,
                                       base + j["Members@odata.nextLink"].get<std::string>(),
                                       job.token,
                                       {},
                                       idx});
                break;
            }
            case What::PsuMember: {
                json m;
                if (!parse(h.url, h.body, m, r))
                    break;
                setPsu(r, job.psu, NAN, NAN, number(m, "PowerCapacityWatts"));
                const json metrics = m.value("Metrics", json::object());
                if (metrics.contains("@odata.id") && metrics["@odata.id"].is_string())
                    next.push_back(Job{job.part,
                                       What::PsuMetrics,
                                       m_map.parts[job.part].bmc + metrics["@odata.id"].get<std::string>(),
                                       job.token,
                                       {},
                                       job.psu});
                else
                    missing(r, h.url, "Metrics");
                break;
            }
            case What::PsuMetrics: {
                json m;
                if (parse(h.url, h.body, m, r))
                    readPsuMetrics(h.url, m, job.psu, r);
                break;
            }
            }
        }
        jobs = std::move(next);
    }
    for (std::size_t i = 0; i < m_map.parts.size(); ++i) {
        dropImplausible(m_map.parts[i].part, sample.parts[i]);
        if (m_map.parts[i].kind == "cdu")
            finishCoolingUnit(sample.parts[i]);
    }
    sample.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return sample;
}

} // namespace rdt::hil
