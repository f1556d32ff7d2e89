// CUDA tensors: t7::cuda::Tensor<T> = t7::Tensor<T, CUDA> and the Torch7 names
// (torch.CudaTensor is t7::cuda::FloatTensor), plus printing, which prints the
// values brought to the host with Torch7's footer for the CUDA type.
#pragma once

#include "../core/device_kernels.hpp"
#include "../core/device_runtime.hpp"
#include "../io/print.hpp"
#include "../tensor/transfer.hpp"

#include <ostream>
#include <string>

namespace t7::cuda {

template <class T>
using Tensor = t7::Tensor<T, CUDA>;
template <class T>
using Storage = t7::Storage<T, CUDA>;

using ByteTensor = Tensor<uint8_t>;
using CharTensor = Tensor<int8_t>;
using ShortTensor = Tensor<int16_t>;
using IntTensor = Tensor<int32_t>;
using LongTensor = Tensor<int64_t>;
using FloatTensor = Tensor<float>;
using DoubleTensor = Tensor<double>;
using HalfTensor = Tensor<Half>;
using ComplexFloatTensor = Tensor<std::complex<float>>;
using ComplexDoubleTensor = Tensor<std::complex<double>>;

} // namespace t7::cuda

namespace t7 {

// Torch7's text of a CUDA tensor: "[torch.CudaTensor of size 2x3]" and so on.
template <class T>
std::string to_string(const Tensor<T, CUDA>& t) {
    // (strings built with += : GCC 12 warns falsely, -Wrestrict, on "[" + s + "...")
    std::string s;
    if (t.dim() == 0) {
        s += '[';
        s += t.type();
        s += " with no dimension]\n";
        return s;
    }
    s = to_string(t.cpu());
    const std::string host = torch_type_name<T, CPU>("Tensor");
    std::string footer(1, '[');
    footer += host;
    footer += " of size ";
    const size_t at = s.rfind(footer);
    if (at != std::string::npos) s.replace(at + 1, host.size(), t.type());
    return s;
}

template <class T>
std::ostream& operator<<(std::ostream& os, const Tensor<T, CUDA>& t) {
    return os << to_string(t);
}

} // namespace t7
