// tensor7: Torch7's Tensor for C++20 with fused, lazily evaluated expressions.
// Layers, bottom up: core (types, shape, storage, errors) -> tensor (handles and
// views) -> iter (strided iteration) -> expr (expression nodes) -> eval
// (per-device evaluators) -> io (printing and files).
#pragma once

// Tensors, views, expressions on the CPU, reductions, copies, printing,
// factories and random fills: the lighter header, usable on its own.
#include "tensor.hpp"

// Expressions on CUDA tensors are evaluated by the Thrust evaluator.
#include "eval/thrust/evaluator.hpp"
#include "eval/thrust/multi_assign.hpp"
#include "tensor/transfer.hpp"

// CUDA tensors (t7::cuda::FloatTensor, ...): created, copied and converted from
// here; expressions on them need a translation unit compiled by nvcc (<t7/cuda.hpp>).
#include "cuda/tensor.hpp"

#include "io/npy.hpp"
#include "io/object.hpp"
#include "io/t7_reader.hpp"
#include "io/t7_writer.hpp"

// Indexed, masked, search, sorting and joining operations (issue 4).
#include "ops/cat.hpp"
#include "ops/gather_scatter.hpp"
#include "ops/index.hpp"
#include "ops/masked.hpp"
#include "ops/repeat.hpp"
#include "ops/sort.hpp"

// ... and on CUDA tensors (the precompiled kernels of tensor7_cuda).
#include "cuda/index_ops.hpp"
#include "cuda/order_stats.hpp"

// Maths: factories, random numbers, matrix products (on the CPU through Eigen,
// on CUDA tensors through cuBLAS, from any translation unit), decompositions, statistics.
#include "cuda/blas.hpp"
#include "eval/cpu/blas.hpp"
#include "math/blas.hpp"
#include "math/conv.hpp"
#include "math/factories.hpp"
#include "math/linalg.hpp"
#include "math/linalg_extra.hpp"
#include "math/matrix.hpp"
#include "math/random.hpp"
#include "math/stats.hpp"
#include "math/tensordot.hpp"

// Random fills of CUDA tensors (the same values as the CPU's for a seed).
#include "cuda/conv.hpp"
#include "cuda/histc.hpp"
#include "cuda/random.hpp"

// Interop: Eigen maps both ways (tensors over outside memory and std::vector:
// tensor/blob.hpp, through tensor.hpp), and the build's configuration.
#include "core/version.hpp"
#include "cuda/fft.hpp"
#include "math/fft.hpp"
#include "ops/complex.hpp"
#include "ops/config.hpp"
#include "ops/eigen.hpp"
#include "ops/expression_args.hpp"
