# References, memory and Kokkos' lifetime: no leak over 10^4 calls, outputs
# that outlive Kokkos, the DLPack export contract of outputs.
import gc
import os
import subprocess
import sys
import textwrap
import tracemalloc

import numpy as np
import pytest

import tilekit
from conftest import values

CALLS = 10_000


def rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def test_no_leak_over_many_calls():
    a = values((64, 64), np.float32)   # 16 KiB per output: 5000 leaked would be 80 MiB
    out = np.empty((64, 64), np.float32)
    ref_a, ref_out = sys.getrefcount(a), sys.getrefcount(out)
    for _ in range(100):  # warm: plans cached, allocator settled
        tilekit.permute(a, (1, 0))
    gc.collect()
    tracemalloc.start()
    rss0 = rss_bytes()
    snap0 = tracemalloc.take_snapshot()
    calls = [lambda: tilekit.permute(a, (1, 0)), lambda: tilekit.permute(a, (1, 0), out=out),
             lambda: tilekit.transpose(a), lambda: tilekit.reduce(a, "max")]
    for i in range(CALLS):
        calls[i % 4]()
    gc.collect()
    grown = sum(s.size_diff for s in tracemalloc.take_snapshot().compare_to(snap0, "filename"))
    tracemalloc.stop()
    assert sys.getrefcount(a) == ref_a and sys.getrefcount(out) == ref_out
    assert grown < 256 * 1024, f"Python allocations grew by {grown} bytes"
    assert rss_bytes() - rss0 < 32 * 2**20, "resident memory grew by more than 32 MiB"


def test_plans_are_cached():
    a = values((5, 7, 9), np.float64)
    tilekit.permute(a, (2, 1, 0))
    n = tilekit._tilekit.cached_plans()
    for _ in range(10):
        tilekit.permute(a, (2, 1, 0))
    assert tilekit._tilekit.cached_plans() == n


def test_output_exported_once():
    buf = tilekit._tilekit.permute(values((3, 4), np.float32), (1, 0), None, 1, 0, None)
    assert buf.__dlpack_device__() == (1, 0)
    x = np.from_dlpack(buf)
    assert x.shape == (4, 3)
    with pytest.raises(BufferError, match="already exported"):
        buf.__dlpack__()


def test_unconsumed_capsule_is_released():
    for _ in range(1000):
        buf = tilekit._tilekit.permute(values((64, 64), np.float32), (1, 0), None, 1, 0, None)
        cap = buf.__dlpack__()
        del cap, buf  # nobody consumed it: the capsule's destructor frees the allocation


def run_script(body):
    env = dict(os.environ, OMP_PROC_BIND="false")
    return subprocess.run([sys.executable, "-c", textwrap.dedent(body)], env=env,
                          capture_output=True, text=True, timeout=120)


def test_outputs_outlive_finalize():
    # The first atexit handler runs last: after tilekit has finalised Kokkos.
    r = run_script("""
        import atexit, numpy as np
        kept = {}
        def late():
            b = kept.pop("b")
            assert (b == np.arange(12.0).reshape(3, 4).T).all()
            b[:] = 0   # still ours to write
            del b      # the Kokkos allocation is released after finalize: no abort
            print("late ok", flush=True)
        atexit.register(late)
        import tilekit
        kept["b"] = tilekit.transpose(np.arange(12.0).reshape(3, 4))
        kept["plan"] = tilekit.PermutePlan(np.zeros((2, 3, 4)), (2, 0, 1))
        print("spaces", tilekit.spaces(), flush=True)
    """)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "late ok" in r.stdout


def test_calls_after_finalize_raise():
    r = run_script("""
        import numpy as np, tilekit
        a = np.zeros((3, 4))
        plan = tilekit.PermutePlan(a, (1, 0))
        b = tilekit.permute(a, (1, 0))
        tilekit.finalize()
        for f in (lambda: tilekit.permute(a, (1, 0)), lambda: plan.execute(a)):
            try:
                f()
            except RuntimeError as e:
                print("raised", "finalized" in str(e))
        print(b.sum())
    """)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.count("raised True") == 2


def test_runtime_reports():
    assert tilekit.__version__.count(".") == 2
    assert tilekit.kokkos_version().startswith("4.")
    assert any(s in tilekit.spaces() for s in ("OpenMP", "Serial", "Threads"))
    assert tilekit.is_initialized()
    assert tilekit.host_concurrency() >= 1
