// Device tags: a Tensor's second template parameter says where its memory lives.
#pragma once

namespace t7 {

struct CPU {
    static constexpr const char* name = "CPU";
};
struct CUDA {
    static constexpr const char* name = "CUDA";
};

} // namespace t7
