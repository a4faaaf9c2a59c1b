"""tilekit: tiled transpose, permute and reduce kernels (Kokkos) on the arrays
you already have: NumPy, CuPy and PyTorch, CPU or CUDA memory, through DLPack,
without copies in or out.

    import numpy as np, tilekit
    a = np.random.rand(512, 512, 1024).astype(np.float32)
    b = tilekit.permute(a, (1, 2, 0))          # == np.ascontiguousarray(a.transpose(1, 2, 0))
    tilekit.permute(a, (1, 2, 0), out=b)       # into an existing array
    s = tilekit.reduce(a, "sum")

Outputs are arrays of the input's framework (a NumPy array over the buffer,
torch.from_dlpack, cupy.from_dlpack of a tilekit allocation). On CUDA the work
runs on the caller's current stream (PyTorch's or CuPy's, or ``stream=``),
asynchronously; host calls return when the work is done. See docs/python.md.
"""
import atexit as _atexit
import sys as _sys

from . import _tilekit

__all__ = ["transpose", "permute", "transpose_inplace", "reduce", "PermutePlan", "spaces",
           "kokkos_version", "initialize", "finalize", "is_initialized", "__version__"]

__version__ = _tilekit.__version__
spaces = _tilekit.spaces
kokkos_version = _tilekit.kokkos_version
is_initialized = _tilekit.is_initialized
host_concurrency = _tilekit.host_concurrency
cuda_device = _tilekit.cuda_device

_KDL_CUDA = (2, 13)  # kDLCUDA, kDLCUDAManaged


def initialize(num_threads=None, device_id=None):
    """Initialise Kokkos now (otherwise the first call does): num_threads for
    the OpenMP space (default: OMP_NUM_THREADS or all cores), device_id for
    CUDA (default: KOKKOS_DEVICE_ID or 0). Has no effect once initialised."""
    _tilekit.initialize(-1 if num_threads is None else int(num_threads),
                        -1 if device_id is None else int(device_id))


def finalize():
    """Finalise Kokkos (runs at interpreter exit). Arrays returned by tilekit
    stay valid; tilekit calls raise RuntimeError afterwards."""
    _tilekit.finalize()


_atexit.register(finalize)


def _framework(x):
    return type(x).__module__.split(".", 1)[0]


def _stream_handle(stream):
    """An int cudaStream_t from an int, a torch.cuda.Stream or a cupy Stream."""
    if isinstance(stream, int):
        return stream
    for attr in ("cuda_stream", "ptr"):  # torch.cuda.Stream, cupy.cuda.Stream
        h = getattr(stream, attr, None)
        if isinstance(h, int):
            return h
    raise TypeError(f"tilekit: stream must be an int handle, a torch.cuda.Stream or a cupy "
                    f"Stream, got {type(stream).__name__}")


def _stream_for(a, stream):
    """The caller's stream for CUDA arrays; None for host arrays."""
    dev = getattr(a, "__dlpack_device__", None)
    if dev is None or dev()[0] not in _KDL_CUDA:
        return None
    if stream is not None:
        return _stream_handle(stream)
    fw = _framework(a)
    if fw == "torch":
        return _sys.modules["torch"].cuda.current_stream(a.device).cuda_stream
    if fw == "cupy":
        return _sys.modules["cupy"].cuda.get_current_stream().ptr
    return 0  # unknown producer: the legacy default stream


def _wrap(buf, like):
    """The output buffer as an array of `like`'s framework (no copy)."""
    fw = _framework(like)
    if fw == "torch":
        return _sys.modules["torch"].from_dlpack(buf)
    if fw == "cupy":
        return _sys.modules["cupy"].from_dlpack(buf)
    if buf.__dlpack_device__()[0] == 1:
        # NumPy makes arrays from unversioned DLPack capsules read-only: the
        # buffer protocol hands it the same memory, writable (the array keeps
        # buf, hence the allocation, alive).
        import numpy
        return numpy.asarray(buf)
    return buf  # a CUDA array of another framework: pass this to its from_dlpack


def _scalar(x):
    return complex(x)


def permute(a, axes=None, out=None, alpha=1, beta=0, *, stream=None):
    """out = alpha * a.transpose(axes) + beta * out, as a contiguous array.

    axes as numpy.transpose (default: reversed). Without out=, returns a new
    C-contiguous array of a's framework (beta must be 0). a and out may be C-
    or F-contiguous, ranks 1 to 8, dtypes int32, int64, float32, float64,
    complex64, complex128."""
    s = _stream_for(a, stream)
    r = _tilekit.permute(a, axes, out, _scalar(alpha), _scalar(beta), s)
    return out if r is None else _wrap(r, a)


def transpose(a, out=None, *, stream=None):
    """The transpose of a matrix as a contiguous array (numpy.ascontiguousarray(a.T))."""
    s = _stream_for(a, stream)
    r = _tilekit.transpose(a, out, s)
    return out if r is None else _wrap(r, a)


def transpose_inplace(a, *, stream=None):
    """Transposes a contiguous m x n matrix in place. Square: returns a, now
    a.T. Otherwise a's memory then holds the n x m transpose, in a's order (C
    or F), and the result is returned as an n x m view of it (a.reshape for C,
    a.T.reshape(m, n).T for F); a itself keeps its shape over that memory."""
    fortran = _tilekit.transpose_inplace(a, _stream_for(a, stream))
    m, n = a.shape
    if m == n:
        return a
    if fortran:
        return a.T.reshape(m, n).T
    return a.reshape(n, m)


def reduce(a, op="sum", *, stream=None):
    """Reduction of all elements of a contiguous array: "sum" (int64 for
    integers, exact), "sum_compensated" (floats), "min", "max", "argmin",
    "argmax" (the C-order flat index, as numpy.argmin). Returns a Python
    number; on CUDA this waits for the caller's stream only."""
    return _tilekit.reduce(a, op, _stream_for(a, stream))


class PermutePlan:
    """A permutation validated and prepared once for arrays like a (and out),
    executed many times: plan.execute(a, out) on arrays of the same shape,
    order, dtype and device. On CUDA the plan is bound to the stream current
    when it is made (or stream=)."""

    def __init__(self, a, axes=None, out=None, *, stream=None):
        self._stream = _stream_for(a, stream)
        self._plan = _tilekit.PermutePlan(a, axes, out, self._stream)

    def execute(self, a, out=None, alpha=1, beta=0):
        r = self._plan.execute(a, out, _scalar(alpha), _scalar(beta))
        return out if r is None else _wrap(r, a)

    shape = property(lambda self: tuple(self._plan.shape))
    out_shape = property(lambda self: tuple(self._plan.out_shape))
    axes = property(lambda self: tuple(self._plan.axes))
    dtype = property(lambda self: self._plan.dtype)
    device = property(lambda self: self._plan.device)

    def __repr__(self):
        return (f"tilekit.PermutePlan(shape={self.shape}, axes={self.axes}, dtype={self.dtype}, "
                f"device={self.device})")
