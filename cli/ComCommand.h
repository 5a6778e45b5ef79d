#pragma once
/// \file ComCommand.h
/// `rdt com THRU [--fext FILE …] [--next FILE …] [--profile NAME] [--json]`.

#include <string>
#include <vector>

namespace rdt::cli {

struct ComArgs {
    std::string thru;
    std::vector<std::string> fext, next;
    std::string profile = "ieee8023by-kr4";
    bool json = false;
};

int runCom(const ComArgs& args);

} // namespace rdt::cli
