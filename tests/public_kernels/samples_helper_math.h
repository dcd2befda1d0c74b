#pragma once
/// @file samples_helper_math.h
/// cuda-samples' Common/helper_math.h, for a wrapper to include before the sample that uses it: its
/// lerp(float, float, float) conflicts with C++20's std::lerp, which <math.h> brings into the global
/// namespace, so it is read here under another name (the samples wrapped do not call it); its include
/// guard then keeps the sample's own #include from reading it again.
#include <math.h>

#define lerp sample_lerp
#include <helper_math.h>
#undef lerp
