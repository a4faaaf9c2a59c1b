# Strided arrays (NumPy views: steps, windows, transposed axes, reversed
# axes; PyTorch CPU views where torch is importable), read and written in
# place through their strides, against NumPy element by element.
import itertools

import numpy as np
import pytest

import tilekit
from conftest import DTYPES, values

BASE = (9, 10, 11, 12)
# Windows of a rank-4 array: steps, offsets, a transposed view, an axis of
# extent 1, a single step on the fastest axis (the library's unit inner
# stride path) and a stepped fastest axis (its general path).
VIEWS = {
    "steps": lambda x: x[:, ::2, 1:, :],
    "window": lambda x: x[1:8, 2:9, 3:10, 1:11],
    "inner_step": lambda x: x[::3, :, ::2, ::3],
    "transposed": lambda x: x.transpose(2, 0, 3, 1)[1:, :, ::2],
    "extent_one": lambda x: x[2:3, :, 1::4, :],
}


def strided_perms(r):
    return list(itertools.permutations(range(r)))[::5] + [tuple(reversed(range(r)))]


@pytest.mark.parametrize("view", sorted(VIEWS))
@pytest.mark.parametrize("dtype", DTYPES)
def test_strided_input(view, dtype):
    a = VIEWS[view](values(BASE, dtype))
    assert not a.flags.c_contiguous and not a.flags.f_contiguous
    for axes in strided_perms(a.ndim):
        b = tilekit.permute(a, axes)
        assert b.flags.c_contiguous
        np.testing.assert_array_equal(b, np.transpose(a, axes))


@pytest.mark.parametrize("view", sorted(VIEWS))
def test_strided_output_writes_only_its_window(view):
    for axes in strided_perms(4):
        a = values(VIEWS[view](np.empty(BASE)).transpose(np.argsort(axes)).shape, np.float64, 3)
        base = np.full(BASE, 12345.0)
        out = VIEWS[view](base)
        assert out.shape == np.transpose(a, axes).shape
        r = tilekit.permute(a, axes, out=out)
        assert r is out
        np.testing.assert_array_equal(out, np.transpose(a, axes))
        mask = np.ones(BASE, bool)
        VIEWS[view](mask)[...] = False
        assert np.all(base[mask] == 12345.0)  # nothing outside the window


def test_strided_both_sides_alpha_beta():
    a = values((8, 12, 6), np.complex128, 1)[::2, 1:, ::-1][:, :, ::-1]  # reversed twice: positive
    c = values((12, 12, 5), np.complex128, 2)
    out = c[1:, ::2, 1:]
    want = (2 - 1j) * np.transpose(a, (1, 2, 0)) + 3j * out
    tilekit.permute(a, (1, 2, 0), out=out, alpha=2 - 1j, beta=3j)
    np.testing.assert_array_equal(out, want)


def test_strided_transpose():
    a = values((20, 30), np.float32)
    for v in (a[::2], a[:, 3:17], a[1::3, ::-1][:, ::-1]):
        np.testing.assert_array_equal(tilekit.transpose(v), v.T)
    out = np.zeros((30, 25), np.float32)
    tilekit.transpose(a[1:, ::2], out=out[::2, 3:22])
    np.testing.assert_array_equal(out[::2, 3:22], a[1:, ::2].T)
    out[::2, 3:22] = 0
    assert not out.any()


def test_reversed_axes_paired():
    a = values((5, 6, 7), np.int64)
    # Reversed input axis 2 goes to output axis 0: a reversed out axis 0 takes it.
    base = np.zeros((7, 5, 6), np.int64)
    tilekit.permute(a[:, :, ::-1], (2, 0, 1), out=base[::-1])
    np.testing.assert_array_equal(base[::-1], np.transpose(a[:, :, ::-1], (2, 0, 1)))
    np.testing.assert_array_equal(base, np.transpose(a, (2, 0, 1)))


def test_reversed_axis_unpaired_is_refused():
    a = values((5, 6, 7), np.float32)
    with pytest.raises(ValueError, match=r"the input has a negative stride on axis 1 .*x\[::-1\]"):
        tilekit.permute(a[:, ::-1], (2, 0, 1))
    out = np.full((7, 5, 6), 12345, np.float32)
    with pytest.raises(ValueError, match="out has a negative stride on axis 2"):
        tilekit.permute(a, (2, 0, 1), out=out[:, :, ::-1])
    assert np.all(out == 12345)


def test_repeated_elements_are_refused():
    a = np.broadcast_to(values((1, 6), np.float64), (5, 6))
    with pytest.raises(ValueError, match="stride 0: a broadcast view"):
        tilekit.permute(a, (1, 0))
    base = np.zeros(40, np.float64)
    overlapping = np.lib.stride_tricks.as_strided(base, (5, 6), (8 * 2, 8))
    with pytest.raises(ValueError, match="overlapping axes"):
        tilekit.permute(values((6, 5), np.float64), (1, 0), out=overlapping)
    assert np.all(base == 0)


def test_interleaved_views_share_memory():
    base = np.zeros((6, 8), np.float32)
    with pytest.raises(ValueError, match="shares memory"):
        tilekit.permute(base[:, ::2], (1, 0), out=base[:, 1::2].T)


def test_contiguous_only_operations_say_so():
    a = values((6, 8), np.float64)
    with pytest.raises(ValueError, match="transpose_inplace: a .* is not contiguous"):
        tilekit.transpose_inplace(a[:, ::2])
    with pytest.raises(ValueError, match="reduce: a .* is not contiguous"):
        tilekit.reduce(a[::2], "sum")


def test_plan_with_strided_arrays():
    base = values((10, 12, 14), np.float32)
    a = base[1:9, ::2, 2:]
    out_base = np.full((13, 9, 7), 12345, np.float32)
    out = out_base[:12, :8, 1:]
    plan = tilekit.PermutePlan(a, (2, 0, 1), out)
    for seed in range(2):
        x = values((10, 12, 14), np.float32, seed)[1:9, ::2, 2:]
        assert plan.execute(x, out) is out
        np.testing.assert_array_equal(out, np.transpose(x, (2, 0, 1)))
    with pytest.raises(ValueError, match="strided"):
        plan.execute(a)  # planned for a strided out=: pass one
    with pytest.raises(ValueError, match="strides other than the plan's"):
        plan.execute(values((10, 12, 15), np.float32)[1:9, ::2, 3:], out)
    with pytest.raises(ValueError, match="C-ordered, the plan's strided"):
        plan.execute(np.ascontiguousarray(a), out)
    p2 = tilekit.PermutePlan(a, (1, 2, 0))  # strided in, new outputs
    np.testing.assert_array_equal(p2.execute(a), np.transpose(a, (1, 2, 0)))


def test_torch_cpu_views():
    torch = pytest.importorskip("torch")
    h = values(BASE, np.float32)
    t = torch.from_numpy(h)
    for view in sorted(VIEWS):
        tv = VIEWS[view](t) if view != "transposed" else t.permute(2, 0, 3, 1)[1:, :, ::2]
        hv = VIEWS[view](h)
        for axes in strided_perms(4):
            b = tilekit.permute(tv, axes)
            assert isinstance(b, torch.Tensor)
            np.testing.assert_array_equal(b.numpy(), np.transpose(hv, axes))
    out = torch.zeros((12, 11, 10, 9))[::2, 1:, :, :]
    tilekit.permute(t[:, :, 1:, ::2], (3, 2, 1, 0), out=out)
    np.testing.assert_array_equal(out.numpy(), np.transpose(h[:, :, 1:, ::2], (3, 2, 1, 0)))
