// Linear algebra (issue 6), the singular value decomposition in double
// (tests/linalg_svd_cases.hpp; float: test_linalg_svd_float.cpp, symeig and eig:
// test_linalg_symeig.cpp), apart so that no file takes over a minute to compile.
#include "linalg_svd_cases.hpp"

TEST_CASE_TEMPLATE_INVOKE(svd_cases, double);
