// e2e_cxx.cc — compiles the generated e2e.ns.c as C++17: generated code must build as C++ too.
#include "e2e.ns.c"
