// rdt-studio under Xvfb: issue 34 (panels).
#include <catch2/catch.hpp>
