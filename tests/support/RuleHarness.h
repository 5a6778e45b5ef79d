#pragma once
// Test helper: load a design from text against the shipped catalog and run the rules that
// one library registers, with an all-defaults profile.

#include <string>
#include <vector>

#include "core/Design.h"
#include "core/Rules.h"

namespace rdt::test {

inline const std::string kDataDir = RDT_SOURCE_DIR "/data";

/// A design of one rack `k` in row `w` of hall `h`, with the given slot list (YAML flow items).
inline std::string oneRack(const std::string& rackType, const std::string& slots)
{
    return "layout: {halls: [{id: h, rows: [{id: w, racks: [{id: k, rack_type: " + rackType + ", slots: [" + slots +
           "]}]}]}]}\n";
}

/// Run the rules `registerFn` adds on the design text; profile text optional.
template <typename RegisterFn>
std::vector<core::Violation> runRules(const std::string& designText, RegisterFn registerFn,
                                      const std::string& profileText = "name: t\n")
{
    const core::Design d = core::loadDesignText(designText, "test.yaml", kDataDir + "/catalog");
    core::CheckRegistry reg;
    registerFn(reg);
    core::Progress progress;
    return core::runChecks(d, reg, core::Profile::loadText(profileText, "profile.yaml", reg), progress);
}

} // namespace rdt::test
