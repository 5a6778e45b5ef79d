#pragma once
// Shared by the libFuzzer harnesses: every parser must end in its value or a located InputError.
// Anything else escaping (std::out_of_range, std::bad_alloc, YAML::Exception, a crash found by
// ASan/UBSan) is a finding: libFuzzer stops and writes the input to crash-*.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/Error.h"

#ifndef RDT_DATA_DIR
#define RDT_DATA_DIR "data"
#endif

namespace rdt::fuzz {

inline std::string text(const std::uint8_t* data, std::size_t size)
{
    return std::string(reinterpret_cast<const char*>(data), size);
}

/// Run `fn`; located input errors are the expected outcome for bad input.
template <typename Fn>
void expectInputErrors(Fn fn)
{
    try {
        fn();
    } catch (const core::InputError&) {
    }
}

} // namespace rdt::fuzz
