#pragma once
/// \file RunSubjects.h
/// The subjects a rule named in a run, in the order it reported them (the sign-off tests).

#include <string>
#include <vector>

#include "analysis/Pipeline.h"

namespace rdt::test {

inline std::vector<std::string> subjects(const analysis::RunResult& r, const std::string& rule)
{
    std::vector<std::string> out;
    for (const core::Violation& v : r.violations)
        if (v.rule == rule)
            out.push_back(v.subject);
    return out;
}

} // namespace rdt::test
