// tensor7 for translation units compiled by nvcc: everything <t7/t7.hpp>
// offers except the CPU evaluator and the CPU's matrix products (and so without
// Eigen, which nvcc compiles slowly and noisily), plus the CUDA backend. Expressions and reductions
// on CUDA tensors written here are fused into Thrust kernels:
//
//     #include <t7/cuda.hpp>
//     void step(t7::cuda::FloatTensor& y, const t7::cuda::FloatTensor& x) {
//         y = t7::sigmoid(x) * 2 + y;          // one kernel
//         float s = t7::sum(y * y);            // one fused reduction
//     }
//
// Creating, copying (x.cuda(), g.cpu(), copy()), converting, filling and
// random fills (x.uniform(), x.normal(), x.bernoulli(p), t7::rand<float,
// t7::CUDA>(...): the CPU's values for the same seed) and multiplying (t7::mm,
// bmm, matmul, ... through cuBLAS) of CUDA tensors also work
// from ordinary host code through <t7/t7.hpp>: those are calls into the
// precompiled tensor7_cuda library. Arithmetic on CPU tensors
// needs the CPU evaluator: keep it in host translation units (or include
// <t7/t7.hpp> here as well, which nvcc accepts with warnings from Eigen).
// Programs using CUDA tensors link tensor7_cuda (Meson: the tensor7_cuda dependency).
#pragma once

#include "core/device_kernels.hpp"
#include "core/device_runtime.hpp"
#include "core/dtype.hpp"
#include "core/error.hpp"
#include "core/shape.hpp"
#include "core/storage.hpp"

#include "tensor/indexing.hpp"
#include "tensor/tensor.hpp"
#include "tensor/views.hpp"

#include "iter/loop.hpp"

#include "expr/nodes.hpp"
#include "expr/operators.hpp"
#include "expr/traverse.hpp"

#include "eval/assign.hpp"
#include "eval/thrust/evaluator.hpp"
#include "eval/thrust/multi_assign.hpp"
#include "expr/reductions.hpp"

#include "tensor/copy.hpp"
#include "tensor/transfer.hpp"

#include "expr/inplace.hpp"
#include "io/print.hpp"
#include "math/factories.hpp"
#include "math/matrix.hpp"

#include "cuda/blas.hpp"
#include "cuda/fft.hpp"
#include "cuda/index_ops.hpp"
#include "cuda/random.hpp"
#include "cuda/tensor.hpp"
#include "ops/cat.hpp"
#include "ops/complex.hpp"
#include "ops/members.hpp"
