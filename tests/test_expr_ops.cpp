// Element-wise operators over the floating dtypes and every operand layout,
// against scalar reference loops (the sweep is in expr_ops_cases.hpp; integer
// dtypes: test_expr_ops_int.cpp). Functions: test_expr_fns.cpp, test_expr_math.cpp.
#include "expr_ops_cases.hpp"

TEST_CASE_TEMPLATE_INVOKE(expr_ops_sweep, T7_FLOAT_TYPES);
