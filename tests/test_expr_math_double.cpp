// The floating element-wise functions in double on every operand layout, against
// std:: reference loops (the sweep is in expr_math_cases.hpp; float and the special
// values: test_expr_math.cpp).
#include "expr_math_cases.hpp"

TEST_CASE_TEMPLATE_INVOKE(expr_math_sweep, double);
