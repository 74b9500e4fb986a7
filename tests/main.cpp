// main.cpp — doctest's main for the whole suite (the test cases live in test_*.cpp).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
