// rdt-studio under Xvfb: issue 34 (plots).
#include <catch2/catch.hpp>
