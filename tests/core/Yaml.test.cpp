#include <catch2/catch.hpp>

#include "core/Yaml.h"

using namespace rdt::core;
using Catch::Matchers::Contains;

static Cursor doc(const std::string& text)
{
    return Cursor(parseYaml(text, "t.yaml"), std::make_shared<std::string>("t.yaml"), "");
}

static std::string failure(const std::function<void()>& fn)
{
    try {
        fn();
    } catch (const InputError& e) {
        return e.what();
    }
    FAIL("expected an InputError");
    return {};
}

TEST_CASE("cursor reads located values", "[yaml]")
{
    const Cursor d = doc("a:\n  b: 700 W\n  n: 8\n  flag: true\n  q: {value: 3 kW, source: \"[P1]\"}\n");
    CHECK(d["a"]["b"].quantity(Dimension::Power) == 700.0);
    CHECK(d["a"]["n"].integer(0, 10) == 8);
    CHECK(d["a"]["flag"].boolean());
    const SourcedValue q = d["a"]["q"].sourcedQuantity(Dimension::Power);
    CHECK(q.si == 3000.0);
    CHECK(q.provenance.kind == Provenance::Kind::Source);
    CHECK(q.provenance.text == "[P1]");
    CHECK(q.loc.line == 5);
}

TEST_CASE("cursor errors carry line and path", "[yaml]")
{
    const Cursor d = doc("a:\n  b: 700\n  c: x\n  d: 3 kW\n  d: 4 kW\n");
    CHECK_THAT(failure([&] { d["a"]["b"].quantity(Dimension::Power); }), Contains("t.yaml:2:6: a.b: missing unit"));
    CHECK_THAT(failure([&] { d["a"]["missing"]; }), Contains("missing required field \"missing\""));
    CHECK_THAT(failure([&] { d["a"]["c"].integer(0, 5); }),
               Contains("t.yaml:3:6: a.c") && Contains("not a whole number"));
    CHECK_THAT(failure([&] { d["a"].requireMap(); }), Contains("t.yaml:5:3: a.d: duplicate key \"d\""));
    CHECK_THAT(failure([&] {
                   doc("x: 1\nyy: 2\n").allowKeys({"x", "yyy"});
               }),
               Contains("t.yaml:2:1: yy: unknown field \"yy\" (did you mean \"yyy\"?)"));
    CHECK_THAT(failure([&] { doc("q: {value: 3 kW}").operator[]("q").quantity(Dimension::Power); }),
               Contains("needs \"source\" or \"estimate\""));
    CHECK_THAT(failure([&] { parseYaml("a: [1, 2\nb: 3\n", "m.yaml"); }),
               Contains("m.yaml:") && Contains("malformed YAML"));
    CHECK_THAT(failure([&] { readTextFile("/nonexistent/file.yaml"); }), Contains("cannot open file"));
}
