#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>
#include <map>
#include <set>
#include <filesystem>

#include "core/NetBox.h"
#include "core/NetBoxDetail.h"
#include "core/Yaml.h"

namespace rdt::core::netbox {

namespace fs = std::filesystem;

/// Every result of one endpoint's pages, in page order; pages must add up to the first's count.
std::vector<Row> readEndpoint(const std::string& dir, const std::string& endpoint, bool required)
{
    std::vector<std::string> files;
    for (const auto& e : fs::directory_iterator(dir)) {
        const std::string name = e.path().filename().string();
        if (e.path().extension() == ".json" && (name == endpoint + ".json" || name.rfind(endpoint + "-", 0) == 0))
            files.push_back(e.path().string());
    }
    std::sort(files.begin(), files.end(), [](const std::string& a, const std::string& b) {
        return a.size() != b.size() ? a.size() < b.size() : a < b; // devices-2 before devices-10
    });
    if (files.empty()) {
        if (required)
            throw InputError(SourceLoc{dir, 0, 0, endpoint}, "no " + endpoint + ".json (the answer of GET /api/dcim/" +
                                                                 endpoint + "/?limit=1000, one file per page)");
        return {};
    }
    std::vector<Row> rows;
    long long count = -1;
    for (const std::string& f : files) {
        json page;
        const std::string text = readTextFile(f);
        // A key twice in one object: JSON readers keep one of them, silently (the last here: a
        // device's "position" written twice was placed at the second; trust trial, 2026-12-07).
        // NetBox never writes two, so the file was edited: refused, as the YAML readers refuse it.
        std::vector<std::set<std::string>> keys;
        const json::parser_callback_t unique = [&](int, json::parse_event_t event, json& parsed) {
            if (event == json::parse_event_t::object_start)
                keys.emplace_back();
            else if (event == json::parse_event_t::object_end && !keys.empty())
                keys.pop_back();
            else if (event == json::parse_event_t::key && !keys.empty() && parsed.is_string() &&
                     !keys.back().insert(parsed.get<std::string>()).second)
                throw InputError(SourceLoc{f, 0, 0, parsed.get<std::string>()},
                                 "the key \"" + parsed.get<std::string>() +
                                     "\" is written twice in one object (NetBox writes each once: the file was edited)");
            return true;
        };
        try {
            page = json::parse(text, unique);
        } catch (const json::parse_error& e) {
            // Its line as well as its byte: an editor shows lines.
            const std::size_t at = std::min<std::size_t>(e.byte, text.size());
            const int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
            throw InputError(SourceLoc{f, line, 0, ""}, "not JSON (byte " + std::to_string(e.byte) + ")");
        } catch (const json::exception& e) { // a number beyond double's range
            throw InputError(SourceLoc{f, 0, 0, ""}, std::string("not readable JSON: ") + e.what());
        }
        if (!page.is_object() || !page.contains("results") || !page["results"].is_array())
            throw InputError(SourceLoc{f, 0, 0, "results"},
                             "not a NetBox list answer ({count, next, previous, results})");
        if (count < 0 && page.contains("count") && page["count"].is_number_integer())
            count = page["count"].get<long long>();
        std::size_t i = 0;
        for (json& r : page["results"]) {
            rows.push_back({std::move(r), SourceLoc{f, 0, 0, "results[" + std::to_string(i) + "]"}});
            ++i;
        }
    }
    if (count >= 0 && static_cast<long long>(rows.size()) != count)
        throw InputError(SourceLoc{files.front(), 0, 0, "count"},
                         endpoint + ": " + std::to_string(rows.size()) + " results in " + std::to_string(files.size()) +
                             " pages, but the answer's count is " + std::to_string(count) +
                             (static_cast<long long>(rows.size()) < count
                                  ? " (a page is missing)"
                                  : " (more results than NetBox answered: a page written twice, or another export's)"));
    return rows;
}

std::string str(const json& j, const char* key)
{
    return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
}

std::string statusOf(const json& j)
{
    if (!j.is_object() || !j.contains("status"))
        return "";
    const json& s = j["status"];
    // NetBox's values are lower case ("offline"); its label is capitalised ("Offline"): either is read.
    std::string v = s.is_string() ? s.get<std::string>() : str(s, "value");
    std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return v;
}

long long idOf(const json& j)
{
    if (j.is_object() && j.contains("id") && j["id"].is_number_integer())
        return j["id"].get<long long>();
    return -1;
}

/// A nested reference's id (`"rack": {"id": 3, …}`), -1 when null or absent.
long long refId(const json& j, const char* key)
{
    return j.is_object() && j.contains(key) ? idOf(j[key]) : -1;
}

[[noreturn]] void fail(const Row& r, const std::string& field, const std::string& message)
{
    SourceLoc loc = r.loc;
    loc.path += "." + field;
    throw InputError(loc, message);
}

[[noreturn]] void failAt(const SourceLoc& at, const std::string& field, const std::string& message)
{
    SourceLoc loc = at;
    loc.path += "." + field;
    throw InputError(loc, message);
}

std::string number(double v)
{
    char b[32];
    std::snprintf(b, sizeof b, "%.10g", v);
    return b;
}

std::string quoted(const std::string& text)
{
    std::string out = "\"";
    for (const char ch : text) {
        if (ch == '"' || ch == '\\')
            out += '\\';
        if (static_cast<unsigned char>(ch) < 0x20)
            out += ' ';
        else
            out += ch;
    }
    return out + "\"";
}

int openUOf(const Row& rack, const Row& device, double position, int partOu, int usableOu)
{
    const std::string name = str(device.value, "name"), rackName = str(rack.value, "name");
    const auto whole = [&](const char* key, double fallback) {
        if (!rack.value.contains(key) || rack.value[key].is_null())
            return fallback;
        const json& v = rack.value[key];
        const double x = v.is_number() ? v.get<double>() : NAN;
        if (!(x >= 1) || x > 1000 || x != std::floor(x))
            fail(rack, key, "rack \"" + rackName + "\": " + key + " is " + v.dump() + "; it is a whole number from 1");
        return v.get<double>();
    };
    const double start = whole("starting_unit", 1), height = whole("u_height", usableOu);
    bool desc = false;
    if (rack.value.contains("desc_units") && !rack.value["desc_units"].is_null()) {
        if (!rack.value["desc_units"].is_boolean())
            fail(rack, "desc_units", "rack \"" + rackName + "\": desc_units is " + rack.value["desc_units"].dump() +
                                         "; it is true or false");
        desc = rack.value["desc_units"].get<bool>();
    }
    if (!(position <= 1000)) // past any rack (and past what an int holds)
        fail(device, "position",
             "device \"" + name + "\" sits at position " + number(position) +
                 ", beyond any rack's units (at most 1000)");
    if (position != std::floor(position) || !std::isfinite(position))
        fail(device, "position",
             "device \"" + name + "\" sits at position " + number(position) +
                 ": rdt places parts at whole OpenU from 1");
    // Units from the rack's first, then OpenU from the bottom (the part's lowest unit).
    const double fromStart = position - start;
    const double ou = desc ? height - fromStart - partOu + 1 : fromStart + 1;
    if (fromStart < 0 || ou < 1)
        fail(device, "position",
             "device \"" + name + "\" (" + std::to_string(partOu) + " OU) at position " + number(position) +
                 " is outside rack \"" + rackName + "\"'s units " + number(start) + " to " +
                 number(start + height - 1) + (desc ? ", numbered from the top (desc_units)" : ""));
    return static_cast<int>(ou);
}

std::string slugOf(const std::string& name)
{
    std::string out;
    for (const unsigned char c : name) {
        if (std::isalnum(c) || c == '_')
            out += static_cast<char>(std::tolower(c));
        else if (!out.empty() && out.back() != '-')
            out += '-';
    }
    while (!out.empty() && out.back() == '-')
        out.pop_back();
    return out;
}

std::vector<std::string> heightNotes(const std::string& dir, const Catalog& catalog)
{
    std::vector<std::string> notes;
    for (const Row& t : readEndpoint(dir, "device-types", false)) {
        const Part* p = catalog.find(str(t.value, "slug"));
        const json& h = t.value.contains("u_height") ? t.value["u_height"] : json();
        if (p && h.is_number() && h.get<double>() != p->ouHeight)
            notes.push_back("device type " + p->slug + " is " + number(h.get<double>()) + " U in NetBox and " +
                            std::to_string(p->ouHeight) + " OU in the catalog: placed at the catalog's height (" +
                            t.loc.file + ": " + t.loc.path + ".u_height)");
    }
    return notes;
}

} // namespace rdt::core::netbox

namespace rdt::core {

InputError importErrorAtSource(const InputError& e, const NetBoxImport& in, const std::string& baseName)
{
    const int line = e.loc().line;
    for (const auto& [l, from] : in.origins) {
        if (l != line)
            continue;
        // The slot's field back to the device's: its custom field, name, position or type.
        const std::string& path = e.loc().path;
        const std::size_t dot = path.rfind('.');
        const std::string key = dot == std::string::npos ? std::string() : path.substr(dot + 1);
        static const std::map<std::string, std::string> field = {
            {"gpu_power_cap", "custom_fields.rdt_gpu_power_cap"},
            {"utilisation", "custom_fields.rdt_utilisation"},
            {"failed_fans", "custom_fields.rdt_failed_fans"},
            {"feed", "custom_fields.rdt_feed"},
            {"id", "name"},
            {"ou", "position"},
            {"part", "device_type.slug"}};
        SourceLoc at = from;
        if (const auto it = field.find(key); it != field.end())
            at.path += "." + it->second;
        return InputError(at,
                          e.message() + " (line " + std::to_string(line) + " of the design the import would write)");
    }
    if (line > 0 && line < in.layoutLine && !baseName.empty())
        return InputError(SourceLoc{baseName, 0, 0, e.loc().path},
                          e.message() + " (in what the import takes from the base design; line " +
                              std::to_string(line) + " of the design it would write)");
    return InputError(SourceLoc{e.loc().file, e.loc().line, e.loc().column, e.loc().path},
                      e.message() + " (the design the import would write; not written)");
}

} // namespace rdt::core
