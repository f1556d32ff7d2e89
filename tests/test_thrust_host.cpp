// The CUDA backend's tests (tests/cuda_tests.hpp) run on the CPU: this file is
// compiled by the host compiler with -DTHRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_OMP
// (or _CPP) and linked with the library's sources built the same way
// (kernels/host_system.cpp), so every Thrust functor, the loop planning, the
// reductions' passes and the runtime's cache run over two emulated devices.
#if !defined(THRUST_DEVICE_SYSTEM)
#error "test_thrust_host needs -DTHRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_OMP (or _CPP)"
#endif

// The host compiler also has the CPU operations: the tests of the indexed,
// masked and sorting operations then compare the GPU path with them too.
#include <t7/t7.hpp>
#define T7_CUDA_TESTS_CPU_OPS 1
#include "cuda_tests.hpp"

static_assert(T7_GPU_EMULATED, "the Thrust host tests run on a non-CUDA Thrust system");

// histc's edge cases on the device (the CPU's histc needs this host build).
TEST_CASE("cuda: histc of a constant tensor, of no finite value, of a single bin") {
    using cuda_tests::check_same;
    const double inf = std::numeric_limits<double>::infinity();
    const t7::DoubleTensor c = t7::full<double>({5}, 2.5);
    check_same(t7::histc(c.cuda(), 4), t7::histc(c, 4)); // widened to [1.5, 3.5]
    cuda_tests::check_values(t7::histc(c.cuda(), 4), {4}, {0, 0, 5, 0});
    t7::DoubleTensor none(3);
    none.data()[0] = inf, none.data()[1] = -inf, none.data()[2] = std::nan("");
    cuda_tests::check_values(t7::histc(none.cuda(), 3), {3}, {0, 0, 0});
    const t7::FloatTensor x = t7::range<float>(-3, 12);
    check_same(t7::histc(x.cuda(), 1), t7::histc(x, 1));
    check_same(t7::histc(x.cuda(), 4, 0, 7), t7::histc(x, 4, 0, 7));
    cuda_tests::check_values(t7::histc(x.cuda(), 4, 0, 7), {4}, {2, 2, 2, 2});
}
