# Writes the .npy fixtures of tests/test_io_npy.cpp with NumPy (1.24.2, Debian 12's
# python3-numpy): run `python3 make_npy.py` in this folder. Values: arange-based, so
# the tests compute what to expect.
import numpy as np
from numpy.lib import format as npf

def save(name, a, version=None):
    with open(name, "wb") as f:
        npf.write_array(f, a, version=version)

types = {"u1": np.uint8, "i1": np.int8, "i2": np.int16, "i4": np.int32,
         "i8": np.int64, "f4": np.float32, "f8": np.float64}
for code, t in types.items():
    # 2x3, values v(i) = 50*i (u1) or 7*i - 20 (others) in C order
    v = np.arange(6) * 50 if code == "u1" else np.arange(6) * 7 - 20
    save(code + "_2x3.npy", v.astype(t).reshape(2, 3))
    # the same values, stored in Fortran order
    save(code + "_2x3_fortran.npy", np.asfortranarray(v.astype(t).reshape(2, 3)))
save("f8_3x4_v2.npy", np.arange(1, 13, dtype=np.float64).reshape(3, 4), version=(2, 0))
save("i8_5_v3.npy", np.arange(5, dtype=np.int64) - 2, version=(3, 0))
save("f4_2x3x4.npy", np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 4)
save("i2_2x3x4_fortran.npy", np.asfortranarray(np.arange(24, dtype=np.int16).reshape(2, 3, 4)))
save("f8_3_big_endian.npy", np.array([1.5, -2.25, 1e300], dtype=">f8"))
save("i4_3_big_endian.npy", np.array([1, -2, 70000], dtype=">i4"))
save("f4_scalar.npy", np.array(3.5, dtype=np.float32))
save("f8_empty.npy", np.zeros((0,), dtype=np.float64))
save("i4_0x3.npy", np.zeros((0, 3), dtype=np.int32))
save("f8_3x4_T.npy", np.arange(12, dtype=np.float64).reshape(3, 4).T)   # written in Fortran order
save("f8_4x3_Tc.npy", np.ascontiguousarray(np.arange(12, dtype=np.float64).reshape(3, 4).T))
save("b1_2.npy", np.array([True, False]))                               # no Torch7 type
save("c16_2.npy", np.array([1 + 2j, 3j]))                               # no Torch7 type
# Fourth round: unsigned CSR indices as SciPy writes them, a uint64 beyond int64, and
# an empty dimension.
save("csr_indices_u4.npy", np.array([0, 2, 5, 4294, 7, 3], dtype=np.uint32))
save("big_u8.npy", np.array([1, 2**63], dtype=np.uint64))
save("empty_0x5_f4.npy", np.zeros((0, 5), dtype=np.float32))
