#pragma once
// Shared by hil/Redfish.cpp (chassis, switches, shelves) and hil/RedfishLiquid.cpp (CDUs): reading a
// Redfish payload into a PartReading, every problem an error naming its URL.
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "hil/Redfish.h"

namespace rdt::hil::redfishdetail {

using nlohmann::json;

/// Parse a response body; on failure append "URL: malformed JSON (…)" and return false.
inline bool parse(const std::string& url, const std::string& body, json& out, PartReading& r)
{
    try {
        out = json::parse(body);
    } catch (const json::parse_error& e) {
        r.errors.push_back("GET " + url + ": malformed JSON at byte " + std::to_string(e.byte) + " of " +
                           std::to_string(body.size()));
        return false;
    } catch (const json::exception& e) { // e.g. a number beyond double's range (found by fuzz_redfish)
        r.errors.push_back("GET " + url + ": unreadable JSON (" + e.what() + ")");
        return false;
    }
    if (!out.is_object()) {
        r.errors.push_back("GET " + url + ": expected a JSON object");
        return false;
    }
    return true;
}

/// A finite number at j[key] (or j[key]["Reading"] when `reading`); NaN when absent or null.
inline double number(const json& j, const char* key, bool reading = false)
{
    if (!j.is_object())
        return NAN;
    const auto it = j.find(key);
    if (it == j.end())
        return NAN;
    const json* v = &*it;
    if (reading) {
        if (!v->is_object())
            return NAN;
        const auto r = v->find("Reading");
        if (r == v->end())
            return NAN;
        v = &*r;
    }
    return v->is_number() ? v->get<double>() : NAN;
}

/// The string at j[key]; `fallback` when absent, null or not a string (a BMC may send a number or
/// an object where the schema says string: found by fuzz_redfish, which used to crash on it).
inline std::string text(const json& j, const char* key, const std::string& fallback)
{
    if (!j.is_object())
        return fallback;
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : fallback;
}

inline void missing(PartReading& r, const std::string& url, const std::string& what)
{
    r.errors.push_back("GET " + url + ": no " + what + " in the response");
}

/// As missing(), for j[key]["Reading"]: one that is there but not a number (`"Reading": "8150"`, a
/// string) is said as such, not as absent.
inline void missingReading(PartReading& r, const std::string& url, const json& j, const char* key)
{
    const auto it = j.is_object() ? j.find(key) : j.end();
    if (it != j.end() && it->is_object()) {
        const auto v = it->find("Reading");
        if (v != it->end() && !v->is_null() && !v->is_number()) {
            std::string shown = v->dump();
            if (shown.size() > 40)
                shown = shown.substr(0, 40) + "…";
            r.errors.push_back("GET " + url + ": " + key + ".Reading is " + shown + ", not a number (" +
                               v->type_name() + "): not read");
            return;
        }
    }
    missing(r, url, std::string(key) + ".Reading");
}

/// Supply `i`'s input, output and capacity (NaN: not read) into `r` (hil/RedfishRead.cpp).
void setPsu(PartReading& r, std::size_t i, double in, double out, double capacity);
/// A power supply's Status into supply `i` (PartReading::psuState); true when it delivers nothing
/// (Absent, offline or disabled), whose metrics are then not asked for (a Critical one's are).
bool readPsuStatus(const std::string& url, const json& m, std::size_t i, PartReading& r);
/// A power supply's Metrics resource (InputPowerWatts, OutputPowerWatts) into supply `i`.
void readPsuMetrics(const std::string& url, const json& m, std::size_t i, PartReading& r);

} // namespace rdt::hil::redfishdetail
