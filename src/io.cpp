// libtensor7's file formats: the .npy and Torch7 readers and writers, compiled
// once here (T7_PRECOMPILED_BUILD makes io/*.hpp include their definitions)
// instead of parsed by every translation unit that includes <t7/t7.hpp>: a
// program defining T7_PRECOMPILED sees only their declarations.
#include <t7/io/npy.hpp>
#include <t7/io/t7_reader.hpp>
#include <t7/io/t7_writer.hpp>

namespace t7 {

template Object fromNpyAny<>(std::string_view, const std::string&);
template Object loadNpyAny<>(const std::string&);
template Object deserialize<>(std::string_view, Format, const std::string&);
template Object deserialize<>(std::string_view, const std::string&);
template Object deserializeFromStorage<>(const ByteStorage&, Format);
template Object loadObject<>(const std::string&, Format);
template Object loadObject<>(const std::string&);
template std::string serialize<>(const Object&, Format);
template ByteStorage serializeToStorage<>(const Object&, Format);
template void saveObject<>(const std::string&, const Object&, Format);

// clang-format off
#define T7_IO_PER_TYPE(T)                                                                          \
    template std::string toNpy<T>(const Tensor<T>&);                                               \
    template Tensor<T> fromNpy<T>(std::string_view, const std::string&);                           \
    template void saveNpy<T>(const std::string&, const Tensor<T>&);                                \
    template Tensor<T> loadNpy<T>(const std::string&);                                             \
    template Tensor<T> load<T>(const std::string&);                                                \
    template Tensor<T> load<T>(const std::string&, Format);                                        \
    template void save<T>(const std::string&, const Tensor<T>&, Format);
T7_IO_PER_TYPE(uint8_t) T7_IO_PER_TYPE(int8_t) T7_IO_PER_TYPE(int16_t) T7_IO_PER_TYPE(int32_t)
T7_IO_PER_TYPE(int64_t) T7_IO_PER_TYPE(float) T7_IO_PER_TYPE(double)
#undef T7_IO_PER_TYPE
#define T7_NPY_PER_TYPE(T)                                                                         \
    template std::string toNpy<T>(const Tensor<T>&);                                               \
    template Tensor<T> fromNpy<T>(std::string_view, const std::string&);                           \
    template void saveNpy<T>(const std::string&, const Tensor<T>&);                                \
    template Tensor<T> loadNpy<T>(const std::string&);
T7_NPY_PER_TYPE(std::complex<float>) T7_NPY_PER_TYPE(std::complex<double>)
#undef T7_NPY_PER_TYPE
// clang-format on

} // namespace t7
