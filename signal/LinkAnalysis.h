#pragma once
/// \file LinkAnalysis.h
/// Per-link-class verdicts for a design: each class gets a channel from segment models (host PCB
/// traces, twinax of the class's cable length) and, by medium: PCIe Gen5 — insertion-loss budget
/// 36 dB at 16 GHz [X1]; passive copper — COM with a 100 Gb/s-per-lane table, falling back to
/// 50 Gb/s per lane when it does not close; optics — the host (C2M) trace against ~16 dB at
/// 26.56 GHz [E2]. The length analysed is the class's declared length, else its cable's length,
/// else the longest run the placement needs (port positions plus routing slack); the placement
/// length is reported either way.

#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "core/Design.h"
#include "core/ResultStore.h"
#include "signal/Com.h"
#include "signal/PortBudget.h"

namespace rdt::signal {

struct LinkVerdict {
    std::string id;                ///< link class
    std::string kind;              ///< pcie-gen5, copper, optical
    double lengthM = 0;            ///< cable or trace length analysed
    double placementLengthM = NAN; ///< longest cable run the placement needs (rack-scope and
                                   ///< port-to-port classes; NaN where the far end is outside)
    double ilNyquistDb = 0;        ///< at the rate's Nyquist frequency
    double comDb = NAN;            ///< NaN where COM does not apply
    double eyeHeightV = NAN;
    double laneRateGbps = 0; ///< the rate the link holds (0 when none)
    /// Negotiated from both ends' ports (the NIC's for a chassis): the lower port speed and the
    /// lower lane rate, Gb/s (NaN where neither end states one). COM and the eye are evaluated
    /// at the negotiated lane rate's table (100 Gb/s per lane, or 50 below 100 Gb/s lanes).
    double portRateGbps = NAN, negotiatedLaneGbps = NAN;
    double fasterPortGbps = NAN;  ///< the faster end's port speed: what the link would run at alone
    std::string fromPort, toPort; ///< each end's port as catalogued ("meta-minipack2 200 Gb/s, 4 × 53.125 Gb/s")
    bool downgraded = false;      ///< the ends differ: the faster end runs at the slower end's rate
    bool pass = false;
    bool warned = false;     ///< only warning rules' findings (analysis::signalWithRuleVerdicts)
    bool ruleFailed = false; ///< an error rule's finding fails it (analysis::signalWithRuleVerdicts)
    std::string verdict;                    ///< "pass", "fail", "fallback to 50 Gb/s per lane"
    /// How the class stands, as a reviewer reads it: Fail where an error rule's finding fails it or
    /// it closes at no rate; Warn where only warnings' findings are beside it or it closes only at
    /// a fallback rate; else Pass. The Signal panel's colour and the inspector's mark.
    enum class Standing { Pass, Warn, Fail };
    Standing standing() const
    {
        if (ruleFailed)
            return Standing::Fail;
        if (warned || (!pass && laneRateGbps > 0))
            return Standing::Warn;
        return pass ? Standing::Pass : Standing::Fail;
    }
    std::size_t count = 0;                  ///< links of this class
    PulseResponse pulse;                    ///< equalised pulse response (copper) or empty
    double eyeWidthUi = NAN;                ///< statistical eye width at DER0 (copper)
    std::vector<double> eyePhaseUi, eyeBer; ///< statistical eye axes (copper)
    std::vector<std::vector<double>> eyeOpeningV; ///< [BER][phase] inner-eye opening, V
    /// How far the link is from failing, dB: COM − its pass threshold for copper classes, the
    /// insertion-loss budget − IL at Nyquist for classes judged by loss. Negative: it fails.
    double marginDb = NAN;
    /// Insertion loss of the analysed channel against frequency (dB, positive = loss).
    std::vector<double> ilFreqHz, ilDb;
    /// COM breakdown (copper): signal and noise amplitudes at the sampling point, V, and the
    /// equaliser setting COM chose.
    double signalV = NAN, noiseV = NAN, sigmaIsiV = NAN, sigmaXtV = NAN, sigmaTxV = NAN, sigmaJitterV = NAN,
           sigmaRxNoiseV = NAN;
    double ctleGainDb = NAN, txPre = NAN, txPost = NAN;
};

struct SignalResult {
    std::vector<LinkVerdict> links;
    std::vector<PartPorts> ports; ///< every switch and chassis a link class uses (portBudget())
};

/// Analyse every link class. `siProfileDir` holds the COM tables.
SignalResult analyseLinks(const core::Design& design, const std::string& siProfileDir);

/// The port speed a link class's ends negotiate (Gb/s): the slower end's (a chassis' or server's
/// ports are its NICs'); NaN where neither end states one. The signal verdicts' `portRateGbps`,
/// without the channel analysis (the checkpoint's storage servers take their NICs at it).
double negotiatedPortGbps(const core::Design& design, const core::LinkClass& linkClass);
/// From `store` (key "signal"), computed on first use.
std::shared_ptr<const SignalResult> signalFor(const core::Design& design, core::ResultStore& store,
                                              const std::string& siProfileDir);

/// Cable length (m) a rack-scope link between two slots needs: the vertical distance between
/// the middles of the two parts' OU spans plus `slackM` for routing to the ports.
double requiredCableLengthM(const core::Slot& a, const core::Slot& b, double ouPitchM, double slackM);

/// Open Rack V3 OpenU pitch (m) and the default routing slack per cable (m): front-panel port to
/// cable tray and back, an estimate; rule profiles may set `routing_slack`.
inline constexpr double kOpenUM = 0.048;
inline constexpr double kRoutingSlackM = 0.5;

/// Calls `fn(rack, fromSlot, nearestToSlot or nullptr)` for each from-end instance of a rack-scope
/// class; the far end is the nearest part of the class's `to` kind in the same rack.
template <typename Fn>
void forEachRackLink(const core::Design& d, const core::LinkClass& l, Fn fn)
{
    if (l.scope != "rack")
        return;
    for (const core::Rack& rack : d.racks) {
        if (!l.appliesTo(rack))
            continue;
        for (const core::Slot& from : rack.slots) {
            if (from.part->slug != l.from.partSlug)
                continue;
            const core::Slot* best = nullptr;
            double bestDist = std::numeric_limits<double>::max();
            for (const core::Slot& to : rack.slots) {
                if (&to == &from || to.part->slug != l.to.partSlug)
                    continue;
                const double dist = std::fabs((to.ou + to.top()) - (from.ou + from.top()));
                if (dist < bestDist) {
                    bestDist = dist;
                    best = &to;
                }
            }
            fn(rack, from, best);
        }
    }
}

/// Host board trace assumed at each end of a cable (m) and the PCIe GPU↔NIC default (m): estimates.
inline constexpr double kHostTraceM = 0.10;
inline constexpr double kPcieDefaultM = 0.25;

} // namespace rdt::signal
