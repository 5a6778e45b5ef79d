#pragma once
/// \file Error.h
/// Located input errors: every bad-input message names file, line, column and the
/// path of the offending field in the document.

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace rdt::core {

/// Where something came from in an input file. Lines and columns are 1-based; 0 means unknown.
struct SourceLoc {
    std::string file; ///< path as given by the user (or catalog path)
    int line = 0;     ///< 1-based line, 0 when unknown
    int column = 0;   ///< 1-based column, 0 when unknown
    std::string path; ///< document path, e.g. `templates.gt-rack.slots[3].part`

    /// `file:line:col` (parts that are unknown are left out).
    std::string position() const;
};

/// Bad input (malformed file, unknown part, negative power, missing unit, ...).
/// `what()` reads `file:line:col: path: message`. The CLI exits 2 on it.
class InputError : public std::runtime_error {
public:
    InputError(SourceLoc loc, std::string message);
    const SourceLoc& loc() const { return m_loc; }
    const std::string& message() const { return m_message; }

private:
    SourceLoc m_loc;
    std::string m_message;
};

/// Levenshtein edit distance (case-sensitive).
std::size_t editDistance(std::string_view a, std::string_view b);

/// The candidate closest to `word`, or empty when none is reasonably close
/// (distance greater than max(2, |word|/3)) — we only suggest when it is likely a typo.
std::string nearest(std::string_view word, const std::vector<std::string>& candidates);

/// `" (did you mean "x"?)"` or empty.
std::string didYouMean(std::string_view word, const std::vector<std::string>& candidates);
/// `text` as it goes into a message: at most `max` bytes, then "… (N bytes)".
std::string clipped(std::string_view text, std::size_t max = 80);

} // namespace rdt::core
