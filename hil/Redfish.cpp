#include "hil/Redfish.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "hil/RedfishDetail.h"

namespace rdt::hil {

using nlohmann::json;
using namespace redfishdetail;

namespace {

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

/// A reading no part can give (a negative power, fan speed or coolant flow; a speed over 100 % of
/// full; a temperature below -50 or above 150 degC, which no air, coolant or GPU sensor of a running
/// rack reads; a power over 10 MW, more than any part draws) is a fault of the BMC or the network,
/// not a measurement: it is dropped and said, never compared with the model. Run before a CDU's
/// connectors and pumps are summed and averaged (finishCoolingUnit), so that none is weighted in.
void dropImplausible(const std::string& part, PartReading& r)
{
    auto check = [&](double& v, const char* what, const char* unit, double hi) {
        if (std::isnan(v) || (v >= 0 && v <= hi))
            return;
        char m[240];
        if (v < 0)
            std::snprintf(m, sizeof m, "%s: %s reading %.4g %s is negative, not a value a part gives: dropped",
                          part.c_str(), what, v, unit);
        else
            std::snprintf(m, sizeof m, "%s: %s reading %.10g %s is over %.4g %s, not a value a part gives: dropped",
                          part.c_str(), what, v, unit, hi, unit);
        r.errors.push_back(m);
        v = NAN;
    };
    auto temperature = [&](double& c, const char* what) {
        if (std::isnan(c) || (c >= -50 && c <= 150))
            return;
        char m[240];
        std::snprintf(m, sizeof m,
                      "%s: %s reading %.10g degC is outside -50 … 150 degC, not a value a running rack's sensor "
                      "gives: dropped",
                      part.c_str(), what, c);
        r.errors.push_back(m);
        c = NAN;
    };
    constexpr double kMaxW = 10e6, kMaxPct = 100, kMaxM3s = 100, kMaxLpm = 1e5;
    check(r.powerW, "power", "W", kMaxW);
    check(r.gpuPowerW, "GPU power", "W", kMaxW);
    check(r.powerLimitW, "power limit", "W", kMaxW);
    check(r.fanPct, "fan speed", "%", kMaxPct);
    check(r.fanMaxPct, "fastest fan speed", "%", kMaxPct);
    check(r.airflowM3s, "airflow", "m3/s", kMaxM3s);
    check(r.coolantFlowLpm, "coolant flow", "L/min", kMaxLpm);
    check(r.pumpSpeedPct, "pump speed", "%", kMaxPct);
    temperature(r.inletC, "inlet");
    temperature(r.exhaustC, "exhaust");
    temperature(r.coolantSupplyC, "coolant supply");
    temperature(r.coolantReturnC, "coolant return");
    temperature(r.gpuTemperatureC, "GPU temperature");
    for (std::vector<double>* psu : {&r.psuInW, &r.psuOutW, &r.psuCapacityW})
        for (double& w : *psu)
            check(w, "power supply", "W", kMaxW);
    for (auto& c : r.connectors) {
        check(c[0], "coolant connector flow", "L/min", kMaxLpm);
        temperature(c[1], "coolant connector supply");
        temperature(c[2], "coolant connector return");
    }
    for (auto& p : r.pumps)
        check(p[0], "pump speed", "%", kMaxPct);
}

} // namespace

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
            s.expandLevels = m_map.expand && e.is_object() && e.contains("Levels") && e["Levels"].is_boolean() &&
                             e["Levels"].get<bool>() && e.contains("MaxLevels") && e["MaxLevels"].is_number() &&
                             e["MaxLevels"].get<double>() >= 2;
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
                    if (readPsuStatus(h.url, m, i, r))
                        continue; // Absent or failed: it delivers nothing, and has nothing to read
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
                if (readPsuStatus(h.url, m, job.psu, r))
                    break; // Absent or failed: it delivers nothing, and has nothing to read
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
