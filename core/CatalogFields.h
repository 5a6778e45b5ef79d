#pragma once
/// \file CatalogFields.h
/// The fields each catalog part kind accepts in its `rdt:` section (internal to the catalog reader).

#include <vector>

#include "core/Catalog.h"
#include "core/Units.h"

namespace rdt::core::detail {

enum class FieldType { Quantity, Integer, Number, Text, Curve };

/// One field of the `rdt:` section. `path` may be dotted (`power.max`) for a field in a group.
struct FieldSpec {
    const char* path;
    FieldType type;
    Dimension dim;
    double min;
    double max;
    Dimension yDim = Dimension::Ratio; ///< curves: dimension of y
    double yMin = 0.0;                 ///< curves: y range
    double yMax = 0.0;
};

/// The fields `kind` accepts (besides kind, ou_height, busbar_tap).
std::vector<FieldSpec> fieldsFor(PartKind kind);

} // namespace rdt::core::detail
