"""The build backend of `pip install .` and `python -m build` (PEP 517), in the source tree.

It needs nothing but the interpreter that runs it and CMake: no setuptools, no wheel, nothing
fetched (with or without pip's build isolation, offline). The module is compiled by the
project's own CMake build for the interpreter running the backend (in a venv: its base
interpreter, whose headers and ABI the venv shares), and the wheel is written here:
python/parallax/*.py, parallax/_parallax<EXT_SUFFIX>, and the .dist-info.

Where it builds:
- PARALLAX_CMAKE_BUILD_DIR=DIR (or `--config-settings build-dir=DIR`): an existing build
  folder, whose compiled core is reused. When that build's Python has another extension suffix
  than this interpreter's, this interpreter joins PARALLAX_PYTHON_EXTRA there and only its
  module is compiled (python/CMakeLists.txt); the build's own module is left as it was.
- otherwise build/python-package/cmake-<tag> in the source tree (a whole Release build of the
  core without tests or MPI; CMAKE_BUILD_PARALLEL_LEVEL sets the jobs, PARALLAX_CMAKE_ARGS adds
  options).
"""

import base64
import hashlib
import io
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _say(text):
    print(f"parallax: {text}", file=sys.stderr, flush=True)


def _project():
    """[project] of pyproject.toml: name, version, requires-python, description, dependencies,
    optional-dependencies (tomllib where the interpreter has it, else the simple subset the file
    is written in: strings, arrays of strings, inline tables of them)."""
    path = os.path.join(ROOT, "pyproject.toml")
    text = open(path, encoding="utf-8").read()
    try:
        import tomllib
        return tomllib.loads(text)["project"]
    except ImportError:
        pass
    project, section = {}, None
    for raw in text.splitlines():
        line = re.sub(r"(^|\s)#.*$", "", raw).strip()
        if not line:
            continue
        header = re.fullmatch(r"\[([\w.-]+)\]", line)
        if header:
            section = header.group(1)
            continue
        m = re.fullmatch(r"([\w-]+)\s*=\s*(.+)", line)
        if not m or section not in ("project", "project.optional-dependencies"):
            continue
        value = m.group(2)
        if value.startswith("["):
            value = re.findall(r'"([^"]*)"', value)
        elif value.startswith("{"):
            value = dict(re.findall(r'(\w+)\s*=\s*"([^"]*)"', value))
        else:
            value = value.strip('"')
        if section == "project":
            project[m.group(1)] = value
        else:
            project.setdefault("optional-dependencies", {})[m.group(1)] = value
    return project


def _tag():
    """The wheel's tag for this interpreter: cpXY-cpXY[t]-platform."""
    impl = f"cp{sys.version_info[0]}{sys.version_info[1]}"
    abi = impl + ("t" if sysconfig.get_config_var("Py_GIL_DISABLED") else "")
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"{impl}-{abi}-{platform}"


def _interpreter():
    """In a venv, its base interpreter (same headers and ABI): a build folder then keeps an
    interpreter that outlives the venv."""
    if sys.prefix == sys.base_prefix:
        return sys.executable
    version = f"{sys.version_info[0]}.{sys.version_info[1]}"
    for candidate in (getattr(sys, "_base_executable", None), os.path.realpath(sys.executable),
                      os.path.join(sys.base_prefix, "bin", f"python{version}")):
        if candidate and os.path.isfile(candidate) and \
                not os.path.abspath(candidate).startswith(os.path.abspath(sys.prefix) + os.sep):
            return candidate
    return sys.executable


def _cache_value(build, name):
    try:
        with open(os.path.join(build, "CMakeCache.txt"), encoding="utf-8") as f:
            for line in f:
                if line.startswith(name + ":"):
                    return line.split("=", 1)[1].strip()
    except OSError:
        pass
    return None


def _suffix_of(python):
    out = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))"],
                         capture_output=True, text=True)
    return out.stdout.strip() if out.returncode == 0 else None


def _run(cmd):
    _say(" ".join(cmd))
    subprocess.run(cmd, check=True)


def _build_module(config_settings):
    """Compiles the module for this interpreter; returns the path of _parallax<EXT_SUFFIX>."""
    if shutil.which("cmake") is None:
        raise RuntimeError("building parallax needs cmake (Debian: apt-get install cmake)")
    try:
        import numpy  # noqa: F401
    except ImportError:
        _say(f"NumPy is missing for {sys.executable}: the module builds, but `import parallax` "
             f"will need it (pip install numpy, or on Debian a venv with --system-site-packages)")
    python = _interpreter()
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    version = f"{sys.version_info[0]}.{sys.version_info[1]}"
    settings = config_settings or {}
    build = settings.get("build-dir") or os.environ.get("PARALLAX_CMAKE_BUILD_DIR")
    extra_args = os.environ.get("PARALLAX_CMAKE_ARGS", "").split()
    if build:
        build = os.path.abspath(build)
        if not os.path.exists(os.path.join(build, "CMakeCache.txt")):
            raise RuntimeError(f"PARALLAX_CMAKE_BUILD_DIR={build} is not a configured build folder")
        own = _cache_value(build, "PARALLAX_PYTHON_EXECUTABLE")
        if own and _suffix_of(own) == suffix:
            _say(f"building the module for {python} (Python {version}) in {build}, "
                 f"whose Python ({own}) has the same ABI")
            _run(["cmake", "--build", build, "--target", "parallax_python"])
            module_dir = os.path.join(build, "python", "parallax")
        else:
            # Interpreters that no longer run (a removed venv) leave the list.
            extra = [p for p in (_cache_value(build, "PARALLAX_PYTHON_EXTRA") or "").split(";")
                     if p and os.path.isfile(p) and os.access(p, os.X_OK)]
            if python not in extra:
                extra.append(python)
            _say(f"building the module for {python} (Python {version}) in {build}, beside its "
                 f"own ({own or 'none'}): the compiled core is reused")
            _run(["cmake", "-S", ROOT, "-B", build, "-DPARALLAX_PYTHON_EXTRA=" + ";".join(extra)] + extra_args)
            _run(["cmake", "--build", build, "--target", f"parallax_python_{version.replace('.', '')}"])
            module_dir = os.path.join(build, f"python-{version}", "parallax")
    else:
        build = os.path.join(ROOT, "build", "python-package", "cmake-" + _tag())
        configure = ["cmake", "-S", ROOT, "-B", build, f"-DPython3_EXECUTABLE={python}",
                     "-DPARALLAX_WITH_PYTHON=ON"]
        if not os.path.exists(os.path.join(build, "CMakeCache.txt")):
            configure += ["-DCMAKE_BUILD_TYPE=Release", "-DPARALLAX_BUILD_TESTS=OFF",
                          "-DPARALLAX_BUILD_BENCH=OFF", "-DPARALLAX_WITH_MPI=OFF"]
            if shutil.which("ninja"):
                configure += ["-G", "Ninja"]
        _say(f"building the module for {python} (Python {version}) in {build}")
        _run(configure + extra_args)
        _run(["cmake", "--build", build, "--target", "parallax_python"])
        module_dir = os.path.join(build, "python", "parallax")
    module = os.path.join(module_dir, "_parallax" + suffix)
    if not os.path.exists(module):
        raise RuntimeError(f"the build made no {module}: was it configured for another Python?")
    return module


def _dist_name(project):
    return re.sub(r"[-_.]+", "_", project["name"]).lower()


def _metadata(project):
    lines = ["Metadata-Version: 2.1", f"Name: {project['name']}", f"Version: {project['version']}"]
    if project.get("description"):
        lines.append(f"Summary: {project['description']}")
    if project.get("requires-python"):
        lines.append(f"Requires-Python: {project['requires-python']}")
    license = project.get("license")
    if isinstance(license, dict) and license.get("text"):
        lines.append(f"License: {license['text']}")
    for dep in project.get("dependencies", []):
        lines.append(f"Requires-Dist: {dep}")
    for extra, deps in project.get("optional-dependencies", {}).items():
        lines.append(f"Provides-Extra: {extra}")
        for dep in deps:
            lines.append(f'Requires-Dist: {dep}; extra == "{extra}"')
    return "\n".join(lines) + "\n"


def _record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def _write_atomically(path, write):
    """Writes `path` through write(file object) into a temporary name beside it, then renames."""
    tmp = path + ".part"
    try:
        with open(tmp, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


# PEP 517 hooks.

def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    project = _project()
    module = _build_module(config_settings)
    dist = _dist_name(project)
    info = f"{dist}-{project['version']}.dist-info"
    files = []
    package = os.path.join(ROOT, "python", "parallax")
    for name in sorted(os.listdir(package)):
        if name.endswith(".py"):
            with open(os.path.join(package, name), "rb") as f:
                files.append((f"parallax/{name}", f.read()))
    with open(module, "rb") as f:
        files.append((f"parallax/{os.path.basename(module)}", f.read()))
    files.append((f"{info}/METADATA", _metadata(project).encode()))
    files.append((f"{info}/WHEEL", (f"Wheel-Version: 1.0\nGenerator: parallax_backend\n"
                                    f"Root-Is-Purelib: false\nTag: {_tag()}\n").encode()))
    files.append((f"{info}/top_level.txt", b"parallax\n"))
    record = "\n".join(_record_line(n, d) for n, d in files) + f"\n{info}/RECORD,,\n"
    files.append((f"{info}/RECORD", record.encode()))
    wheel = f"{dist}-{project['version']}-{_tag()}.whl"

    def write(f):
        with zipfile.ZipFile(f, "w", zipfile.ZIP_DEFLATED) as z:
            for name, data in files:
                entry = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
                entry.external_attr = (0o755 if name.endswith(".so") else 0o644) << 16
                entry.compress_type = zipfile.ZIP_DEFLATED
                z.writestr(entry, data)

    os.makedirs(wheel_directory, exist_ok=True)
    _write_atomically(os.path.join(wheel_directory, wheel), write)
    _say(f"wrote {wheel}")
    return wheel


def _source_files():
    """The files of the source distribution: git's tracked files, or the tree without builds."""
    try:
        out = subprocess.run(["git", "-C", ROOT, "ls-files", "-z"], capture_output=True, check=True)
        names = [n for n in out.stdout.decode().split("\0") if n]
        if names:
            return [n for n in names if os.path.isfile(os.path.join(ROOT, n))]
    except (OSError, subprocess.CalledProcessError):
        pass
    names = []
    for dirpath, dirnames, filenames in os.walk(ROOT):
        rel = os.path.relpath(dirpath, ROOT)
        dirnames[:] = [d for d in dirnames if not (rel == "." and (d.startswith("build") or d in (".git", "node_modules")))]
        names += [os.path.normpath(os.path.join(rel, f)) for f in filenames]
    return sorted(names)


def build_sdist(sdist_directory, config_settings=None):
    project = _project()
    base = f"{_dist_name(project)}-{project['version']}"

    def write(f):
        with tarfile.open(fileobj=f, mode="w:gz", format=tarfile.PAX_FORMAT) as tar:
            for name in _source_files():
                tar.add(os.path.join(ROOT, name), arcname=f"{base}/{name}", recursive=False)
            info = _metadata(project).encode()
            entry = tarfile.TarInfo(f"{base}/PKG-INFO")
            entry.size = len(info)
            entry.mode = 0o644
            tar.addfile(entry, io.BytesIO(info))

    os.makedirs(sdist_directory, exist_ok=True)
    _write_atomically(os.path.join(sdist_directory, base + ".tar.gz"), write)
    return base + ".tar.gz"
