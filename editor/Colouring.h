#pragma once
/// \file Colouring.h
/// How the 3D view and the elevation colour parts. The editor ships "Part kind" and
/// "Problems"; each solver adds its own (e.g. GPU junction temperature) by registering a
/// Colouring — the views do not change.

#include <memory>
#include <string>
#include <vector>

#include "core/Rules.h"

namespace rdt::editor {

struct Rgb {
    float r = 0.5f, g = 0.5f, b = 0.5f;
};

/// What a colouring may look at.
struct ColourContext {
    const core::Design& design;
    const std::vector<core::Violation>& violations;
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
};

/// Colour of a part kind (also used by the elevation).
Rgb kindColour(core::PartKind kind);

/// The built-in colourings: "Part kind", "Problems".
std::vector<std::unique_ptr<Colouring>> builtinColourings();

} // namespace rdt::editor
