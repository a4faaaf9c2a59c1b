"""tilekit: tiled transpose, permute and reduce kernels (Kokkos) on the arrays
you already have: NumPy, CuPy and PyTorch, CPU or CUDA memory, through DLPack,
without copies in or out.

    import numpy as np, tilekit
    a = np.random.rand(512, 512, 1024).astype(np.float32)
    b = tilekit.permute(a, (1, 2, 0))          # == np.ascontiguousarray(a.transpose(1, 2, 0))
    tilekit.permute(a, (1, 2, 0), out=b)       # into an existing array
    s = tilekit.reduce(a, "sum")

Arrays may be strided views (steps, windows, transposed axes: read and written
in place through their strides), of dtypes bool, int8 ... uint64, float16,
bfloat16 (PyTorch's, or ml_dtypes' with NumPy), float32, float64, complex64,
complex128; the move-only ones (all but int32, int64, float32, float64 and the
complex types) take alpha = 1 and beta = 0 only.

Outputs are arrays of the input's framework: on the CPU a NumPy array over a
tilekit allocation (torch.from_dlpack for PyTorch tensors); on CUDA an array
of PyTorch's or CuPy's own allocator (torch.empty, cupy.empty: their caching,
stream-ordered pools, so a call with a new output does not synchronise the
device). On CUDA the work runs on the caller's current stream (PyTorch's or
CuPy's, or ``stream=``), asynchronously; host calls return when the work is
done. See docs/python.md.
"""
import atexit as _atexit
import sys as _sys

from . import _tilekit

__all__ = ["transpose", "permute", "transpose_inplace", "reduce", "PermutePlan", "spaces",
           "kokkos_version", "initialize", "finalize", "is_initialized", "scaled_dtypes",
           "release_cached_outputs",
           "__version__"]

__version__ = _tilekit.__version__
spaces = _tilekit.spaces
kokkos_version = _tilekit.kokkos_version
is_initialized = _tilekit.is_initialized
host_concurrency = _tilekit.host_concurrency
cuda_device = _tilekit.cuda_device
scaled_dtypes = _tilekit.scaled_dtypes


def release_cached_outputs():
    """Frees the host memory tilekit keeps for new outputs: the last two
    released host outputs of 2 MiB or more (at most 1 GiB in all), kept so
    that a loop making a new output per call writes into mapped memory."""
    _tilekit.release_cached_outputs()


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


def _bits_view(x):
    """Arrays whose dtype has no DLPack type in some versions, as the
    unsigned integer arrays of their bits, and the dtype to view results back
    as (else x, None): NumPy arrays of ml_dtypes' bfloat16 (no DLPack or buffer
    type), PyTorch and CuPy bool arrays (PyTorch before 2.0 does not export
    bool). The kernels move bits, so nothing changes but the dtype's name."""
    dt = getattr(x, "dtype", None)
    fw = _framework(x)
    if fw == "numpy" and str(dt) == "bfloat16":
        return x.view("uint16"), dt
    if fw == "torch" and dt == _sys.modules["torch"].bool:
        return x.view(_sys.modules["torch"].uint8), dt
    if fw == "cupy" and str(dt) == "bool":
        return x.view("uint8"), dt
    return x, None


def _permuted_shape(a, axes):
    """The output shape of permute(a, axes), or None for axes the module will refuse."""
    shape = tuple(getattr(a, "shape", ()))
    r = len(shape)
    try:
        ax = list(reversed(range(r))) if axes is None else [int(x) + r if int(x) < 0 else int(x)
                                                             for x in axes]
    except (TypeError, ValueError):
        return None
    if sorted(ax) != list(range(r)):
        return None
    return tuple(shape[i] for i in ax)


def _new_cuda_output(a, shape):
    """A new output for a CUDA array of PyTorch or CuPy from the framework's
    own allocator, on its current stream (the stream the array's user works
    on): their caching allocators are stream-ordered, where a tilekit
    allocation would be a cudaMalloc, and its release a cudaFree, which waits
    for the whole device. It is then an out= like any other: with stream=,
    the DLPack handshake makes that stream wait for the current one before
    tilekit writes, and _handover makes the current stream wait for the
    write. None: the module allocates (other producers, host arrays)."""
    if shape is None:
        return None
    dev = getattr(a, "__dlpack_device__", None)
    if dev is None or dev()[0] not in _KDL_CUDA:
        return None
    fw = _framework(a)
    if fw == "torch":
        return _sys.modules["torch"].empty(shape, dtype=a.dtype, device=a.device)
    if fw == "cupy":
        with a.device:
            return _sys.modules["cupy"].empty(shape, dtype=a.dtype)
    return None


def _handover(a, stream):
    """After a call on stream= into a new output of the framework's: the
    framework's current stream waits for that stream (an event: the host
    does not wait), as a tilekit output's export does."""
    fw = _framework(a)
    handle = 0 if stream in (0, 1) else stream
    if fw == "torch":
        torch = _sys.modules["torch"]
        cur = torch.cuda.current_stream(a.device)
        if cur.cuda_stream != handle:
            cur.wait_stream(torch.cuda.ExternalStream(handle, device=a.device))
    elif fw == "cupy":
        cupy = _sys.modules["cupy"]
        with a.device:
            cur = cupy.cuda.get_current_stream()
            if cur.ptr != handle:
                ev = cupy.cuda.Event(disable_timing=True)
                ev.record(cupy.cuda.ExternalStream(handle))
                cur.wait_event(ev)


def _run(call, a, out, shape, handover_stream):
    """call(a, out) on the bits of a and out (_bits_view), the shared tail of
    every out-of-place call: a new CUDA output of `shape` from the caller's
    framework where out is None (shape None: none), the result wrapped in a's
    framework and dtype, and with stream= (handover_stream not None) the
    current stream made to wait for a framework output's write."""
    a_bits, bf16 = _bits_view(a)
    new = None
    if out is None and shape is not None:
        new = out = _new_cuda_output(a, shape)
    r = call(a_bits, out if out is None else _bits_view(out)[0])
    if r is not None:
        r = _wrap(r, a)
        return r.view(bf16) if bf16 is not None else r
    if new is not None and handover_stream is not None:
        _handover(a, handover_stream)
    return out


def permute(a, axes=None, out=None, alpha=1, beta=0, *, stream=None):
    """out = alpha * a.transpose(axes) + beta * out, as a contiguous array.

    axes as numpy.transpose (default: reversed). Without out=, returns a new
    C-contiguous array of a's framework (beta must be 0). a and out may be C-
    or F-contiguous or strided views (a reversed axis, x[::-1], only where
    the axis it goes to is reversed too), ranks 1 to 8, any dtype of the
    module's (alpha and beta: int32, int64, float32, float64, complex64,
    complex128, and scaled_dtypes())."""
    s = _stream_for(a, stream)
    # beta != 0 without out=: no new output (the module refuses it)
    shape = _permuted_shape(a, axes) if out is None and complex(beta) == 0 else None
    return _run(lambda x, o: _tilekit.permute(x, axes, o, _scalar(alpha), _scalar(beta), s),
                a, out, shape, s if stream is not None else None)


def transpose(a, out=None, *, stream=None):
    """The transpose of a matrix as a contiguous array (numpy.ascontiguousarray(a.T))."""
    s = _stream_for(a, stream)
    shape = tuple(reversed(a.shape)) if len(getattr(a, "shape", ())) == 2 else None
    return _run(lambda x, o: _tilekit.transpose(x, o, s), a, out, shape,
                s if stream is not None else None)


def transpose_inplace(a, *, stream=None):
    """Transposes a contiguous m x n matrix in place. Square: returns a, now
    a.T. Otherwise a's memory then holds the n x m transpose, in a's order (C
    or F), and the result is returned as an n x m view of it (a.reshape for C,
    a.T.reshape(m, n).T for F); a itself keeps its shape over that memory."""
    fortran = _tilekit.transpose_inplace(_bits_view(a)[0], _stream_for(a, stream))
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
        self._explicit = stream is not None
        self._plan = _tilekit.PermutePlan(_bits_view(a)[0], axes,
                                          out if out is None else _bits_view(out)[0], self._stream)

    def execute(self, a, out=None, alpha=1, beta=0):
        return _run(lambda x, o: self._plan.execute(x, o, _scalar(alpha), _scalar(beta)),
                    a, out, self.out_shape if out is None and complex(beta) == 0 else None,
                    self._stream if self._explicit else None)

    shape = property(lambda self: tuple(self._plan.shape))
    out_shape = property(lambda self: tuple(self._plan.out_shape))
    axes = property(lambda self: tuple(self._plan.axes))
    dtype = property(lambda self: self._plan.dtype)
    device = property(lambda self: self._plan.device)

    def __repr__(self):
        return (f"tilekit.PermutePlan(shape={self.shape}, axes={self.axes}, dtype={self.dtype}, "
                f"device={self.device})")
