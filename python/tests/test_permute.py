# tilekit.permute and tilekit.PermutePlan against numpy.transpose on the CPU.
import itertools

import numpy as np
import pytest

import tilekit
from conftest import DTYPES, poisoned, values

SHAPES = [(7,), (1, 13), (13, 1), (5, 7), (33, 65), (3, 5, 7), (17, 1, 31), (4, 3, 5, 2),
          (2, 3, 1, 5, 3), (2, 3, 2, 3, 2, 3), (2, 1, 3, 2, 2, 1, 2), (2, 2, 1, 2, 3, 2, 1, 2)]


def perms(r, limit=8):
    ps = list(itertools.permutations(range(r)))
    step = max(1, len(ps) // limit)
    return ps[::step] + [ps[-1]]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_permute_matches_numpy(shape, dtype):
    a = values(shape, dtype)
    for axes in perms(len(shape)):
        b = tilekit.permute(a, axes)
        assert isinstance(b, np.ndarray) and b.flags.c_contiguous
        np.testing.assert_array_equal(b, np.transpose(a, axes))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("order_in,order_out", [("C", "C"), ("F", "C"), ("C", "F"), ("F", "F")])
@pytest.mark.parametrize("shape", [(5, 7), (3, 5, 7), (4, 3, 5, 2), (2, 3, 4, 3, 2)])
def test_permute_orders_into_out(shape, order_in, order_out, dtype):
    a = np.asarray(values(shape, dtype), order=order_in)
    for axes in perms(len(shape), 4):
        want = np.transpose(a, axes)
        out = poisoned(want.shape, dtype, order_out)
        r = tilekit.permute(a, axes, out=out)
        assert r is out
        np.testing.assert_array_equal(out, want)


@pytest.mark.parametrize("dtype", DTYPES)
def test_permute_alpha_beta(dtype):
    a = values((6, 5, 4), dtype, 1)
    c = values((4, 6, 5), dtype, 2)
    alpha, beta = (2 + 1j, -3j) if np.issubdtype(dtype, np.complexfloating) else (2, -3)
    out = c.copy()
    tilekit.permute(a, (2, 0, 1), out=out, alpha=alpha, beta=beta)
    np.testing.assert_array_equal(out, (alpha * np.transpose(a, (2, 0, 1)) + beta * c).astype(dtype))
    out = c.copy()
    tilekit.permute(a, (2, 0, 1), out=out, alpha=alpha)  # beta = 0: out is not read
    np.testing.assert_array_equal(out, (alpha * np.transpose(a, (2, 0, 1))).astype(dtype))


def test_permute_default_axes_and_negative_axes():
    a = values((3, 4, 5), np.float32)
    np.testing.assert_array_equal(tilekit.permute(a), a.T)
    np.testing.assert_array_equal(tilekit.permute(a, (-1, 0, -2)), np.transpose(a, (2, 0, 1)))


def test_permute_empty_and_larger():
    e = np.zeros((0, 3, 4), np.float32)
    assert tilekit.permute(e, (2, 0, 1)).shape == (4, 0, 3)
    a = values((64, 96, 130), np.float32)
    for axes in itertools.permutations(range(3)):
        np.testing.assert_array_equal(tilekit.permute(a, axes), np.transpose(a, axes))


def test_permute_views_with_offset():
    base = values((10, 6, 5), np.float64)
    a = base[3:7]  # C-contiguous, starts 3 * 30 elements in (DLPack byte offset / data pointer)
    np.testing.assert_array_equal(tilekit.permute(a, (1, 2, 0)), np.transpose(a, (1, 2, 0)))
    f = np.asfortranarray(base)[:, :, 1:4]
    np.testing.assert_array_equal(tilekit.permute(f, (2, 1, 0)), np.transpose(f, (2, 1, 0)))


def test_read_only_input_is_read_in_place():
    a = values((8, 9), np.int64)
    a.flags.writeable = False
    np.testing.assert_array_equal(tilekit.permute(a, (1, 0)), a.T)
    np.testing.assert_array_equal(tilekit.transpose(a), a.T)
    assert tilekit.reduce(a, "sum") == int(a.sum())


def test_output_is_writable_and_owned():
    b = tilekit.permute(values((4, 5), np.float32), (1, 0))
    b[0, 0] = 7
    assert b[0, 0] == 7
    del b  # the tilekit allocation goes with the array


@pytest.mark.parametrize("dtype", DTYPES)
def test_plan_reuse(dtype):
    a = values((5, 6, 7), dtype)
    out = poisoned((7, 5, 6), dtype)
    plan = tilekit.PermutePlan(a, (2, 0, 1), out)
    assert plan.shape == (5, 6, 7) and plan.out_shape == (7, 5, 6) and plan.axes == (2, 0, 1)
    for seed in range(3):
        x = values((5, 6, 7), dtype, seed)
        assert plan.execute(x, out) is out
        np.testing.assert_array_equal(out, np.transpose(x, (2, 0, 1)))
    np.testing.assert_array_equal(plan.execute(a), np.transpose(a, (2, 0, 1)))
    c = out.copy()
    plan.execute(a, out, alpha=2, beta=1)
    np.testing.assert_array_equal(out, (2 * np.transpose(a, (2, 0, 1)) + c).astype(dtype))


def test_plan_checks_its_arrays():
    a = values((5, 6, 7), np.float32)
    plan = tilekit.PermutePlan(a, (2, 0, 1))
    with pytest.raises(ValueError, match="shape"):
        plan.execute(values((5, 6, 8), np.float32))
    with pytest.raises(TypeError, match="dtype"):
        plan.execute(values((5, 6, 7), np.float64))
    with pytest.raises(ValueError, match="F-ordered"):
        plan.execute(np.asfortranarray(a))
    with pytest.raises(ValueError, match="shares memory"):
        plan.execute(a, a.reshape(7, 5, 6))
