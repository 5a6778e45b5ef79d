// The design's power: every rack's budget (racks stamped from one template evaluated once), summed
// by row, pod, hall and site, and the CDUs' draw (split from Budget.cpp, which holds one rack's).
#include "power/Budget.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include "core/WhatIf.h"
#include "models/PowerModels.h"
#include "power/BudgetDetail.h"

namespace rdt::power {

namespace {

/// Racks stamped from one template are identical but for their ids when their fans run alike.
std::string bodyKey(const core::Rack& rack, std::size_t i, const PowerOptions& o)
{
    if (rack.bodyPath.empty())
        return {};
    std::string key = rack.bodyPath;
    if (i < o.fanSpeeds.size())
        for (double s : o.fanSpeeds[i]) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "|%.17g", s);
            key += buf;
        }
    return key;
}

void addRack(GroupPower& g, const RackPower& r)
{
    ++g.racks;
    g.racksOverBudget += r.fits ? 0 : 1;
    for (const PartPower& p : r.parts) {
        g.itLoadW += p.budgetW;
        g.modelledLoadW += p.modelledW;
        g.nameplateLoadW += std::isnan(p.nameplateW) ? p.modelledW : p.nameplateW;
        g.peakLoadW += p.peakW;
        if (!p.busbar)
            g.acInputW += p.budgetW; // own AC supplies: rated at their input
    }
    if (!r.fed)
        g.unfedLoadW += r.itLoadW;
    g.acInputW += r.acInputW;
    g.psuLossW += r.psuLossW;
    g.conversionLossW += r.conversionLossW;
    g.cduW += r.cduW;
    g.cduModelledW += r.cduModelledW;
}

void addGroup(GroupPower& to, const GroupPower& g)
{
    to.racks += g.racks;
    to.racksOverBudget += g.racksOverBudget;
    to.itLoadW += g.itLoadW;
    to.modelledLoadW += g.modelledLoadW;
    to.nameplateLoadW += g.nameplateLoadW;
    to.peakLoadW += g.peakLoadW;
    to.unfedLoadW += g.unfedLoadW;
    to.acInputW += g.acInputW;
    to.psuLossW += g.psuLossW;
    to.conversionLossW += g.conversionLossW;
    to.cduW += g.cduW;
    to.cduModelledW += g.cduModelledW;
}

} // namespace

PowerResult computePower(const core::Design& d, const PowerOptions& o)
{
    PowerResult res;
    res.basis = o.basis;
    res.fanSpeedsSolved = !o.fanSpeeds.empty();
    res.rideThroughS = o.rideThroughS;
    res.racks.reserve(d.racks.size());
    std::map<std::string, std::size_t> firstOfBody;
    for (std::size_t i = 0; i < d.racks.size(); ++i) {
        const core::Rack& rack = d.racks[i];
        const std::string key = bodyKey(rack, i, o);
        const auto [it, added] = firstOfBody.emplace(key, i);
        if (added || key.empty()) {
            res.racks.push_back(rackPower(d, i, o));
            continue;
        }
        RackPower copy = res.racks[it->second];
        const std::string& from = copy.id;
        auto rename = [&](std::string& id) { id = rack.id + id.substr(from.size()); };
        for (ShelfPower& sh : copy.shelves)
            rename(sh.id);
        for (LoadPoint& l : copy.loads)
            rename(l.id);
        for (ClipCurrent& c : copy.clips)
            rename(c.id);
        for (PartPower& p : copy.parts)
            rename(p.id);
        copy.id = rack.id;
        copy.rack = static_cast<int>(i);
        res.racks.push_back(std::move(copy));
    }
    auto groups = [&](const std::vector<core::Group>& gs, std::vector<GroupPower>& out) {
        for (const core::Group& g : gs) {
            GroupPower p{g.id};
            for (int ri : g.racks)
                addRack(p, res.racks[static_cast<std::size_t>(ri)]);
            out.push_back(p);
        }
    };
    detail::addCdus(d, o, res);
    groups(d.rows, res.rows);
    groups(d.pods, res.pods);
    groups(d.halls, res.halls);
    res.cluster.id = "cluster";
    for (const GroupPower& h : res.halls)
        addGroup(res.cluster, h);
    for (const RackPower& r : res.racks)
        if (!std::isnan(r.gpuCapToFitW))
            res.suggestedGpuCapW =
                std::isnan(res.suggestedGpuCapW) ? r.gpuCapToFitW : std::min(res.suggestedGpuCapW, r.gpuCapToFitW);
    return res;
}

} // namespace rdt::power
