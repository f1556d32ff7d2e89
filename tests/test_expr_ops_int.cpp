// Element-wise operators over the integer dtypes and every operand layout,
// against scalar reference loops (the sweep is in expr_ops_cases.hpp; floating
// dtypes: test_expr_ops.cpp).
#include "expr_ops_cases.hpp"

TEST_CASE_TEMPLATE_INVOKE(expr_ops_sweep, T7_INT_TYPES);
