// Reading Torch7 files: t7::loadObject / t7::load<T> / t7::deserialize. The reader
// is written for hostile input: every count is checked against the bytes left in
// the file before anything is allocated (memory stays proportional to the file
// size), every tensor's view is checked against its storage, references must name
// an object already read, and the limits of limits.hpp hold (nesting, element
// counts, file size). Every failure is an IOError naming the byte offset and what
// was wrong.
#pragma once

#include "../core/config.hpp"
#include "object.hpp"
#include "t7_format.hpp"

#include <string>
#include <string_view>

namespace t7 {

// Reads one object from the bytes of a Torch7 file (torch.deserialize). Without a
// format, binary or ascii is told from the first bytes. `name` prefixes messages.
template <class = void>
Object deserialize(std::string_view bytes, Format fmt, const std::string& name = "deserialize");
template <class = void>
Object deserialize(std::string_view bytes, const std::string& name = "deserialize");

// torch.deserializeFromStorage: the object whose bytes a ByteStorage holds (as
// serializeToStorage gives them; binary unless told). Malformed bytes: IOError.
template <class = void>
Object deserializeFromStorage(const ByteStorage& s, Format fmt = Format::Binary);

// torch.load(path [, 'binary' | 'ascii']).
template <class = void>
Object loadObject(const std::string& path, Format fmt);
template <class = void>
Object loadObject(const std::string& path);

// The tensor a file holds; TypeError if it holds anything else.
template <TorchElement T>
Tensor<T> load(const std::string& path);
template <TorchElement T>
Tensor<T> load(const std::string& path, Format fmt);

} // namespace t7

// The definitions: compiled once into libtensor7 (src/io.cpp), and here only in
// translation units that do not link it (core/config.hpp, T7_LIBRARY_DEFINITIONS).
#if T7_LIBRARY_DEFINITIONS
#include "t7_reader_impl.hpp"
#endif
