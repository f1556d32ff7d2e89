// libtensor7's copy of the thread pool behind iter::parallel_for
// (include/t7/iter/thread_pool.hpp): one pool per program, whatever the
// translation units that start loops.
#define T7_THREAD_POOL_DEFINE
#include <t7/iter/thread_pool.hpp>
