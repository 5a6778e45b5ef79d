// The command line's progress bar: what it draws and how it fits a terminal.
#include <catch2/catch.hpp>

#include "cli/TerminalProgress.h"

using rdt::cli::progressLine;

TEST_CASE("progress line: bar, percentage and the message's start within the terminal's width", "[cli][progress]")
{
    const std::string msg = "room field hall1/pod1: about 12 s left, iteration 120, residual 1.2e-03";
    const std::string wide = progressLine(0.5, msg, 200);
    CHECK(wide == "[###############...............]  50% " + msg);
    // An 80-column terminal keeps the bar and the time left; the line never fills the last column.
    const std::string narrow = progressLine(0.5, msg, 80);
    CHECK(narrow.size() == 79);
    CHECK(narrow.find("about 12 s left") != std::string::npos);
    CHECK(progressLine(1.0, "done", 80) == "[##############################] 100% done");
    CHECK(progressLine(-1.0, "x", 80).rfind("[..............................]   0% x", 0) == 0);
    CHECK(progressLine(NAN, "x", 80).find("  0% x") != std::string::npos);
    // A terminal too narrow for anything still shows the bar and the start of the message.
    CHECK(progressLine(0.25, msg, 5).size() == 38);
}
