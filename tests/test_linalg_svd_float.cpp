// Linear algebra (issue 6), the singular value decomposition in float
// (tests/linalg_svd_cases.hpp; double: test_linalg_eig.cpp).
#include "linalg_svd_cases.hpp"

TEST_CASE_TEMPLATE_INVOKE(svd_cases, float);
