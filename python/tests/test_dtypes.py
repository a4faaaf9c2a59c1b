# The move-only dtypes (bool, 1- and 2-byte integers, unsigned ones, float16,
# bfloat16): every bit of every element moves (NaN payloads of float16
# included), against NumPy and, where importable, PyTorch and ml_dtypes.
import itertools

import numpy as np
import pytest

import tilekit
from conftest import poisoned

MOVE_DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.uint32, np.uint64, np.float16]
SHAPES = [(7,), (5, 7), (33, 65), (3, 5, 7), (17, 1, 31), (4, 3, 5, 2), (2, 3, 1, 5, 3),
          (2, 2, 1, 2, 3, 2, 1, 2), (64, 3, 40, 36)]


def random_bits(shape, dtype, seed=0):
    """Every bit pattern of the dtype (float16: NaNs with payloads, -0, inf)."""
    rng = np.random.default_rng(seed)
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    raw = rng.integers(0, 256, size=tuple(shape) + (dtype.itemsize,), dtype=np.uint8)
    return raw.view(dtype).reshape(shape)


def same_bits(a, b):
    assert a.shape == b.shape and a.dtype == b.dtype
    u = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[a.dtype.itemsize]
    np.testing.assert_array_equal(np.ascontiguousarray(a).view(u), np.ascontiguousarray(b).view(u))


def perms(r, limit=6):
    ps = list(itertools.permutations(range(r)))
    return ps[::max(1, len(ps) // limit)] + [ps[-1]]


@pytest.mark.parametrize("dtype", MOVE_DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_permute_moves_every_bit(shape, dtype):
    a = random_bits(shape, dtype)
    for axes in perms(len(shape)):
        b = tilekit.permute(a, axes)
        assert isinstance(b, np.ndarray) and b.dtype == a.dtype and b.flags.c_contiguous
        same_bits(b, np.transpose(a, axes))


@pytest.mark.parametrize("dtype", MOVE_DTYPES)
def test_out_orders_and_strided_views(dtype):
    base = random_bits((9, 10, 11), dtype, 1)
    for a in (base, np.asfortranarray(base), base[1:, ::2, 3:], base[:, :, ::-1][:, :, ::-1]):
        for axes in perms(3, 3):
            want = np.transpose(a, axes)
            for order in "CF":
                out = np.zeros(want.shape, dtype, order=order)
                assert tilekit.permute(a, axes, out=out) is out
                same_bits(out, want)


@pytest.mark.parametrize("dtype", MOVE_DTYPES)
def test_transpose_and_inplace(dtype):
    a = random_bits((37, 53), dtype, 2)
    same_bits(tilekit.transpose(a), a.T)
    out = poisoned((53, 37), dtype)
    tilekit.transpose(a, out=out)
    same_bits(out, a.T)
    for shape in ((40, 40), (24, 56)):
        x = random_bits(shape, dtype, 3)
        want = x.T.copy()
        same_bits(tilekit.transpose_inplace(x), want)


@pytest.mark.parametrize("dtype", MOVE_DTYPES)
def test_plan(dtype):
    a = random_bits((6, 7, 8), dtype, 4)
    out = np.zeros((8, 6, 7), dtype)
    plan = tilekit.PermutePlan(a, (2, 0, 1), out)
    assert plan.dtype == np.dtype(dtype).name
    for seed in range(2):
        x = random_bits((6, 7, 8), dtype, seed)
        plan.execute(x, out)
        same_bits(out, np.transpose(x, (2, 0, 1)))


def test_uint8_images_hwc_chw():
    img = random_bits((4, 48, 64, 3), np.uint8, 5)  # N, H, W, C
    chw = tilekit.permute(img, (0, 3, 1, 2))
    same_bits(chw, np.transpose(img, (0, 3, 1, 2)))
    same_bits(tilekit.permute(chw, (0, 2, 3, 1)), img)


@pytest.mark.parametrize("dtype", [d for d in MOVE_DTYPES if d != np.float16])
def test_alpha_beta_are_refused_for_moved_types(dtype):
    a = random_bits((3, 4), dtype)
    out = np.zeros((4, 3), dtype)
    with pytest.raises(TypeError, match="moved only"):
        tilekit.permute(a, (1, 0), out=out, alpha=2)
    with pytest.raises(TypeError, match="moved only"):
        tilekit.permute(a, (1, 0), out=out, beta=1)
    assert not out.any()


def test_float16_scales_only_with_kokkos_half():
    a = np.arange(12, dtype=np.float16).reshape(3, 4)
    out = np.ones((4, 3), np.float16)
    if "float16" in tilekit.scaled_dtypes():
        tilekit.permute(a, (1, 0), out=out, alpha=2, beta=1)
        np.testing.assert_array_equal(out, 2 * a.T + 1)
    else:
        with pytest.raises(TypeError, match="float16 arrays are moved only"):
            tilekit.permute(a, (1, 0), out=out, alpha=2)
        np.testing.assert_array_equal(out, 1)


@pytest.mark.parametrize("dtype", MOVE_DTYPES)
def test_reduce_refuses_moved_types(dtype):
    with pytest.raises(TypeError, match="not supported"):
        tilekit.reduce(random_bits((4, 5), dtype), "sum")


def test_ml_dtypes_bfloat16():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    bits = random_bits((5, 6, 7), np.uint16, 6)
    a = bits.view(ml_dtypes.bfloat16)
    b = tilekit.permute(a, (2, 0, 1))
    assert b.dtype == a.dtype
    np.testing.assert_array_equal(b.view(np.uint16), np.transpose(bits, (2, 0, 1)))
    out = np.zeros((7, 5, 6), ml_dtypes.bfloat16)
    tilekit.permute(a, (2, 0, 1), out=out)
    np.testing.assert_array_equal(out.view(np.uint16), np.transpose(bits, (2, 0, 1)))


@pytest.mark.parametrize("name", ["bool", "int8", "uint8", "int16", "uint16", "uint32", "uint64",
                                  "float16", "bfloat16"])
def test_torch_cpu_dtypes(name):
    torch = pytest.importorskip("torch")
    dtype = getattr(torch, name, None)
    if dtype is None:
        pytest.skip(f"this torch has no {name}")
    bits = torch.from_numpy(random_bits((6, 5, 4), np.uint8 if name == "bool" else
                                        {1: np.uint8, 2: np.int16, 4: np.int32, 8: np.int64}[
                                            torch.empty(0, dtype=dtype).element_size()], 7))
    a = bits.bool() if name == "bool" else bits.view(dtype)
    b = tilekit.permute(a, (1, 2, 0))
    assert isinstance(b, torch.Tensor) and b.dtype == dtype
    assert torch.equal(b.view(torch.uint8) if name == "bool" else b.view(bits.dtype),
                       a.permute(1, 2, 0).contiguous().view(torch.uint8) if name == "bool"
                       else a.permute(1, 2, 0).contiguous().view(bits.dtype))
