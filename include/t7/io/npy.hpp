// NumPy's .npy format: t7::saveNpy / t7::loadNpy<T> (and toNpy / fromNpy on bytes),
// t7::loadNpyAny / fromNpyAny for a file of any type (a t7::Object).
// Writing: version 1.0 (2.0 when the header needs it), C order, little-endian, the
// tensor's elements in logical (row-major) order whatever its strides; the header is
// laid out as NumPy 1.24 writes it, so the bytes equal numpy.save's. Reading:
// versions 1.0, 2.0 and 3.0, C or Fortran order, little- or big-endian, the seven
// Torch7 types plus bool (as uint8) and float16 (as float); the header is parsed
// strictly and every size is checked against the file before allocating.
#pragma once

#include "../core/config.hpp"
#include "object.hpp"

#include <string>
#include <string_view>

namespace t7 {

// The element types of .npy files: Torch7's seven and the two complex ones
// (NumPy's complex64 '<c8' and complex128 '<c16').
template <class T>
concept NpyElement = TorchElement<T> || is_complex_v<T>;

// The bytes of a .npy file holding x's elements in logical order.
template <NpyElement T>
std::string toNpy(const Tensor<T>& x);

// A contiguous tensor from the bytes of a .npy file. TypeError if the file holds
// another element type; IOError if it is malformed. A 0-d array loads as size 1,
// an array with no elements as an empty tensor. Bool files ('|b1') load as
// uint8 (0 or 1), float16 files ('<f2') as float.
template <NpyElement T>
Tensor<T> fromNpy(std::string_view bytes, const std::string& name = "fromNpy");

// The tensor of a .npy file's bytes in the type the file holds, as a t7::Object
// (obj.tensor<T>(); the type's name: obj.anyTensor()'s alternative): u1 i1 i2 i4
// i8 f4 f8 as the matching tensor, bool as a ByteTensor, float16 as a
// FloatTensor. IOError if malformed or of another dtype.
template <class = void>
Object fromNpyAny(std::string_view bytes, const std::string& name = "fromNpyAny");

template <NpyElement T>
void saveNpy(const std::string& path, const Tensor<T>& x);

template <NpyElement T>
Tensor<T> loadNpy(const std::string& path);

// A .npy file's tensor in the type it holds, as a t7::Object (fromNpyAny).
template <class = void>
Object loadNpyAny(const std::string& path);

} // namespace t7

// The definitions: compiled once into libtensor7 (src/io.cpp), and here only in
// translation units that do not link it (core/config.hpp, T7_LIBRARY_DEFINITIONS).
#if T7_LIBRARY_DEFINITIONS
#include "npy_impl.hpp"
#endif
