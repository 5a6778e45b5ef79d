#include <catch2/catch.hpp>

#include "core/Yaml.h"

using namespace rdt::core;
using Catch::Matchers::Contains;

static Cursor doc(const std::string& text)
{
    return Cursor::parse(text, "t.yaml");
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
    // A whole number too large for a long long is out of range, not "not a whole number" (trust trial).
    CHECK_THAT(failure([&] { doc("n: 9999999999999999999\n")["n"].integer(0, 5); }),
               Contains("t.yaml:1:4: n: value 9999999999999999999 is outside the allowed range 0 … 5"));
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

TEST_CASE("the compact reader: nulls, quoting, aliases, flow and block styles, first document only", "[yaml]")
{
    const Cursor d = doc("a: ~\nb:\nc: null\nd: \"null\"\ne: ''\nbase: &b {x: 1 m, y: [1, 2]}\n"
                         "use: *b\nlist:\n  - one\n  - {k: v}\n  - - nested\n---\nignored: 1\n");
    CHECK(d.has("a"));
    CHECK_FALSE(d.find("a"));
    CHECK_FALSE(d.find("b"));
    CHECK_FALSE(d.find("c"));
    CHECK(d["d"].str() == "null"); // quoted: text, not null
    CHECK(d["e"].str().empty());
    CHECK(d["use"]["x"].quantity(Dimension::Length) == 1.0);
    CHECK(d["use"]["y"].size() == 2);
    CHECK(d["use"]["y"].at(1).integer(0, 9) == 2);
    CHECK(d["use"].loc().line == 6); // an alias is its anchored node
    CHECK(d["list"].size() == 3);
    CHECK(d["list"].at(1)["k"].str() == "v");
    CHECK(d["list"].at(2).isSequence());
    CHECK(d["list"].at(2).at(0).loc().line == 11);
    CHECK(d["list"].at(2).at(0).loc().column == 7);
    CHECK(d["list"].at(1).path() == "list[1]");
    CHECK_FALSE(d.has("ignored"));
    CHECK(d.entries().size() == 8);
    // The node as written, parseable on its own.
    CHECK(d["base"].yamlText() == "&b {x: 1 m, y: [1, 2]}");
    CHECK(doc(d["list"].yamlText()).at(1)["k"].str() == "v");
    CHECK(doc("").isNull());
    CHECK(doc("# only a comment\n").isNull());
}

TEST_CASE("the compact reader refuses what it cannot read, located", "[yaml]")
{
    CHECK_THAT(failure([&] { doc("a: *nowhere\n"); }), Contains("t.yaml:1:4") && Contains("unknown anchor *nowhere"));
    CHECK_THAT(failure([&] { doc("a: &x [1, *x]\n"); }), Contains("unknown anchor *x"));
    CHECK_THAT(failure([&] { doc("a: {b: 1\n"); }), Contains("t.yaml:2:") && Contains("malformed YAML"));
    CHECK_THAT(failure([&] { doc("a:\n\t- 1\n"); }), Contains("t.yaml:2:") && Contains("malformed YAML"));
    // A tab that starts a line is named as one (libyaml's "cannot start any token" did not say tab).
    CHECK_THAT(failure([&] { doc("a:\n\tb: 1\n"); }),
               Contains("t.yaml:2:1") && Contains("a tab character; YAML indents with spaces only"));
    CHECK_THAT(failure([&] { doc("a: {b: 1\n"); }), !Contains("tab character"));
    // After a non-ASCII character (libyaml's index counts characters, not bytes) too.
    CHECK_THAT(failure([&] { doc("# 35 \u00b0C \u2026\na: 1\n\tb: 2\n"); }),
               Contains("t.yaml:3:1") && Contains("a tab character"));
    CHECK_THAT(failure([&] { doc(std::string(2001, '[') + std::string(2001, ']')); }),
               Contains("t.yaml:1:2001") && Contains("nested deeper than 2000 levels"));
    CHECK_THAT(failure([&] { doc("a: [1]\n").at(0); }), Contains("expected a list with an element [0]"));
    CHECK_THAT(failure([&] { doc("a: [1]\n")["a"].at(3); }), Contains("t.yaml:1:4: a:"));
    // Duplicate keys in a large map are found too.
    std::string big;
    for (int i = 0; i < 40; ++i)
        big += "k" + std::to_string(i) + ": 1\n";
    big += "k17: 2\n";
    CHECK_THAT(failure([&] { doc(big).requireMap(); }), Contains("t.yaml:41:1: k17: duplicate key \"k17\""));
}
