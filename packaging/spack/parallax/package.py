# A Spack package for Parallax (docs/install.md). Put this folder in a Spack repository
# (`spack repo add packaging/spack` after adding a repo.yaml, or copy parallax/ into one) and,
# from a checkout: `spack dev-build -d . parallax@0.1.0 +mpi +otf2 +papi +python`.
# tests/golden/packaging_spack.sh checks it against the build without Spack.

from spack.package import *


class Parallax(CMakePackage):
    """Understand how parallel programs behave in time: reads Paraver traces (Extrae) and OTF2
    (Score-P), computes what Paraver and paramedir compute, diagnoses wait states, compares
    runs, writes reports and CI checks, serves a browser UI, and traces programs itself."""

    homepage = "https://github.com/parallax-tools/parallax"
    git = "https://github.com/parallax-tools/parallax.git"

    version("main", branch="main")
    version("0.1.0")

    variant("mpi", default=True, description="parallax-mpi and the MPI tracing library")
    variant("otf2", default=True, description="read and write OTF2 traces")
    variant("papi", default=True, description="hardware counters in the tracing library")
    variant("libdw", default=True, description="resolve MPI call sites to source lines")
    variant("python", default=True, description="the Python module (import parallax)")

    depends_on("cmake@3.25:", type="build")
    depends_on("ninja", type="build")
    depends_on("pkgconfig", type="build")
    depends_on("fmt")
    depends_on("nlohmann-json")
    depends_on("cli11")
    depends_on("cpp-httplib")
    depends_on("pugixml")
    depends_on("xxhash")
    depends_on("zstd")
    depends_on("zlib-api")
    depends_on("libpng")
    depends_on("mpi", when="+mpi")
    depends_on("otf2", when="+otf2")
    depends_on("papi", when="+papi")
    depends_on("elfutils", when="+libdw")
    depends_on("python@3.9:", when="+python")
    depends_on("py-pybind11", type="build", when="+python")
    depends_on("py-numpy", type=("build", "run"), when="+python")
    depends_on("py-pandas", type="run", when="+python")

    generator("ninja")

    def cmake_args(self):
        return [
            self.define("PARALLAX_BUILD_TESTS", False),
            self.define("PARALLAX_BUILD_BENCH", False),
            self.define_from_variant("PARALLAX_WITH_MPI", "mpi"),
            self.define_from_variant("PARALLAX_WITH_OTF2", "otf2"),
            self.define_from_variant("PARALLAX_WITH_PAPI", "papi"),
            self.define_from_variant("PARALLAX_WITH_LIBDW", "libdw"),
            self.define_from_variant("PARALLAX_WITH_PYTHON", "python"),
        ]
