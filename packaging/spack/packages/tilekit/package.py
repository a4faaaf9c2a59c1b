# Spack recipe of tilekit (a package repository of its own: `spack repo add
# packaging/spack`, see packaging/spack/README.md).
#
# SPDX-License-Identifier: (Apache-2.0 OR MIT)

from spack.package import *

try:  # Spack >= 1.0: the build systems live in the builtin repository
    from spack_repo.builtin.build_systems.cmake import CMakePackage
    from spack_repo.builtin.build_systems.cuda import CudaPackage
except ImportError:  # Spack < 1.0: spack.package exports them
    pass


class Tilekit(CMakePackage, CudaPackage):
    """Tiled transpose, permute, reduce and complex-matrix kernels for Kokkos
    execution spaces (CPU and NVIDIA GPU), a distributed permute over MPI or
    NCCL, and a Python module on NumPy, CuPy and PyTorch arrays (DLPack)."""

    # No release has been tagged yet: the main branch only. The project records
    # no public repository address yet; until `git` is set to it, build from a
    # checkout (`spack develop tilekit@main`, packaging/spack/README.md).
    version("main", branch="main")

    variant("openmp", default=True, description="Build for Kokkos' OpenMP backend")
    variant("mpi", default=False, description="The distributed family tilekit::dist (MPI)")
    variant("nccl", default=False, description="tilekit::dist's NCCL engine (needs +mpi +cuda)")
    variant("python", default=False, description="The tilekit Python module (pybind11, DLPack)")
    variant(
        "eti",
        default=True,
        description="Compile the common kernel instances into the library "
        "(explicit template instantiation, TILEKIT_ETI)",
    )
    variant("tool", default=False, description="Install the tilekit command-line tool")

    depends_on("cxx", type="build")
    depends_on("cmake@3.23:", type="build")

    # Kokkos 4.6 or later in C++20, with the backends asked for. A CUDA Kokkos
    # is nvcc_wrapper's (+wrapper) or compiles as CMake's CUDA language
    # (+cmake_lang); tilekit takes either (kokkos_cxx below). Kokkos 4.6 always
    # has CUDA's extended lambdas (cuda_lambda is deprecated there).
    depends_on("kokkos@4.6: cxxstd=20")
    depends_on("kokkos+openmp", when="+openmp")
    for _arch in CudaPackage.cuda_arch_values:
        depends_on(f"kokkos+cuda cuda_arch={_arch}", when=f"+cuda cuda_arch={_arch}")
    conflicts("+cuda", when="cuda_arch=none", msg="tilekit +cuda needs cuda_arch=<sm> (Kokkos')")

    depends_on("mpi", when="+mpi")
    depends_on("nccl", when="+nccl")
    for _arch in CudaPackage.cuda_arch_values:
        depends_on(f"nccl cuda_arch={_arch}", when=f"+nccl cuda_arch={_arch}")
    conflicts("+nccl", when="~mpi", msg="the NCCL engine is tilekit::dist's: +nccl needs +mpi")
    conflicts("+nccl", when="~cuda", msg="the NCCL engine moves CUDA memory: +nccl needs +cuda")

    with when("+python"):
        extends("python")
        depends_on("python@3.9:", type=("build", "link", "run"))
        depends_on("py-pybind11@2.10:", type=("build", "link"))
        depends_on("dlpack@0.6:", type=("build", "link"))
        depends_on("py-numpy@1.22:", type="run")
        # The module links Kokkos into a shared object: a static Kokkos must be PIC.
        conflicts("^kokkos~shared~pic", msg="+python needs a shared Kokkos or kokkos+pic")

    with when("+tool"):
        depends_on("cli11")
        depends_on("fmt")
        depends_on("nlohmann-json@3:")

    depends_on("googletest", type="test")

    def cmake_args(self):
        spec = self.spec
        args = [
            self.define_from_variant("TILEKIT_ENABLE_MPI", "mpi"),
            self.define_from_variant("TILEKIT_ENABLE_NCCL", "nccl"),
            self.define_from_variant("TILEKIT_ENABLE_PYTHON", "python"),
            self.define_from_variant("TILEKIT_ENABLE_TOOL", "tool"),
            self.define_from_variant("TILEKIT_ETI", "eti"),
            self.define("TILEKIT_ENABLE_TESTS", self.run_tests),
            self.define("TILEKIT_ENABLE_BENCHMARKS", False),
            self.define("TILEKIT_ENABLE_OPENBLAS", False),
            self.define("Kokkos_ROOT", spec["kokkos"].prefix),  # Spack's, never the in-tree build
        ]
        # nvcc_wrapper (kokkos+wrapper) or the host compiler (kokkos+cmake_lang).
        kokkos = spec["kokkos"]
        cxx = getattr(kokkos.package, "kokkos_cxx", None) or getattr(kokkos, "kokkos_cxx", None)
        if cxx:
            args.append(self.define("CMAKE_CXX_COMPILER", cxx))
        if spec.satisfies("+cuda"):
            args.append(self.define("CMAKE_CUDA_ARCHITECTURES", spec.variants["cuda_arch"].value))
        if spec.satisfies("+nccl"):
            args.append(self.define("NCCL_ROOT", spec["nccl"].prefix))
        if spec.satisfies("+python"):
            args += [
                self.define("Python3_EXECUTABLE", spec["python"].command.path),
                self.define("TILEKIT_PYTHON_INSTALL_DIR", python_platlib),
            ]
        return args
