// The CPU backend: Evaluator<CPU> is assignment plus reductions.
#pragma once

#include "assign.hpp"
#include "product_blocks.hpp"
#include "reduce.hpp"

namespace t7 {

template <>
struct Evaluator<CPU> : cpu::AssignEvaluator, cpu::ReduceEvaluator {};

} // namespace t7
