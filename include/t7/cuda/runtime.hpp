// Forwarding header (the device runtime moved below tensor/, docs/architecture.md):
// programs that include <t7/cuda/runtime.hpp> keep compiling.
#pragma once

#include "../core/device_kernels.hpp"
#include "../core/device_runtime.hpp"
