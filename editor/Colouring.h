#pragma once
/// \file Colouring.h
/// How the 3D view and the elevation colour parts. The editor ships "Part kind" and
/// "Problems"; each solver adds its own (e.g. GPU junction temperature) by registering a
/// Colouring — the views do not change.

#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/Field.h"
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
};

/// The colour scale of continuous colourings, t in [0, 1] from the good end (blue) through a light
/// grey to the bad end (red): Moreland's cool-to-warm diverging map.
Rgb scaleColour(double t);
/// Colour for parts without a figure in a continuous colouring.
Rgb noDataColour();

/// Colours every part by a solver field (core/Field.h) found by name in the context: red at the bad
/// end of the field's range, blue at the good end, light grey where the part has no figure. Racks
/// stamped from one template still get their own values.
class FieldColouring : public Colouring {
public:
    explicit FieldColouring(std::string fieldName) : m_name(std::move(fieldName)) {}
    std::string name() const override { return m_name; }
    void prepare(const ColourContext& ctx) override;
    Rgb partColour(const ColourContext& ctx, int rack, int slot) const override;
    std::vector<std::pair<std::string, Rgb>> legend() const override;
    const core::PartField* field() const override { return m_field; }
    std::pair<double, double> range() const override { return {m_lo, m_hi}; }
    /// Where a value sits on the scale: 0 good end … 1 bad end (NaN for no value).
    double position(double value) const;

private:
    std::string m_name;
    const core::PartField* m_field = nullptr;
    double m_lo = NAN, m_hi = NAN;
};

/// Colour of a part kind (also used by the elevation).
Rgb kindColour(core::PartKind kind);

/// The built-in colourings: "Part kind", "Problems".
std::vector<std::unique_ptr<Colouring>> builtinColourings();

} // namespace rdt::editor
