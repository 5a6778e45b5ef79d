#pragma once
/// \file TouchstoneCommand.h
/// `rdt touchstone FILE [--info] [--to s|z|y|abcd|t] [--z0 OHMS] [--mixed-mode]
/// [--format csv|json|touchstone] [-o OUT]`.

#include <string>

namespace rdt::cli {

struct TouchstoneArgs {
    std::string file;
    bool info = false;
    std::string to = "s";
    double z0 = 0.0; ///< > 0: renormalise all ports
    bool mixedMode = false;
    std::string format = "csv";
    std::string output;
};

int runTouchstone(const TouchstoneArgs& args);

} // namespace rdt::cli
