#include <catch2/catch.hpp>

#include <map>

#include "core/Design.h"
#include "core/LayoutExpander.h"
#include "core/Yaml.h"

using namespace rdt::core;
using Catch::Matchers::Contains;

static const std::string kData = RDT_SOURCE_DIR "/data";

static Design load(const std::string& name)
{
    return loadDesign(kData + "/designs/" + name, kData + "/catalog");
}

static Design loadText(const std::string& text)
{
    return loadDesignText(text, "inline.yaml", kData + "/catalog");
}

TEST_CASE("the 24,576-GPU RoCE example expands to Meta's published counts", "[design]")
{
    const Design d = load("meta-24k-roce.yaml");
    const Summary s = d.summary();
    CHECK(s.halls == 1);
    CHECK(s.pods == 8);
    CHECK(s.rows == 96);
    CHECK(s.racks == 1536);
    CHECK(s.chassis == 3072);
    CHECK(s.gpus == 24576);
    CHECK(s.switches == 1536);
    CHECK(d.links.size() == 3);
    CHECK(d.links[0].count == 24576); // GPU↔NIC PCIe, 8 per chassis
    CHECK(d.links[1].count == 24576); // NIC↔RTSW DAC: nic0…nic7 interfaces
    CHECK(d.links[2].count == 24576); // RTSW↔CTSW optics, 16 per switch
    CHECK(d.racks.front().id == "dc1/pod1/row01/rack01");
    CHECK(d.racks.back().id == "dc1/pod8/row12/rack16");
    CHECK(d.racks.back().slots[4].id == "dc1/pod8/row12/rack16/gt0");
    CHECK(d.racks[17].positionInRow == 1);
    CHECK(d.pods[3].racks.size() == 192);
    CHECK(d.site.supplyAirK == Approx(298.15));
    // Template slots keep the location of the template text.
    CHECK(d.racks[1000].slots[4].loc.line > 0);
    CHECK_THAT(d.racks[1000].slots[4].loc.path, Contains("templates.gt-rack.slots[4]"));
}

TEST_CASE("the InfiniBand twin has the same scale", "[design]")
{
    const Summary s = load("meta-24k-ib.yaml").summary();
    CHECK(s.racks == 1536);
    CHECK(s.gpus == 24576);
}

TEST_CASE("per-instance overrides and port-to-port links", "[design]")
{
    const Design d = load("single-rack.yaml");
    REQUIRE(d.racks.size() == 1);
    const Rack& r = d.racks[0];
    CHECK(r.rackType->slug == "orv3-hpr");
    const Slot& gt1 = r.slots[5];
    CHECK(gt1.name == "gt1");
    REQUIRE(gt1.overrides.gpuPowerCapW.has_value());
    CHECK(*gt1.overrides.gpuPowerCapW == 600.0);
    CHECK(r.slots[0].overrides.feed == "A");
    CHECK(gt1.top() == 22);
    REQUIRE(d.links.size() == 2);
    CHECK(d.links[1].scope == "port");
    CHECK(d.links[1].fromPort == "mezz0");
    CHECK(d.links[1].count == 1);
}

TEST_CASE("id patterns", "[design]")
{
    CHECK(expandIdPattern("rack{n:02}", 3) == "rack03");
    CHECK(expandIdPattern("pod{n}", 12) == "pod12");
    CHECK(expandIdPattern("r{n:03}-x", 7) == "r007-x");
    CHECK(expandIdPattern("bad{n", 1).empty());
    CHECK(expandIdPattern("bad{m}", 1).empty());
}

TEST_CASE("count with start, waivers and profile name", "[design]")
{
    const Design d = loadText(R"(
rdt: 1
profile: mechanical
templates:
  r: {rack_type: orv3-standard, slots: [{ou: 1, part: orv3-power-shelf-6x3kw}]}
layout:
  halls:
    - id: h
      rows:
        - id: row
          racks: [{template: r, count: 3, start: 10, id: "k{n}"}]
waivers:
  - rule: orv3.rack.mass
    subject: "h/row/*"
    justification: Lab rack bolted to the floor, payload checked by the site engineer.
)");
    REQUIRE(d.racks.size() == 3);
    CHECK(d.racks[0].id == "h/row/k10");
    CHECK(d.racks[2].id == "h/row/k12");
    CHECK(d.racks[0].slots[0].name == "ou1");
    CHECK(d.profile == "mechanical");
    REQUIRE(d.waivers.size() == 1);
    CHECK(d.waivers[0].matches("orv3.rack.mass", "h/row/k10"));
    CHECK_FALSE(d.waivers[0].matches("orv3.slot.range", "h/row/k10"));
}

TEST_CASE("design bad input is located", "[design]")
{
    CHECK_THROWS_WITH(loadText("layout: {halls: []}\n"), Contains("holds no racks"));
    CHECK_THROWS_WITH(loadText("rdt: 2\nlayout: {halls: []}\n"), Contains("inline.yaml:1:6: rdt: value 2 is outside"));
    CHECK_THROWS_WITH(loadText("site: {ashrae_class: A5}\nlayout: {halls: []}\n"),
                      Contains("unknown ASHRAE class \"A5\""));
    CHECK_THROWS_WITH(loadText("templates: {r: {rack_type: orv3-600a}}\nlayout: {halls: [{id: h, rows: [{id: w, racks: "
                               "[{template: r, count: 2, id: k}]}]}]}\n"),
                      Contains("the id needs {n}"));
    CHECK_THROWS_WITH(
        loadText("layout: {halls: [{id: h, rows: [{id: w, racks: [{id: k, rack_type: meta-minipack2}]}]}]}\n"),
        Contains("\"meta-minipack2\" is a switch, not a rack type"));
    CHECK_THROWS_WITH(loadText("layout: {halls: [{id: h, rows: [{id: w, racks: [{id: k, rack_type: orv3-600a, slots: "
                               "[{ou: 1, part: meta-minipack2, gpu_power_cap: 500 W}]}]}]}]}\n"),
                      Contains("gpu_power_cap applies to GPU chassis only"));
    // A switch's draw is its catalog figure whatever the load: a utilisation there was accepted and ignored.
    CHECK_THROWS_WITH(loadText("layout: {halls: [{id: h, rows: [{id: w, racks: [{id: k, rack_type: orv3-600a, slots: "
                               "[{ou: 1, part: meta-minipack2, utilisation: 50 %}]}]}]}]}\n"),
                      Contains("inline.yaml:1:130: ") &&
                          Contains("utilisation applies to GPU chassis only (\"meta-minipack2\" is a switch"));
    CHECK_THROWS_WITH(loadText("layout: {halls: [{id: h, rows: [{id: w, racks: [{id: k, rack_type: orv3-600a}]}]}]}\n"
                               "waivers: [{rule: x, justification: ok}]\n"),
                      Contains("written justification"));
    // A link's medium against its cable's: a DAC analysed as optics passed as optics.
    CHECK_THROWS_WITH(loadText("layout: {halls: [{id: h, rows: [{id: w, racks: [{id: k, rack_type: orv3-600a}]}]}]}\n"
                               "links: [{class: x, medium: optical, from: {part: meta-grand-teton-h100}, "
                               "to: {part: meta-minipack2}, cable: dac-400g-osfp-2m}]\n"),
                      Contains("inline.yaml:2:") &&
                          Contains("medium optical contradicts the cable: \"dac-400g-osfp-2m\" is copper"));
    CHECK_THROWS_WITH(loadText("catalog: [no-such-folder]\nlayout: {halls: []}\n"), Contains("catalog folder"));
}

TEST_CASE("a preloaded shipped catalog is shared, a design with catalog folders loads its own", "[design]")
{
    const auto shipped = loadShippedCatalog(kData + "/catalog");
    const std::string roce = kData + "/designs/meta-24k-roce.yaml";
    const Design a = load("meta-24k-roce.yaml");
    const Design b = loadDesignText(readTextFile(roce), roce, kData + "/catalog", shipped);
    CHECK(b.catalog == shipped);
    CHECK(b.summary().gpus == a.summary().gpus);
    CHECK(b.racks.size() == a.racks.size());
    CHECK(b.racks.back().slots.back().part->slug == a.racks.back().slots.back().part->slug);
    // broken-rack adds broken-parts/: its parts are not in the shipped catalog, so it cannot share it.
    const std::string broken = kData + "/designs/broken-rack.yaml";
    const Design c = loadDesignText(readTextFile(broken), broken, kData + "/catalog", shipped);
    CHECK(c.catalog != shipped);
    CHECK(c.catalog->size() > shipped->size());
    CHECK(shipped->size() == load("single-rack.yaml").catalog->size());
}

TEST_CASE("Link classes limited to racks by glob: the 350k fleet's RoCE and IB halls", "[design][links]")
{
    const Design d = loadDesign(RDT_SOURCE_DIR "/data/designs/meta-350k-fleet.yaml", RDT_SOURCE_DIR "/data/catalog");
    CHECK(d.summary().gpus == 350208);
    std::map<std::string, std::size_t> count;
    for (const LinkClass& l : d.links)
        count[l.id] = l.count;
    CHECK(count["gpu-nic"] == 350208);                  // every GPU
    CHECK(count["nic-rtsw"] == (21888 - 1536) * 2 * 8); // RoCE racks only
    CHECK(count["nic-leaf"] == 1536 * 2 * 8);           // the IB hall only
    CHECK(count["leaf-spine"] == 1536 * 16);
    CHECK(globMatch("ib24k/*", "ib24k/pod1/row01/rack01"));
    CHECK_FALSE(globMatch("ib24k/*", "roce24k/pod1/row01/rack01"));
    // A glob that matches no rack is a located error.
    std::string text = readTextFile(RDT_SOURCE_DIR "/data/designs/meta-350k-fleet.yaml");
    text.replace(text.find("racks: \"ib24k/*\""), 16, "racks: \"ib42k/*\"");
    CHECK_THROWS_WITH(loadDesignText(text, "fleet.yaml", RDT_SOURCE_DIR "/data/catalog"),
                      Contains("fleet.yaml:") && Contains("links[3].racks") && Contains("matches no rack"));
}
