#pragma once
/// \file PortBudget.h
/// Ports counted per part instance: the links every link class lands on each switch (rack-scope
/// links from the parts in its rack, uplinks from it to the fabric, port-to-port links) and the
/// ports each chassis uses, against the switch's `ports` and the chassis' catalogued interfaces;
/// each rack switch's oversubscription from the negotiated port rates of its down- and uplinks.

#include <string>
#include <vector>

#include "core/Design.h"

namespace rdt::signal {

struct LinkVerdict;

/// One switch or chassis instance's ports.
struct PartPorts {
    std::string id, part, rack;
    bool isSwitch = false;
    /// Switch `ports`; a chassis' catalogued interfaces, else its NICs' ports; 0: not in the catalog.
    int available = 0;
    int used = 0;                ///< links landing on it, every class together
    int downlinks = 0, uplinks = 0; ///< switches: rack-scope links in, fabric-scope links out
    double downGbps = 0, upGbps = 0; ///< at each class' negotiated port rate
    /// Down over up bandwidth (NaN without uplinks): the rack tier's oversubscription.
    double oversubscription = NAN;
    std::string byClass; ///< "nic-rtsw 16, rtsw-ctsw 16"
};

/// Every switch and every chassis that a link class uses, in design order.
std::vector<PartPorts> portBudget(const core::Design& design, const std::vector<LinkVerdict>& links);

} // namespace rdt::signal
