#include <catch2/catch.hpp>

#include "core/Error.h"

using namespace rdt::core;

TEST_CASE("edit distance and nearest-name suggestions", "[errors]")
{
    CHECK(editDistance("kitten", "sitting") == 3);
    CHECK(editDistance("", "abc") == 3);
    CHECK(editDistance("same", "same") == 0);
    const std::vector<std::string> slugs = {"meta-grand-teton-h100", "meta-minipack2", "meta-wedge400"};
    CHECK(nearest("meta-grand-teton-h10", slugs) == "meta-grand-teton-h100");
    CHECK(nearest("meta-wedge-400", slugs) == "meta-wedge400");
    CHECK(nearest("completely-different", slugs).empty());
    CHECK(didYouMean("meta-minipak2", slugs) == " (did you mean \"meta-minipack2\"?)");
    // A name the word begins, up to a separator, wins a tie: "input_voltage" (the docs' old spelling)
    // suggested "output_voltage" (trust trial, 2026-12-07); a nearer name still wins.
    const std::vector<std::string> shelf = {"output_voltage", "input_voltage_ln", "input_phases"};
    CHECK(nearest("input_voltage", shelf) == "input_voltage_ln");
    CHECK(nearest("ouput_voltage", shelf) == "output_voltage");
    CHECK(nearest("rack", {"rack_type", "racks"}) == "racks");
}

TEST_CASE("InputError names file, line, column and path", "[errors]")
{
    const InputError e(SourceLoc{"d.yaml", 12, 7, "racks[3].part"}, "unknown catalog entry \"x\"");
    CHECK(std::string(e.what()) == "d.yaml:12:7: racks[3].part: unknown catalog entry \"x\"");
    CHECK(SourceLoc{"f.yaml", 0, 0, ""}.position() == "f.yaml");
}
