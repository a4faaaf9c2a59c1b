# The same checks with PyTorch and CuPy CUDA arrays (skipped without them or
# without a CUDA build of the module), plus the stream contract: the work runs
# on the caller's stream, after its earlier work, without synchronising the
# device, and outputs and inputs are handed over between streams by events.
import itertools
import os

import numpy as np
import pytest

import tilekit
from conftest import DTYPES, REAL_DTYPES, poison, values

if "Cuda" not in tilekit.spaces():
    pytest.skip("tilekit was built without CUDA", allow_module_level=True)

SLEEP_CYCLES = int(os.environ.get("TILEKIT_TEST_SLEEP_CYCLES", 400_000_000))  # ~0.2 s at 2 GHz


class Torch:
    name = "torch"

    def __init__(self):
        import torch
        if not torch.cuda.is_available():
            pytest.skip("no CUDA device for torch")
        self.t = torch

    def to_device(self, x):
        return self.t.from_numpy(np.ascontiguousarray(x)).cuda() if x.flags.c_contiguous or \
            not x.flags.f_contiguous else self.t.from_numpy(x.T.copy()).cuda().T

    def to_host(self, x):
        return x.cpu().numpy()

    def empty(self, shape, dtype):
        return self.t.from_numpy(np.full(shape, poison(dtype), dtype)).cuda()

    def is_array(self, x):
        return isinstance(x, self.t.Tensor) and x.is_cuda

    def stream(self):
        return self.t.cuda.Stream()

    def use(self, s):
        return self.t.cuda.stream(s)

    def sleep(self):
        self.t.cuda._sleep(SLEEP_CYCLES)

    def event(self, s=None):
        e = self.t.cuda.Event()
        e.record(s)
        return e

    def done(self, e):
        return e.query()

    def synchronize(self):
        self.t.cuda.synchronize()

    def mem_used(self):
        free, total = self.t.cuda.mem_get_info()
        return total - free

    def pool_used(self):
        """Bytes in use in the framework's own allocator."""
        return self.t.cuda.memory_allocated()


class CuPy:
    name = "cupy"

    def __init__(self):
        import cupy
        try:
            cupy.cuda.runtime.getDeviceCount()
        except Exception:
            pytest.skip("no CUDA device for cupy")
        self.cp = cupy
        self._sleep = cupy.RawKernel(
            r'''extern "C" __global__ void tk_sleep(long long c) {
                  long long t = clock64(); while (clock64() - t < c) {} }''', "tk_sleep")

    def to_device(self, x):
        return self.cp.asarray(x, order="F" if (x.flags.f_contiguous and not x.flags.c_contiguous) else "C")

    def to_host(self, x):
        return self.cp.asnumpy(x)

    def empty(self, shape, dtype):
        return self.cp.full(shape, poison(dtype), dtype)

    def is_array(self, x):
        return isinstance(x, self.cp.ndarray)

    def stream(self):
        return self.cp.cuda.Stream(non_blocking=True)

    def use(self, s):
        return s

    def sleep(self):
        self._sleep((1,), (1,), (np.int64(SLEEP_CYCLES),))

    def event(self, s=None):
        e = self.cp.cuda.Event()
        e.record(s)
        return e

    def done(self, e):
        return e.done

    def synchronize(self):
        self.cp.cuda.runtime.deviceSynchronize()

    def mem_used(self):
        free, total = self.cp.cuda.runtime.memGetInfo()
        return total - free

    def pool_used(self):
        return self.cp.get_default_memory_pool().used_bytes()


@pytest.fixture(params=[Torch, CuPy], ids=["torch", "cupy"])
def fw(request):
    mod = pytest.importorskip(request.param.name)
    assert mod
    return request.param()


@pytest.mark.parametrize("dtype", DTYPES)
def test_permute(fw, dtype):
    for shape in [(7,), (5, 7), (3, 5, 7), (33, 17, 65), (4, 3, 5, 2), (2, 3, 2, 3, 2, 3)]:
        a_h = values(shape, dtype)
        a = fw.to_device(a_h)
        for axes in list(itertools.permutations(range(len(shape))))[::7] + [tuple(reversed(range(len(shape))))]:
            b = tilekit.permute(a, axes)
            assert fw.is_array(b)
            np.testing.assert_array_equal(fw.to_host(b), np.transpose(a_h, axes))
            out = fw.empty(np.transpose(a_h, axes).shape, dtype)
            assert tilekit.permute(a, axes, out=out) is out
            np.testing.assert_array_equal(fw.to_host(out), np.transpose(a_h, axes))


@pytest.mark.parametrize("dtype", DTYPES)
def test_transpose_and_inplace(fw, dtype):
    for shape in [(1, 17), (31, 64), (257, 129)]:
        a_h = values(shape, dtype)
        np.testing.assert_array_equal(fw.to_host(tilekit.transpose(fw.to_device(a_h))), a_h.T)
        np.testing.assert_array_equal(
            fw.to_host(tilekit.transpose(fw.to_device(np.asfortranarray(a_h)))), a_h.T)
    for n in [1, 33, 257]:
        a_h = values((n, n), dtype)
        a = fw.to_device(a_h)
        assert tilekit.transpose_inplace(a) is a
        np.testing.assert_array_equal(fw.to_host(a), a_h.T)
    for shape in [(7, 13), (96, 64), (250, 100)]:
        a_h = values(shape, dtype)
        r = tilekit.transpose_inplace(fw.to_device(a_h))
        np.testing.assert_array_equal(fw.to_host(r), a_h.T)


@pytest.mark.parametrize("dtype", REAL_DTYPES)
def test_reduce(fw, dtype):
    for n in [1, 1000, 1 << 20]:
        a_h = values((n,), dtype)
        a = fw.to_device(a_h)
        if np.issubdtype(dtype, np.integer):
            assert tilekit.reduce(a, "sum") == int(a_h.astype(np.int64).sum())
        else:
            exact = float(a_h.astype(np.float64).sum())
            assert abs(tilekit.reduce(a, "sum") - exact) <= 4 * np.finfo(dtype).eps * n * np.abs(a_h).sum()
            assert tilekit.reduce(a, "sum_compensated") == pytest.approx(exact, rel=16 * np.finfo(dtype).eps)
        assert tilekit.reduce(a, "min") == a_h.min() and tilekit.reduce(a, "max") == a_h.max()
        assert tilekit.reduce(a, "argmin") == a_h.argmin()
        assert tilekit.reduce(a, "argmax") == a_h.argmax()


def test_plan(fw):
    a_h = values((6, 7, 8), np.float32)
    a = fw.to_device(a_h)
    out = fw.empty((8, 6, 7), np.float32)
    plan = tilekit.PermutePlan(a, (2, 0, 1), out)
    assert plan.device.startswith("cuda")
    for seed in range(3):
        x_h = values((6, 7, 8), np.float32, seed)
        plan.execute(fw.to_device(x_h), out)
        np.testing.assert_array_equal(fw.to_host(out), np.transpose(x_h, (2, 0, 1)))


def test_errors(fw):
    a = fw.to_device(values((6, 8), np.float32))
    with pytest.raises(ValueError, match="on cuda:.* and out on cpu"):
        tilekit.transpose(a, out=np.zeros((8, 6), np.float32))
    with pytest.raises(ValueError, match="not contiguous"):
        tilekit.transpose_inplace(a[:, ::2])
    with pytest.raises(ValueError, match="shares memory"):
        tilekit.permute(a, (0, 1), out=a)
    with pytest.raises(TypeError, match="dtype"):
        tilekit.transpose(a, out=fw.empty((8, 6), np.float64))


def test_no_leak(fw):
    a = fw.to_device(values((256, 256), np.float32))  # 256 KiB per output
    out = fw.empty((256, 256), np.float32)
    for _ in range(100):
        tilekit.transpose(a)
    fw.synchronize()
    import sys
    ref = sys.getrefcount(a), sys.getrefcount(out)
    used = fw.mem_used()
    for i in range(10_000):
        tilekit.transpose(a, out=out if i % 2 else None)
    fw.synchronize()
    assert (sys.getrefcount(a), sys.getrefcount(out)) == ref
    assert fw.mem_used() - used < 64 * 2**20  # 5000 leaked outputs would be 1.25 GiB


def test_runs_on_the_callers_stream_without_device_sync(fw):
    shape, axes = (64, 128, 256), (2, 0, 1)
    src = fw.to_device(values(shape, np.float32))
    a = fw.empty(shape, np.float32)
    out = fw.empty((256, 64, 128), np.float32)
    s = fw.stream()
    with fw.use(s):
        tilekit.permute(a, axes, out=out)  # plans (tables, workspace) made and cached for s:
        tilekit.reduce(out, "max")         # later calls allocate nothing
    fw.synchronize()
    # A long kernel on the default stream, to see whether anything waits for it.
    fw.sleep()
    default_busy = fw.event()
    with fw.use(s):
        fw.sleep()          # s: long kernel, then the input is written, then tilekit
        a[...] = src
        r = tilekit.permute(a, axes, out=out)
        done = fw.event(s)
    # The call returned while s (and the default stream) were still busy: it
    # neither waited for its own stream nor synchronised the device.
    assert not fw.done(done), "tilekit waited for its stream"
    assert not fw.done(default_busy), "tilekit synchronised the device"
    assert r is out
    done.synchronize()
    # It ran after the write that preceded it on s.
    np.testing.assert_array_equal(fw.to_host(out), np.transpose(fw.to_host(src), axes))
    # reduce returns a value: it waits for s only.
    fw.synchronize()
    fw.sleep()
    default_busy = fw.event()
    with fw.use(s):
        total = tilekit.reduce(out, "max")
    assert not fw.done(default_busy), "reduce synchronised the device"
    assert total == fw.to_host(src).max()
    fw.synchronize()


def test_stream_argument_and_handover(fw):
    # Input written on the default stream, tilekit on s (stream=): the DLPack
    # handshake makes s wait; the output is used on the default stream: the
    # export makes the default stream wait for s.
    shape, axes = (128, 64, 96), (1, 2, 0)
    src = fw.to_device(values(shape, np.float64))
    a = fw.empty(shape, np.float64)
    s = fw.stream()
    tilekit.permute(a, axes, stream=s)
    fw.synchronize()
    fw.sleep()
    a[...] = src                                   # default stream, after a long kernel
    b = tilekit.permute(a, axes, stream=s)         # runs on s
    c = b * 1                                      # default stream
    fw.synchronize()
    np.testing.assert_array_equal(fw.to_host(c), np.transpose(fw.to_host(src), axes))


def test_strided_views(fw):
    base_h = values((9, 10, 11, 12), np.float32)
    base = fw.to_device(base_h)
    for view in (lambda x: x[:, ::2, 1:, :], lambda x: x[1:8, 2:9, 3:10, 1:11],
                 lambda x: x[::3, :, ::2, ::3]):
        a, a_h = view(base), view(base_h)
        for axes in [(3, 2, 1, 0), (0, 2, 3, 1), (1, 0, 3, 2), (0, 1, 2, 3)]:
            np.testing.assert_array_equal(fw.to_host(tilekit.permute(a, axes)),
                                          np.transpose(a_h, axes))
    out_base = fw.empty((13, 12, 11, 10), np.float32)
    out = out_base[1:, 2::2, :, 1:]         # (12, 5, 11, 9)
    tilekit.permute(base[:, ::2, :, :], (3, 1, 2, 0), out=out)
    want = np.full((13, 12, 11, 10), poison(np.float32), np.float32)
    want[1:, 2::2, :, 1:] = np.transpose(base_h[:, ::2], (3, 1, 2, 0))
    np.testing.assert_array_equal(fw.to_host(out_base), want)


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.uint32,
                                   np.uint64, np.float16])
def test_move_only_dtypes(fw, dtype):
    rng = np.random.default_rng(1)
    raw = rng.integers(0, 256, size=(17, 33, 24 * np.dtype(dtype).itemsize), dtype=np.uint8)
    a_h = (raw % 2).astype(np.bool_) if dtype == np.bool_ else raw.view(dtype)
    try:
        a = fw.to_device(a_h)
    except (TypeError, RuntimeError) as e:  # older PyTorch: no uint16, uint32, uint64
        pytest.skip(f"{fw.name} takes no {np.dtype(dtype).name}: {e}")
    u = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[np.dtype(dtype).itemsize]
    for axes in itertools.permutations(range(3)):
        b = tilekit.permute(a, axes)
        np.testing.assert_array_equal(fw.to_host(b).view(u), np.transpose(a_h, axes).view(u))
    img_h = rng.integers(0, 256, size=(2, 3, 64, 48), dtype=np.uint8)
    hwc = tilekit.permute(fw.to_device(img_h), (0, 2, 3, 1))
    np.testing.assert_array_equal(fw.to_host(hwc), np.transpose(img_h, (0, 2, 3, 1)))


def test_torch_bfloat16():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device for torch")
    bits = torch.randint(-2**15, 2**15, (16, 24, 40), dtype=torch.int16, device="cuda")
    a = bits.view(torch.bfloat16)
    b = tilekit.permute(a, (2, 0, 1))
    assert b.dtype == torch.bfloat16
    assert torch.equal(b.view(torch.int16), bits.permute(2, 0, 1).contiguous())
    if "bfloat16" in tilekit.scaled_dtypes():
        x = torch.arange(12, dtype=torch.bfloat16, device="cuda").reshape(3, 4)
        out = torch.ones((4, 3), dtype=torch.bfloat16, device="cuda")
        tilekit.permute(x, (1, 0), out=out, alpha=2, beta=1)
        assert torch.equal(out, 2 * x.T + 1)


def test_new_outputs_from_the_framework_allocator(fw):
    a = fw.to_device(values((64, 128, 96), np.float32))
    tilekit.permute(a, (2, 0, 1))  # plan made and cached
    fw.synchronize()
    before = fw.pool_used()
    b = tilekit.permute(a, (2, 0, 1))
    assert fw.pool_used() - before >= 64 * 128 * 96 * 4, "the output is not the framework's"
    del b
    c = tilekit.transpose(a[0])
    assert fw.is_array(c) and fw.pool_used() - before >= 128 * 96 * 4


def test_new_output_without_device_sync(fw):
    # A call with a new output on stream s returns while a long kernel on the
    # default stream, and the one before it on s, still run: the allocation
    # (the framework's pool) and the call synchronise nothing.
    shape, axes = (64, 128, 256), (2, 0, 1)
    src = fw.to_device(values(shape, np.float32))
    a = fw.empty(shape, np.float32)
    s = fw.stream()
    with fw.use(s):
        tilekit.permute(a, axes)  # plan cached for s; the pool holds a block of this size
    fw.synchronize()
    fw.sleep()
    default_busy = fw.event()
    with fw.use(s):
        fw.sleep()
        a[...] = src
        b = tilekit.permute(a, axes)
        done = fw.event(s)
    assert not fw.done(done), "tilekit waited for its stream"
    assert not fw.done(default_busy), "a new output synchronised the device"
    done.synchronize()
    np.testing.assert_array_equal(fw.to_host(b), np.transpose(fw.to_host(src), axes))
    fw.synchronize()
