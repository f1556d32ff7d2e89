// Fourier transforms (numpy.fft's semantics): t7::fft, ifft, rfft, irfft, fft2,
// ifft2, fftn, ifftn, rfftn, irfftn, fftfreq, rfftfreq, fftshift, ifftshift.
#pragma once

#include "math/fft.hpp"
