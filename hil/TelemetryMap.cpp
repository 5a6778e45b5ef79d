#include "hil/TelemetryMap.h"

#include <sys/stat.h>

#include <cstdlib>
#include <fstream>

#include "core/Catalog.h"
#include "core/Yaml.h"

namespace rdt::hil {

namespace {

std::string lastComponent(const std::string& id)
{
    const auto slash = id.rfind('/');
    return slash == std::string::npos ? id : id.substr(slash + 1);
}

/// Expand `{name}` placeholders; `values` lacks a name → located error.
std::string expand(const std::string& tmpl, const std::map<std::string, std::string>& values, const core::Cursor& where)
{
    std::string out;
    for (std::size_t i = 0; i < tmpl.size(); ++i) {
        if (tmpl[i] != '{') {
            out += tmpl[i];
            continue;
        }
        const auto close = tmpl.find('}', i);
        if (close == std::string::npos)
            where.fail("unclosed '{' in \"" + tmpl + "\"");
        const std::string name = tmpl.substr(i + 1, close - i - 1);
        if (name.rfind("env:", 0) == 0) {
            const char* v = std::getenv(name.substr(4).c_str());
            if (v == nullptr || *v == 0)
                where.fail("environment variable " + name.substr(4) + " (used as {" + name + "}) is not set");
            out += v;
        } else if (const auto it = values.find(name); it != values.end()) {
            if (it->second.empty())
                where.fail("{" + name + "} is empty for this part (it is not in a " + name + ")");
            out += it->second;
        } else {
            where.fail("unknown placeholder {" + name + "}: use " +
                       (values.count("loop") ? std::string("{loop}, {cdu_index}, {cdu_number}")
                                             : std::string("{id}, {slot}, {rack}, {row}, {pod}, {hall}, {rack_index}, "
                                                           "{chassis}")) +
                       " or {env:NAME}");
        }
        i = close;
    }
    return out;
}

void checkBmc(const core::Cursor& t, const std::string& bmc)
{
    if (bmc.rfind("http://", 0) != 0 && bmc.rfind("https://", 0) != 0 && bmc.find("{env:") != 0)
        t["bmc"].fail("the BMC address starts with https:// (or http:// for a lab mockup): \"" + bmc + "\"");
}

/// A `loops:` target: each CDU of each matching liquid loop becomes a mapped part `LOOP/cduN`.
void mapLoops(const core::Cursor& t, const core::Design& design, std::vector<int>& taken, TelemetryMap& map)
{
    t.allowKeys({"loops", "bmc", "cdu"});
    const std::string pattern = t["loops"].str();
    const std::string bmc = t["bmc"].str();
    checkBmc(t, bmc);
    const std::string cdu = t.has("cdu") ? t["cdu"].str() : std::string("{cdu_number}");
    int matched = 0;
    for (std::size_t l = 0; l < design.liquid.loops.size(); ++l) {
        const core::LiquidLoop& loop = design.liquid.loops[l];
        if (!core::globMatch(pattern, loop.id))
            continue;
        ++matched;
        if (taken[l]++ > 0)
            continue; // the first matching target maps a loop
        for (int k = 0; k < loop.count; ++k) {
            const std::map<std::string, std::string> v{
                {"loop", loop.id}, {"cdu_index", std::to_string(k)}, {"cdu_number", std::to_string(k + 1)}};
            MappedPart m;
            m.part = loop.id + "/cdu" + std::to_string(k + 1);
            m.kind = "cdu";
            m.loop = static_cast<int>(l);
            m.bmc = expand(bmc, v, t["bmc"]);
            while (!m.bmc.empty() && m.bmc.back() == '/')
                m.bmc.pop_back();
            m.chassis = expand(cdu, v, t.has("cdu") ? t["cdu"] : t);
            m.loc = t.loc();
            map.parts.push_back(std::move(m));
        }
    }
    if (matched == 0)
        t["loops"].fail("\"" + pattern + "\" matches no liquid loop of the design" +
                        (design.liquid.loops.empty() ? std::string(" (it has no liquid: section)") : std::string()));
}

bool mappable(core::PartKind k)
{
    return k == core::PartKind::Chassis || k == core::PartKind::Switch || k == core::PartKind::PowerShelf;
}

} // namespace

const std::vector<std::string>& sensorQuantities()
{
    static const std::vector<std::string> q{"power",        "inlet",          "exhaust",        "gpu_power",
                                            "airflow",      "pressure",       "coolant_flow",   "coolant_supply",
                                            "coolant_return", "coolant_dp",   "gpu_temperature"};
    return q;
}

bool globMatch(const std::string& p, const std::string& t)
{
    return core::globMatch(p, t);
}

TelemetryMap parseTelemetryMap(const std::string& text, const std::string& fileName, const core::Design& design)
{
    const core::Cursor root = core::Cursor::parse(text, fileName);
    root.requireMap();
    root.allowKeys({"telemetry", "defaults", "targets"});
    if (root["telemetry"].integer(1, 1) != 1)
        root["telemetry"].fail("unsupported telemetry map version");
    TelemetryMap map;
    map.file = fileName;
    if (const auto d = root.find("defaults")) {
        d->requireMap();
        d->allowKeys({"timeout", "connect_timeout", "retries", "concurrency", "auth", "credentials_file", "ca_cert",
                      "insecure", "expand", "max_response", "per_bmc"});
        if (const auto v = d->find("timeout"))
            map.http.timeoutS = v->quantity(core::Dimension::Time, {0.01, 600});
        if (const auto v = d->find("connect_timeout"))
            map.http.connectTimeoutS = v->quantity(core::Dimension::Time, {0.01, 600});
        if (const auto v = d->find("retries"))
            map.http.retries = static_cast<int>(v->integer(0, 10));
        if (const auto v = d->find("concurrency"))
            map.http.maxConcurrent = static_cast<int>(v->integer(1, 4096));
        if (const auto v = d->find("per_bmc"))
            map.http.maxPerHost = static_cast<int>(v->integer(1, 64));
        if (const auto v = d->find("max_response"))
            map.http.maxBytes = static_cast<std::size_t>(v->integer(1024, 1LL << 32));
        if (const auto v = d->find("auth")) {
            const std::string a = v->str();
            if (a == "none")
                map.auth = AuthMode::None;
            else if (a == "basic")
                map.auth = AuthMode::Basic;
            else if (a == "session")
                map.auth = AuthMode::Session;
            else
                v->fail("auth is none, basic or session, not \"" + a + "\"");
        }
        if (const auto v = d->find("credentials_file"))
            map.credentialsFile = v->str();
        if (const auto v = d->find("ca_cert"))
            map.http.caCert = v->str();
        if (const auto v = d->find("insecure"))
            map.http.insecure = v->boolean();
        if (const auto v = d->find("expand"))
            map.expand = v->boolean();
    }
    const core::Cursor targets = root["targets"];
    targets.requireSequence();
    std::vector<bool> taken;
    std::vector<std::pair<int, int>> all;
    for (int r = 0; r < static_cast<int>(design.racks.size()); ++r)
        for (int s = 0; s < static_cast<int>(design.racks[r].slots.size()); ++s)
            if (mappable(design.racks[r].slots[s].part->kind))
                all.emplace_back(r, s);
    taken.assign(all.size(), false);
    std::vector<int> loopsTaken(design.liquid.loops.size(), 0);
    for (const core::Cursor& t : targets.elements()) {
        t.requireMap();
        if (t.has("loops")) {
            mapLoops(t, design, loopsTaken, map);
            continue;
        }
        t.allowKeys({"parts", "bmc", "chassis", "api", "sensors"});
        const std::string pattern = t["parts"].str();
        const std::string bmc = t["bmc"].str();
        const std::string chassis = t.has("chassis") ? t["chassis"].str() : std::string("{slot}");
        RedfishApi api = RedfishApi::Current;
        if (const auto a = t.find("api")) {
            if (a->str() == "legacy")
                api = RedfishApi::Legacy;
            else if (a->str() != "current")
                a->fail("api is current (EnvironmentMetrics, ThermalSubsystem, PowerSubsystem) or legacy (Power, "
                        "Thermal), not \"" +
                        a->str() + "\"");
        }
        std::vector<std::pair<std::string, core::Cursor>> sensors;
        if (const auto s = t.find("sensors")) {
            s->requireMap();
            s->allowKeys(sensorQuantities());
            sensors = s->entries();
        }
        checkBmc(t, bmc);
        int matched = 0;
        for (std::size_t k = 0; k < all.size(); ++k) {
            const auto [r, s] = all[k];
            const core::Rack& rack = design.racks[r];
            const core::Slot& slot = rack.slots[s];
            if (!globMatch(pattern, slot.id))
                continue;
            ++matched;
            if (taken[k])
                continue; // the first matching target maps a part
            taken[k] = true;
            std::map<std::string, std::string> v{
                {"id", slot.id},
                {"slot", slot.name},
                {"rack", lastComponent(rack.id)},
                {"rack_index", std::to_string(r)},
                {"hall", rack.hall >= 0 ? lastComponent(design.halls[rack.hall].id) : ""},
                {"pod", rack.pod >= 0 ? lastComponent(design.pods[rack.pod].id) : ""},
                {"row", rack.row >= 0 ? lastComponent(design.rows[rack.row].id) : ""}};
            MappedPart m;
            m.part = slot.id;
            m.kind = std::string(core::partKindName(slot.part->kind));
            m.rack = r;
            m.slot = s;
            m.bmc = expand(bmc, v, t["bmc"]);
            while (!m.bmc.empty() && m.bmc.back() == '/')
                m.bmc.pop_back();
            m.chassis = expand(chassis, v, t.has("chassis") ? t["chassis"] : t);
            v["chassis"] = m.chassis;
            m.api = api;
            for (const auto& [q, c] : sensors) {
                std::string path = expand(c.str(), v, c);
                while (!path.empty() && path.front() == '/')
                    path.erase(0, 1);
                if (path.rfind("redfish/v1/", 0) == 0)
                    path.erase(0, 11);
                m.sensors[q] = path;
            }
            m.loc = t.loc();
            map.parts.push_back(std::move(m));
        }
        if (matched == 0)
            t["parts"].fail("\"" + pattern + "\" matches no chassis, switch or power shelf of the design");
    }
    for (std::size_t k = 0; k < all.size(); ++k)
        if (!taken[k])
            map.unmapped.push_back(design.racks[all[k].first].slots[all[k].second].id);
    for (std::size_t l = 0; l < loopsTaken.size(); ++l)
        if (loopsTaken[l] == 0)
            map.unmapped.push_back("liquid loop " + design.liquid.loops[l].id + " (its CDUs)");
    return map;
}

TelemetryMap loadTelemetryMap(const std::string& path, const core::Design& design)
{
    return parseTelemetryMap(core::readTextFile(path), path, design);
}

void resolveCredentials(TelemetryMap& map)
{
    if (map.auth == AuthMode::None)
        return;
    const char* user = std::getenv("RDT_REDFISH_USER");
    const char* password = std::getenv("RDT_REDFISH_PASSWORD");
    if (user != nullptr && *user != 0) {
        map.http.user = user;
        map.http.password = password != nullptr ? password : "";
        return;
    }
    const core::SourceLoc loc{map.file, 0, 0, "defaults.credentials_file"};
    if (map.credentialsFile.empty())
        throw core::InputError(loc,
                               "authentication is on but no credentials: set RDT_REDFISH_USER and "
                               "RDT_REDFISH_PASSWORD, or name a credentials_file (one user:password line, mode 0600)");
    std::string path = map.credentialsFile;
    if (path.rfind("~/", 0) == 0 && std::getenv("HOME") != nullptr)
        path = std::string(std::getenv("HOME")) + path.substr(1);
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        throw core::InputError(loc, "credentials file " + path + " not found");
    if ((st.st_mode & 077) != 0)
        throw core::InputError(loc, "credentials file " + path +
                                        " is readable by group or others: chmod 600 it (rdt will not use it)");
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    while (!line.empty() && (line.back() == '\r' || line.back() == '\n'))
        line.pop_back();
    const auto colon = line.find(':');
    if (colon == std::string::npos || colon == 0)
        throw core::InputError(core::SourceLoc{path, 1, 0, "credentials"}, "expected one line user:password");
    map.http.user = line.substr(0, colon);
    map.http.password = line.substr(colon + 1);
}

} // namespace rdt::hil
