// The type-keeping element-wise functions over the integer dtypes and every
// operand layout, against scalar reference loops (the sweep is in
// expr_fns_cases.hpp; floating dtypes and the integer edge cases: test_expr_fns.cpp).
#include "expr_fns_cases.hpp"

TEST_CASE_TEMPLATE_INVOKE(expr_fns_sweep, T7_INT_TYPES);
