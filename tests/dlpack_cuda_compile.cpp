// The CUDA paths of <t7/dlpack.hpp> (kDLCUDA, device ids, CUDA storages over
// device memory), compiled for every element type in every build that has
// dlpack/dlpack.h, GPU or not: an archive tests/meson.build never links (a
// CUDA storage's release needs tensor7_cuda). test_dlpack runs the CPU paths.
#include <t7/tensor.hpp>

#include <t7/dlpack.hpp>

#define T7_DLPACK_CUDA(T)                                                                          \
    template DLManagedTensor* t7::toDLPack<T, t7::CUDA>(const t7::Tensor<T, t7::CUDA>&);           \
    template t7::Tensor<T, t7::CUDA> t7::fromDLPack<T, t7::CUDA>(DLManagedTensor*);

T7_DLPACK_CUDA(uint8_t)
T7_DLPACK_CUDA(int8_t)
T7_DLPACK_CUDA(int16_t)
T7_DLPACK_CUDA(int32_t)
T7_DLPACK_CUDA(int64_t)
T7_DLPACK_CUDA(float)
T7_DLPACK_CUDA(double)
T7_DLPACK_CUDA(t7::Half)
