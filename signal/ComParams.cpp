#include "signal/Com.h"

#include <algorithm>
#include <cmath>

#include "core/Yaml.h"

namespace rdt::signal {

std::vector<double> Range::values() const
{
    std::vector<double> v;
    for (double x = from; x <= to + 1e-9 * std::max(1.0, std::fabs(to)); x += step)
        v.push_back(x);
    return v;
}

namespace {

Range readRange(const core::Cursor& c, core::Dimension dim)
{
    c.allowKeys({"from", "to", "step"});
    Range r{c["from"].quantity(dim, core::Range::any()), c["to"].quantity(dim, core::Range::any()),
            c["step"].quantity(dim, core::Range{1e-12, 1e12})};
    if (r.to < r.from)
        c.fail("`to` must not be below `from`");
    return r;
}

} // namespace

ComParams ComParams::load(const std::string& nameOrPath)
{
    const std::string text = core::readTextFile(nameOrPath);
    const core::Cursor doc = core::Cursor::parse(text, nameOrPath);
    doc.allowKeys({"name",
                   "title",
                   "source",
                   "symbol_rate",
                   "levels",
                   "samples_per_ui",
                   "der",
                   "tx_rise_time",
                   "level_mismatch",
                   "victim_amplitude",
                   "fext_amplitude",
                   "next_amplitude",
                   "dual_dirac_jitter",
                   "random_jitter",
                   "tx_snr",
                   "noise_density",
                   "ctle",
                   "tx_ffe",
                   "dfe_taps",
                   "dfe_limit",
                   "rx_bandwidth",
                   "pass_threshold",
                   "package"});
    using D = core::Dimension;
    ComParams p;
    p.name = doc["name"].str();
    if (auto t = doc.find("title"))
        p.title = t->str();
    if (auto s = doc.find("source"))
        p.source = s->str();
    p.baudHz = doc["symbol_rate"].quantity(D::Frequency, core::Range{1e8, 1e12});
    p.levels = static_cast<int>(doc["levels"].integer(2, 16));
    p.samplesPerUi = static_cast<int>(doc["samples_per_ui"].integer(8, 256));
    p.der = doc["der"].number(1e-15, 1e-2);
    p.txRiseS = doc["tx_rise_time"].quantity(D::Time);
    p.levelMismatch = doc["level_mismatch"].quantity(D::Ratio, core::Range{0.5, 1.0});
    p.victimV = doc["victim_amplitude"].quantity(D::Voltage, core::Range{1e-3, 5});
    p.fextV = doc["fext_amplitude"].quantity(D::Voltage, core::Range{0, 5});
    p.nextV = doc["next_amplitude"].quantity(D::Voltage, core::Range{0, 5});
    p.dualDiracUi = doc["dual_dirac_jitter"].number(0, 1);
    p.randomJitterUi = doc["random_jitter"].number(0, 1);
    p.txSnrDb = doc["tx_snr"].quantity(D::Gain, core::Range{0, 100});
    p.noiseDensity = doc["noise_density"].quantity(D::NoiseDensity, core::Range{0, 1});
    const core::Cursor c = doc["ctle"];
    c.allowKeys({"zero", "pole1", "pole2", "dc_gain"});
    p.ctleZeroHz = c["zero"].quantity(D::Frequency, core::Range{1e6, 1e12});
    p.ctlePole1Hz = c["pole1"].quantity(D::Frequency, core::Range{1e6, 1e12});
    p.ctlePole2Hz = c["pole2"].quantity(D::Frequency, core::Range{1e6, 1e12});
    p.ctleGainDb = readRange(c["dc_gain"], D::Gain);
    const core::Cursor ffe = doc["tx_ffe"];
    ffe.allowKeys({"pre", "post"});
    p.txPre = readRange(ffe["pre"], D::Ratio);
    p.txPost = readRange(ffe["post"], D::Ratio);
    p.dfeTaps = static_cast<int>(doc["dfe_taps"].integer(0, 64));
    p.dfeLimit = doc["dfe_limit"].quantity(D::Ratio, core::Range{0, 10});
    p.rxBandwidth = doc["rx_bandwidth"].quantity(D::Ratio, core::Range{0.05, 2});
    p.passDb = doc["pass_threshold"].quantity(D::Gain, core::Range::any());
    if (const auto pk = doc.find("package")) {
        pk->allowKeys({"die_capacitance", "pad_capacitance", "termination", "reference", "line_impedance",
                       "line_lengths", "case", "line_loss"});
        PackageModel& m = p.package;
        m.enabled = true;
        m.dieCapF = (*pk)["die_capacitance"].quantity(D::Capacitance, core::Range{0, 1e-9});
        m.padCapF = (*pk)["pad_capacitance"].quantity(D::Capacitance, core::Range{0, 1e-9});
        m.termOhm = (*pk)["termination"].quantity(D::Resistance, core::Range{1, 1000});
        m.refOhm = (*pk)["reference"].quantity(D::Resistance, core::Range{1, 1000});
        m.lineOhm = (*pk)["line_impedance"].quantity(D::Resistance, core::Range{1, 1000});
        const core::Cursor lengths = (*pk)["line_lengths"];
        lengths.requireSequence();
        for (const core::Cursor& l : lengths.elements())
            m.lengthsMm.push_back(l.quantity(D::Length, core::Range{0, 1.0}) * 1e3);
        if (m.lengthsMm.empty())
            lengths.fail("at least one package line length");
        if (const auto k = pk->find("case"))
            m.caseIndex = static_cast<int>(k->integer(1, static_cast<long long>(m.lengthsMm.size()))) - 1;
        const core::Cursor loss = (*pk)["line_loss"];
        loss.allowKeys({"gamma0", "a1", "a2", "tau"});
        m.gamma0 = loss["gamma0"].number(0, 1);  // 1/mm
        m.a1 = loss["a1"].number(0, 1);          // ns^½/mm
        m.a2 = loss["a2"].number(0, 1);          // ns/mm
        m.tauNsPerMm = loss["tau"].number(0, 1); // ns/mm
    }
    return p;
}

} // namespace rdt::signal
