# PyTorch CPU tensors in and out (skipped without PyTorch).
import numpy as np
import pytest

import tilekit
from conftest import values

torch = pytest.importorskip("torch")


def test_torch_cpu_tensors():
    a_h = values((5, 6, 7), np.float32)
    a = torch.from_numpy(a_h)
    b = tilekit.permute(a, (2, 0, 1))
    assert isinstance(b, torch.Tensor) and not b.is_cuda
    np.testing.assert_array_equal(b.numpy(), np.transpose(a_h, (2, 0, 1)))
    out = torch.empty((7, 5, 6))
    assert tilekit.permute(a, (2, 0, 1), out=out) is out
    np.testing.assert_array_equal(out.numpy(), np.transpose(a_h, (2, 0, 1)))
    assert tilekit.reduce(a, "argmax") == a_h.argmax()
    # A strided view is read in place (test_strided.py has more).
    np.testing.assert_array_equal(tilekit.permute(a[:, ::2], (2, 0, 1)).numpy(),
                                  np.transpose(a_h[:, ::2], (2, 0, 1)))
