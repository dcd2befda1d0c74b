#include "rooflint/ceilings/ceilings_file.h"
#include <gtest/gtest.h>
TEST(CeilingsFile, Placeholder) { SUCCEED(); }
