// libtensor7: the instantiations that include/t7/precompiled.hpp lists, compiled
// once (with T7_PRECOMPILED_BUILD, that header's list is explicit instantiation
// definitions). A program defining T7_PRECOMPILED links this library.
#include <t7/tensor.hpp>
