#pragma once
/// \file Colouring.h
/// How the 3D view and the elevation colour parts. The editor ships "Part kind" and
/// "Problems"; each solver adds its own (e.g. GPU junction temperature) by registering a
/// Colouring — the views do not change.

#include <cmath>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/PartField.h"
#include "core/Rules.h"

namespace rdt::editor {

struct Rgb {
    float r = 0.5f, g = 0.5f, b = 0.5f;
};

/// What a colouring may look at.
struct ColourContext {
    const core::Design& design;
    const std::vector<core::Violation>& violations;
    const std::vector<core::PartField>* fields = nullptr; ///< solver results per part; null before the first check
    /// Scale ranges fixed by the user, by colouring name (lo, hi in the field's unit); absent: auto.
    const std::map<std::string, std::pair<double, double>>* fixedRanges = nullptr;
    /// Colourings the user switched from their limits' scale to the data's range, by name.
    const std::set<std::string>* dataRanged = nullptr;
};

class Colouring {
public:
    virtual ~Colouring() = default;
    virtual std::string name() const = 0;
    /// Called once per design/violations update, before partColour().
    virtual void prepare(const ColourContext& ctx) { (void)ctx; }
    virtual Rgb partColour(const ColourContext& ctx, int rack, int slot) const = 0;
    /// Legend entries (label, colour).
    virtual std::vector<std::pair<std::string, Rgb>> legend() const = 0;
    /// The field behind a continuous colouring (for a scalar bar), after prepare(); null otherwise.
    virtual const core::PartField* field() const { return nullptr; }
    /// The scale's range after prepare() (the field's own, or one the user fixed); NaN otherwise.
    virtual std::pair<double, double> range() const { return {NAN, NAN}; }
    /// How bad a part is on this colouring (larger is worse; 0: nothing to say), after prepare():
    /// a rack drawn as one box at hall scale takes its worst part's colour.
    virtual double badness(const ColourContext& ctx, int rack, int slot) const
    {
        (void)ctx;
        (void)rack;
        (void)slot;
        return 0.0;
    }
};

/// The data-range scale of continuous colourings, t in [0, 1] from the good end (blue) through a
/// light grey to the bad end (orange): Moreland's cool-to-warm map with its red end replaced, so
/// that red means only "beyond the limit".
Rgb scaleColour(double t);
/// The anchored scale's bands: pass (blue, darker further from the near edge), near (amber, deeper
/// towards the limit), fail (one red whatever the value). `t` runs 0 … 1 across the band.
Rgb passColour(double t);
Rgb nearColour(double t);
Rgb failColour();
/// Colour for parts without a figure in a continuous colouring.
Rgb noDataColour();

/// Colours every part by a solver field (core/PartField.h) found by name in the context. By default
/// the scale is anchored to the field's limits (PartField::limit, nearLimit): pass, near and fail
/// bands that read the same in every view, each part judged against its own limits, a value
/// beyond its limit in the fail red whatever the other parts do. Fields without limits, and fields
/// the user switches to their data's range (ColourContext::dataRanged), use scaleColour() over the
/// values' range (one colour when they differ by less than PartField::minSpan), values beyond a
/// limit still red. Light grey where the part has no figure. Racks stamped from one template
/// still get their own values.
class FieldColouring : public Colouring {
public:
    explicit FieldColouring(std::string fieldName) : m_name(std::move(fieldName)) {}
    std::string name() const override { return m_name; }
    void prepare(const ColourContext& ctx) override;
    Rgb partColour(const ColourContext& ctx, int rack, int slot) const override;
    std::vector<std::pair<std::string, Rgb>> legend() const override;
    const core::PartField* field() const override { return m_field; }
    std::pair<double, double> range() const override { return {m_lo, m_hi}; }
    double badness(const ColourContext& ctx, int rack, int slot) const override;
    /// True when the scale is the limits' (not the data's range).
    bool anchoredScale() const { return m_anchored; }
    /// The colour of a value against the field's own (scalar) limits: what the scalar bar shows.
    Rgb valueColour(double value) const;
    /// The scale's marks: (value, label) of the near edge and the limit, for the scalar bar.
    std::vector<std::pair<double, std::string>> marks() const;
    /// Where a value sits on the scale: 0 good end … 1 bad end (NaN for no value).
    double position(double value) const;

private:
    Rgb colourOf(double value, double limit, double nearEdge) const;
    std::string m_name;
    const core::PartField* m_field = nullptr;
    double m_lo = NAN, m_hi = NAN;
    bool m_anchored = false;
    bool m_flat = false; ///< data range below the field's meaningful span
};

/// A value with its unit as the legends print it ("35 °C", "90 %").
std::string withUnit(double value, const std::string& unit);

/// Colour of a part kind (also used by the elevation).
Rgb kindColour(core::PartKind kind);

/// The built-in colourings: "Part kind", "Problems".
std::vector<std::unique_ptr<Colouring>> builtinColourings();

} // namespace rdt::editor
