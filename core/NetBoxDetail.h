#pragma once
/// \file NetBoxDetail.h
/// What the NetBox import's files share: reading an endpoint's pages and a result's fields.

#include <nlohmann/json.hpp>

#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "core/Catalog.h"
#include "core/Error.h"

namespace rdt::core::netbox {

using nlohmann::json;

/// One result of a NetBox list answer and where it is (file, `results[i]`).
struct Row {
    json value;
    SourceLoc loc;
};

/// Every result of one endpoint's pages, in page order; pages must add up to the first's count.
/// A missing endpoint is an error when `required`, else no rows.
std::vector<Row> readEndpoint(const std::string& dir, const std::string& endpoint, bool required);
/// A string field, empty when absent or not a string.
std::string str(const json& j, const char* key);
/// The result's `id`, -1 when absent.
long long idOf(const json& j);
/// A nested reference's id (`"rack": {"id": 3, …}`), -1 when null or absent.
long long refId(const json& j, const char* key);
/// An InputError at the row's `field`.
[[noreturn]] void fail(const Row& r, const std::string& field, const std::string& message);
/// An InputError at `field` of the result at `loc`.
[[noreturn]] void failAt(const SourceLoc& loc, const std::string& field, const std::string& message);
/// A racked device's OpenU counted from 1 at the bottom, as rdt places it, from its NetBox
/// `position` in `rack`: NetBox counts from the rack's `starting_unit` (1 when absent), downward
/// from the top when `desc_units`, over the rack's `u_height` (`usableOu` when absent); `partOu` is
/// the part's height. InputError at the device's position (or the rack's field) when it cannot be.
int openUOf(const Row& rack, const Row& device, double position, int partOu, int usableOu);
/// A NetBox slug for `name`: lower case letters, digits and hyphens ("Open Compute Project" →
/// "open-compute-project").
std::string slugOf(const std::string& name);
/// Device types (`device-types.json`, when there) whose `u_height` differs from their catalog part's
/// height: one note each (the part is placed at the catalog's height).
std::vector<std::string> heightNotes(const std::string& dir, const Catalog& catalog);
/// A number as rdt writes it in YAML (%.10g).
std::string number(double v);
/// `text` as a double-quoted YAML scalar.
std::string quoted(const std::string& text);

/// Interface cables between two device types (slugs in order).
struct CablePair {
    long long cables = 0, withoutLength = 0;
    double longestM = NAN;
    std::string longest; ///< file and JSON path of the longest
};

/// What `power-feeds` and `cables` pages say (both optional).
struct CableSummary {
    std::size_t powerFeeds = 0;
    long long powerCables = 0, otherCables = 0, openCables = 0;
    /// Device → the feeds its power ports are cabled to (feed id, where the cable is).
    std::map<long long, std::vector<std::pair<long long, SourceLoc>>> deviceFeeds;
    std::map<long long, std::string> feedLetter;                    ///< feed id → `A` / `B` in its rack
    std::map<long long, std::vector<std::string>> rackFeeds;        ///< rack id → `A: {value: …, source: …}`
    std::map<std::pair<std::string, std::string>, CablePair> pairs; ///< interface cables by device types
    std::vector<std::string> uncabled;                              ///< power feeds no shelf is cabled to
    /// Feeds NetBox says are offline or failed: feed id → its name and status. They carry nothing, so
    /// the shelves cabled to them add no capacity (they are left out, and listed).
    std::map<long long, std::string> deadFeeds;
    std::map<long long, SourceLoc> feedLoc; ///< feed id → its row (file, JSON path)
};

/// NetBox's status of a device or power feed (`status.value`, or a plain string), "" when absent.
std::string statusOf(const json& j);

/// Read `power-feeds` and `cables`: broken references are InputErrors at the cable; a rack's feeds
/// are lettered A, B (primary before redundant, then by name).
CableSummary readCables(const std::string& dir, const std::map<long long, const Row*>& deviceById);

/// Link classes of `base` (a design being imported into) joining two parts that NetBox cables
/// join are checked at the longest such cable when it is longer than the class assumed (its
/// `length:` or its catalog cable's); every class touched, and every pair of parts no class joins,
/// gets a line in `notes`.
void applyCableLengths(YAML::Node base, const CableSummary& cab, const Catalog& catalog,
                       std::vector<std::string>& notes);

/// A declared feed as NetBox holds one: 415 V three-phase, whole amperes at 80 % (fewer per cent on
/// one ampere), rounded down so that the power NetBox computes from them (it recomputes
/// available_power on save) is never more than the design's. InputError at `loc` under 7.2 W.
struct FeedRating {
    double amperage = 0, maxUtilisation = 80, availableW = 0;
};
FeedRating feedRating(double declaredW, const SourceLoc& loc, const std::string& feed);

/// Refuses (InputError) a folder that holds NetBox pages an export would not overwrite (an earlier
/// export's power feeds, or more pages of an endpoint): the import would read them with the new ones.
void refuseStalePages(const std::string& dir, const std::vector<std::string>& files);

} // namespace rdt::core::netbox
