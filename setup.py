"""Builds parallax._parallax with CMake for the interpreter running this script (pip install .).

The extension needs the C++ core: CMake configures the whole project with this interpreter
(-DPython3_EXECUTABLE) and builds the `parallax_python` target only (no tests, MPI, browser).
PARALLAX_CMAKE_BUILD_DIR=DIR builds in an existing build folder instead (the core is already
compiled there: only the module is built; the folder's Python becomes this interpreter).
PARALLAX_CMAKE_ARGS adds CMake options; CMAKE_BUILD_PARALLEL_LEVEL sets the jobs.
"""

import os
import shutil
import subprocess
import sys
import sysconfig

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        if shutil.which("cmake") is None:
            raise RuntimeError("building parallax needs cmake (Debian: apt-get install cmake)")
        try:
            import numpy  # noqa: F401
        except ImportError:
            print(f"parallax: NumPy is missing for {sys.executable}: the module builds, but "
                  f"`import parallax` will need it (pip install numpy, or a venv with "
                  f"--system-site-packages on Debian)", file=sys.stderr)
        build = os.environ.get("PARALLAX_CMAKE_BUILD_DIR") or os.path.join(
            os.path.abspath(self.build_temp), "cmake")
        os.makedirs(build, exist_ok=True)
        # In a venv, its base interpreter (same headers and ABI): an existing build folder keeps
        # an interpreter that outlives the venv.
        python = getattr(sys, "_base_executable", None) or sys.executable
        configure = ["cmake", "-S", ROOT, "-B", build, f"-DPython3_EXECUTABLE={python}",
                     "-DPARALLAX_WITH_PYTHON=ON"]
        if not os.path.exists(os.path.join(build, "CMakeCache.txt")):
            configure += ["-DCMAKE_BUILD_TYPE=Release", "-DPARALLAX_BUILD_TESTS=OFF",
                          "-DPARALLAX_WITH_MPI=OFF"]
            if shutil.which("ninja"):
                configure += ["-G", "Ninja"]
        configure += os.environ.get("PARALLAX_CMAKE_ARGS", "").split()
        print(f"parallax: building the module for {python} "
              f"(Python {sysconfig.get_python_version()}) in {build}", file=sys.stderr)
        subprocess.run(configure, check=True)
        subprocess.run(["cmake", "--build", build, "--target", "parallax_python"], check=True)
        built = os.path.join(build, "python", "parallax")
        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        module = os.path.join(built, "_parallax" + suffix)
        if not os.path.exists(module):
            raise RuntimeError(f"the build made no {module}: was it configured for another Python?")
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(module, target)


setup(ext_modules=[CMakeExtension("parallax._parallax")], cmdclass={"build_ext": CMakeBuild},
      options={"build": {"build_base": os.path.join("build", "python-package")}})
