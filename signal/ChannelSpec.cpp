#include "signal/ChannelSpec.h"

#include <algorithm>
#include <filesystem>

#include "core/Yaml.h"
#include "models/ChannelModels.h"
#include "signal/Com.h"
#include "signal/NetworkAlgebra.h"
#include "signal/Touchstone.h"

namespace rdt::signal {

using cd = std::complex<double>;
using core::Dimension;

namespace {

/// A real channel is a handful of segments (package, traces, vias, connector, cable); hundreds is a
/// generated file gone wrong, and 40,000 took 31 s.
constexpr std::size_t kMaxSegments = 1000;

} // namespace

Network synthesiseChannel(const std::string& path)
{
    return synthesiseChannelText(core::readTextFile(path), path);
}

Network synthesiseChannelText(const std::string& text, const std::string& path)
{
    const core::Cursor doc = core::Cursor::parse(text, path);
    doc.allowKeys({"name", "frequency", "reference", "segments"});
    const core::Cursor fc = doc["frequency"];
    fc.allowKeys({"from", "to", "step"});
    const double f0 = fc["from"].quantity(Dimension::Frequency),
                 f1 = fc["to"].quantity(Dimension::Frequency, {1e6, 1e12});
    const double df = fc["step"].quantity(Dimension::Frequency, {1e3, 1e12});
    if (f1 <= f0)
        fc["to"].fail("`to` must be above `from`");
    if ((f1 - f0) / df > 200000)
        fc["step"].fail("more than 200,000 frequency points; use a coarser step");
    const double z0 = doc.has("reference") ? doc["reference"].quantity(Dimension::Resistance, {1, 1000}) : 50.0;

    std::vector<double> f;
    for (double x = f0; x <= f1 + 1e-6; x += df)
        f.push_back(x);
    std::vector<cd> h(f.size(), 1.0);
    const std::filesystem::path base = std::filesystem::path(path).parent_path();
    const core::Cursor segments = doc["segments"];
    segments.requireSequence();
    if (segments.size() > kMaxSegments)
        segments.fail(std::to_string(segments.size()) + " segments; a channel spec holds at most " +
                      std::to_string(kMaxSegments) + " (channel segment limit)");
    for (const core::Cursor& seg : segments.elements()) {
        const std::string kind = seg["kind"].str();
        if (kind == "trace") {
            seg.allowKeys({"kind", "length", "width", "impedance", "dk", "df", "roughness"});
            models::TraceModel t;
            const double len = seg["length"].quantity(Dimension::Length, {0, 10});
            if (auto w = seg.find("width"))
                t.widthM = w->quantity(Dimension::Length, {1e-6, 0.01});
            if (auto z = seg.find("impedance"))
                t.impedanceOhm = z->quantity(Dimension::Resistance, {1, 500});
            if (auto d = seg.find("dk"))
                t.dk = d->number(1.0, 20.0);
            if (auto d = seg.find("df"))
                t.df = d->number(0.0, 0.2);
            if (auto r = seg.find("roughness"))
                t.roughnessM = r->quantity(Dimension::Length, {0, 1e-4});
            for (std::size_t k = 0; k < f.size(); ++k)
                h[k] *= std::exp(-t.gamma(std::max(f[k], 1e6)) * len);
        } else if (kind == "twinax") {
            seg.allowKeys({"kind", "length", "awg"});
            models::TwinaxModel c;
            const double len = seg["length"].quantity(Dimension::Length, {0, 100});
            if (auto a = seg.find("awg"))
                c.awg = static_cast<int>(a->integer(20, 40));
            for (std::size_t k = 0; k < f.size(); ++k)
                h[k] *= std::exp(-c.gamma(std::max(f[k], 1e6)) * len);
        } else if (kind == "touchstone") {
            seg.allowKeys({"kind", "file"});
            const core::Cursor fileField = seg["file"];
            const std::string file = (base / fileField.str()).string();
            // The spec's line comes first; the Touchstone file's own error (its file and line) follows.
            Network measured;
            try {
                measured = readTouchstone(file);
            } catch (const core::InputError& e) {
                fileField.fail(std::string("cannot use the measured segment: ") + e.what());
            }
            if (measured.ports() != 4 && measured.ports() != 2)
                fileField.fail("a measured segment must be a 2-port or a 4-port (through 1→2, 3→4); \"" +
                               core::clipped(file) + "\" has " + std::to_string(measured.ports()) + " ports");
            // Below the first point the response is carried to DC, which a segment measured from far
            // above the spec's start would make up (the KR4 through from 12 GHz on became a file
            // "from 0 Hz" and COM -8.63 dB; rdt com refuses such a file itself): at most 100 MHz
            // above it, where measured data starts (10 or 50 MHz). Above the last point it is unknown.
            if (measured.freqHz.front() > std::max(f.front(), 100e6) * (1 + 1e-9))
                fileField.fail("\"" + core::clipped(file) + "\" is measured from " +
                               core::formatQuantity(measured.freqHz.front(), Dimension::Frequency) +
                               ": below that its response would be made up down to the spec's " +
                               core::formatQuantity(f.front(), Dimension::Frequency) +
                               "; a measured segment must start at or below 100 MHz (or the spec's frequency.from)");
            if (f.back() > measured.freqHz.back() * (1 + 1e-9))
                fileField.fail("\"" + core::clipped(file) + "\" is measured up to " +
                               core::formatQuantity(measured.freqHz.back(), Dimension::Frequency) +
                               "; the spec's frequency range goes to " +
                               core::formatQuantity(f.back(), Dimension::Frequency) +
                               " — lower frequency.to or use a wider measurement");
            const Network n = interpolate(measured, f);
            const std::vector<cd> t = n.ports() == 4 ? sdd21(n) : [&] {
                std::vector<cd> v;
                for (const auto& s : n.s)
                    v.push_back(s(1, 0));
                return v;
            }();
            for (std::size_t k = 0; k < f.size(); ++k)
                h[k] *= t[k];
        } else {
            seg["kind"].fail("unknown segment kind \"" + kind + "\" (trace, twinax or touchstone)" +
                             core::didYouMean(kind, {"trace", "twinax", "touchstone"}));
        }
    }
    Network out;
    out.freqHz = f;
    out.z0 = Eigen::VectorXd::Constant(4, z0);
    for (const cd& v : h) {
        CMatrix s = CMatrix::Zero(4, 4);
        s(1, 0) = s(0, 1) = s(3, 2) = s(2, 3) = v;
        out.s.push_back(s);
    }
    out.comments.push_back("synthesised by rdt channel from " + path);
    return out;
}

} // namespace rdt::signal
