// IEEE binary16 storage type. It only stores and converts: arithmetic happens in
// float (on the GPU the evaluator promotes Half to float, as CUDA does).
#pragma once

#include "config.hpp"
#include <cstdint>
#include <cstring>

#if defined(__CUDACC__)
#include <cuda_fp16.h> // device code converts with the hardware instructions
#endif

namespace t7 {

struct Half {
    uint16_t bits = 0;

    Half() = default;
    T7_HOST_DEVICE Half(float f) : bits(from_float(f)) {}
    T7_HOST_DEVICE operator float() const { return to_float(bits); }

    T7_HOST_DEVICE static uint16_t from_float(float f) {
#if defined(__CUDA_ARCH__)
        return __half_as_ushort(__float2half_rn(f)); // rounds to nearest even, as below
#else
        return from_float_soft(f);
#endif
    }
    T7_HOST_DEVICE static float to_float(uint16_t h) {
#if defined(__CUDA_ARCH__)
        return __half2float(__ushort_as_half(h));
#else
        return to_float_soft(h);
#endif
    }

    T7_HOST_DEVICE static uint16_t from_float_soft(float f) {
        uint32_t x;
        std::memcpy(&x, &f, 4);
        uint32_t sign = (x >> 16) & 0x8000u;
        uint32_t mant = x & 0x7fffffu;
        int32_t exp = int32_t((x >> 23) & 0xff) - 127 + 15;
        if (((x >> 23) & 0xff) == 0xff) // inf or nan
            return uint16_t(sign | 0x7c00u | (mant ? 0x200u : 0u));
        if (exp >= 0x1f) return uint16_t(sign | 0x7c00u); // overflow -> inf
        if (exp <= 0) {                                   // subnormal or zero
            if (exp < -10) return uint16_t(sign);
            mant |= 0x800000u;
            uint32_t shift = uint32_t(14 - exp);
            uint32_t half = mant >> shift;
            uint32_t rest = mant & ((1u << shift) - 1);
            uint32_t mid = 1u << (shift - 1);
            if (rest > mid || (rest == mid && (half & 1))) ++half;
            return uint16_t(sign | half);
        }
        uint32_t half = sign | (uint32_t(exp) << 10) | (mant >> 13);
        uint32_t rest = mant & 0x1fffu;
        if (rest > 0x1000u || (rest == 0x1000u && (half & 1))) ++half; // round to nearest even
        return uint16_t(half);
    }

    T7_HOST_DEVICE static float to_float_soft(uint16_t h) {
        uint32_t sign = uint32_t(h & 0x8000u) << 16;
        uint32_t exp = (h >> 10) & 0x1f;
        uint32_t mant = h & 0x3ffu;
        uint32_t x;
        if (exp == 0x1f) {
            x = sign | 0x7f800000u | (mant << 13);
        } else if (exp == 0) {
            if (mant == 0) {
                x = sign;
            } else { // normalise the subnormal
                int e = -1;
                do {
                    ++e;
                    mant <<= 1;
                } while (!(mant & 0x400u));
                x = sign | (uint32_t(127 - 15 - e) << 23) | ((mant & 0x3ffu) << 13);
            }
        } else {
            x = sign | ((exp + 127 - 15) << 23) | (mant << 13);
        }
        float f;
        std::memcpy(&f, &x, 4);
        return f;
    }
};

} // namespace t7
