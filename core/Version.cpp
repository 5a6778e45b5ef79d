#include "core/Version.h"

#ifndef RDT_VERSION
#define RDT_VERSION "0.0.0"
#endif

namespace rdt::core {

std::string version()
{
    return RDT_VERSION;
}

} // namespace rdt::core
