#include "core/Error.h"

#include <algorithm>
#include <numeric>

namespace rdt::core {

std::string SourceLoc::position() const
{
    std::string out = file.empty() ? std::string("<input>") : file;
    if (line > 0) {
        out += ":" + std::to_string(line);
        if (column > 0)
            out += ":" + std::to_string(column);
    }
    return out;
}

static std::string formatError(const SourceLoc& loc, const std::string& message)
{
    std::string out = loc.position() + ": ";
    if (!loc.path.empty())
        out += loc.path + ": ";
    return out + message;
}

InputError::InputError(SourceLoc loc, std::string message)
    : std::runtime_error(formatError(loc, message)), m_loc(std::move(loc)), m_message(std::move(message))
{
}

std::size_t editDistance(std::string_view a, std::string_view b)
{
    std::vector<std::size_t> row(b.size() + 1);
    std::iota(row.begin(), row.end(), std::size_t{0});
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diag = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diag = up;
        }
    }
    return row[b.size()];
}

std::string clipped(std::string_view text, std::size_t max)
{
    if (text.size() <= max)
        return std::string(text);
    return std::string(text.substr(0, max)) + "… (" + std::to_string(text.size()) + " bytes)";
}

std::string nearest(std::string_view word, const std::vector<std::string>& candidates)
{
    std::string best;
    // A name this long is no typo of a short one; edit distances on it would only cost time.
    if (word.size() > 256)
        return best;
    // Distances doubled, so that a name the word begins, followed by a separator, wins a tie: the word
    // is that name short of its qualifier ("input_voltage" is "input_voltage_ln", not "output_voltage").
    std::size_t bestDist = 2 * (std::max<std::size_t>(2, word.size() / 3) + 1);
    for (const auto& c : candidates) {
        const bool stem = c.size() > word.size() && c.compare(0, word.size(), word) == 0 &&
                          (c[word.size()] == '_' || c[word.size()] == '.' || c[word.size()] == '-');
        const std::size_t d = 2 * editDistance(word, c) - (stem ? 1 : 0);
        if (d < bestDist) {
            bestDist = d;
            best = c;
        }
    }
    return best;
}

std::string didYouMean(std::string_view word, const std::vector<std::string>& candidates)
{
    const std::string n = nearest(word, candidates);
    return n.empty() ? std::string() : " (did you mean \"" + n + "\"?)";
}

} // namespace rdt::core
