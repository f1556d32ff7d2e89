// The CUDA backend's tests on the CPU, third part (tests/cuda_tests_maths.hpp),
// linked into test_thrust_host (how it is built: thrust_host_setup.hpp).
#include "thrust_host_setup.hpp"

#include "cuda_tests_maths.hpp"

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
