"""New host outputs (the module allocates): outputs of 2 MiB or more start on a
2 MiB boundary (all of them can be huge pages) and are mapped before the kernel
writes them (tilekit::first_touch); every element is still the transposed
input's, and the array is writable and outlives the call's other arrays. The
last released large outputs are reused for the next output of their size."""
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


def test_released_output_reused_for_the_same_size():
    """A large output dropped before the next call of its size is reused (its
    memory, already mapped); one still alive never is; every result is
    complete; release_cached_outputs() frees what is kept."""
    rng = np.random.default_rng(2)
    a = rng.random((1024, 1536)).astype(np.float32)  # 6 MiB
    b = rng.random((1024, 1536)).astype(np.float32)
    r = tilekit.transpose(a)
    first = r.ctypes.data
    del r
    r = tilekit.transpose(b)  # the same size: the released output's memory
    assert r.ctypes.data == first
    np.testing.assert_array_equal(r, b.T)
    s = tilekit.transpose(a)  # r is alive: a buffer of its own
    assert s.ctypes.data != r.ctypes.data
    np.testing.assert_array_equal(s, a.T)
    np.testing.assert_array_equal(r, b.T)
    other = tilekit.permute(a.reshape(1024, 96, 16), (2, 0, 1))  # the same bytes, another shape
    np.testing.assert_array_equal(other, np.transpose(a.reshape(1024, 96, 16), (2, 0, 1)))
    del r, s, other
    tilekit.release_cached_outputs()
    t = tilekit.transpose(a)
    np.testing.assert_array_equal(t, a.T)

