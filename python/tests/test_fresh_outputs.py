"""New host outputs (the module allocates): outputs of 2 MiB or more start on a
2 MiB boundary (all of them can be huge pages) and are mapped before the kernel
writes them (tilekit::first_touch); every element is still the transposed
input's, and the array is writable and outlives the call's other arrays."""
import numpy as np
import pytest

import tilekit

HUGE = 2 << 20


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.uint8, np.complex128])
@pytest.mark.parametrize("shape", [(1031, 1029), (2048, 1024), (3, 5)])
def test_new_transpose_output(shape, dtype):
    rng = np.random.default_rng(1)
    a = (rng.random(shape) * 200).astype(dtype)
    r = tilekit.transpose(a)
    assert r.shape == shape[::-1] and r.dtype == a.dtype and r.flags.c_contiguous
    assert r.flags.writeable
    np.testing.assert_array_equal(r, a.T)
    if r.nbytes >= HUGE:
        assert r.ctypes.data % HUGE == 0
    r[...] = 0  # the whole output is ours to write
    assert not r.any()


def test_new_permute_output_large():
    a = np.arange(64 * 96 * 100, dtype=np.float32).reshape(64, 96, 100)
    r = tilekit.permute(a, (2, 0, 1))
    assert r.ctypes.data % HUGE == 0
    np.testing.assert_array_equal(r, np.transpose(a, (2, 0, 1)))
    del a
    np.testing.assert_array_equal(r[3, 2], np.arange(64 * 96 * 100, dtype=np.float32)
                                  .reshape(64, 96, 100)[2, :, 3])
