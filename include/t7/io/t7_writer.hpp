// Writing Torch7 files: t7::saveObject / t7::save / t7::serialize, byte for byte as
// Torch7's torch.save writes them. A tensor is written as Torch7 does: sizes,
// strides, 1-based offset and its whole storage. Objects met twice are written once
// and then referred to by index: the same table or Object, a storage shared by
// several tensors, and tensors that are the same view (same storage, offset, sizes
// and strides) of it.
#pragma once

#include "../core/config.hpp"
#include "object.hpp"
#include "t7_format.hpp"

#include <string>

namespace t7 {

// The bytes of a Torch7 file holding `o` (torch.serialize).
template <class = void>
std::string serialize(const Object& o, Format fmt = Format::Binary);

// torch.serializeToStorage: the bytes serialize() gives (those saveObject writes
// to a file), in a ByteStorage.
template <class = void>
ByteStorage serializeToStorage(const Object& o, Format fmt = Format::Binary);

// torch.save(path, o [, 'binary' | 'ascii']).
template <class = void>
void saveObject(const std::string& path, const Object& o, Format fmt = Format::Binary);

template <TorchElement T>
void save(const std::string& path, const Tensor<T>& x, Format fmt = Format::Binary);

// Torch7 had no complex type: a .t7 file cannot hold one.
template <class T>
requires is_complex_v<T>
void save(const std::string& path, const Tensor<T>&, Format = Format::Binary) {
    detail::fail<TypeError>("save('", path, "'): the .t7 format (Torch7) has no complex type; ",
                            "save a complex tensor with saveNpy, or t7::real(z) and t7::imag(z)");
}

} // namespace t7

// The definitions: compiled once into libtensor7 (src/io.cpp), and here only in
// translation units that do not link it (core/config.hpp, T7_LIBRARY_DEFINITIONS).
#if T7_LIBRARY_DEFINITIONS
#include "t7_writer_impl.hpp"
#endif
