# PyTorch and CuPy load their own CUDA runtime (often another major version)
# into the process's global symbol scope. tilekit must initialise and run
# whichever is imported first: each order runs in a fresh interpreter, since
# the crash this guards against (Kokkos' initialisation calling into torch's
# CUDA runtime) took the whole process down.
import importlib.util
import os
import subprocess
import sys

import pytest

SCRIPT = """
import {first}
import numpy as np
import tilekit
tilekit.initialize()
a = np.arange(6 * 7, dtype=np.float32).reshape(6, 7)
assert (tilekit.transpose(a) == a.T).all()
print(tilekit.spaces())
"""


@pytest.mark.parametrize("first", ["torch", "cupy"])
def test_framework_imported_first(first):
    if importlib.util.find_spec(first) is None:
        pytest.skip(f"{first} is not installed")
    env = dict(os.environ)
    r = subprocess.run([sys.executable, "-c", SCRIPT.format(first=first)], env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, f"import {first}; import tilekit: exit {r.returncode}\n{r.stderr[-2000:]}"
