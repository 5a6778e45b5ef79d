// rdt-studio under Xvfb: issue 34 (colours).
#include <catch2/catch.hpp>
