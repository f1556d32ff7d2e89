// The lighter header: tensors, views, element-wise expressions evaluated on the
// CPU, reductions, copies, apply/map, printing, factories and random fills.
// Everything else (indexed/masked/sorting operations, matrix products and
// decompositions, .t7/.npy files, CUDA tensors) comes with <t7/t7.hpp>, which
// includes this. For programs that only need tensors and fused expressions: it
// compiles in less time (bench/compile_time.py).
#pragma once

#include "core/dtype.hpp"
#include "core/error.hpp"
#include "core/shape.hpp"
#include "core/storage.hpp"
#include "core/version.hpp"

#include "tensor/blob.hpp"
#include "tensor/indexing.hpp"
#include "tensor/tensor.hpp"
#include "tensor/views.hpp"

#include "iter/loop.hpp"
#include "iter/parallel.hpp"

#include "expr/nodes.hpp"
#include "expr/operators.hpp"
#include "expr/traverse.hpp"

#include "eval/assign.hpp"
#include "eval/cpu/evaluator.hpp"
#include "eval/cpu/multi_assign.hpp"
#include "eval/multi_assign.hpp"
#include "expr/reductions.hpp"
#include "expr/reductions_dims.hpp"

#include "tensor/apply.hpp"
#include "tensor/copy.hpp"

#include "expr/inplace.hpp"
#include "io/print.hpp"

#include "math/factories.hpp"
#include "math/random.hpp"

#include "precompiled.hpp"
