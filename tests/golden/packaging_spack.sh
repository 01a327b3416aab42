#!/usr/bin/env bash
# The Spack recipe (packaging/spack/parallax/package.py) checked against the build without
# Spack: it parses as Python; every CMake option it sets exists in the build with a default;
# every variant switches one PARALLAX_WITH_* option; every library the build requires has a
# dependency, and every optional one a dependency under its variant. Then the recipe runs under a
# stand-in for Spack's package API: its cmake_args() for every variant off and every variant on,
# with the arguments Spack itself adds (RelWithDebInfo, BUILD_TESTING off, no IPO), configure the
# source tree, and the configuration says which optional part is off and why.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
python3 - "$ROOT" <<'PY'
import ast, os, re, sys
root = sys.argv[1]
recipe = os.path.join(root, "packaging", "spack", "parallax", "package.py")
tree = ast.parse(open(recipe).read(), recipe)
calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, (ast.Name, ast.Attribute))]
def name(c): return c.func.id if isinstance(c.func, ast.Name) else c.func.attr
def strings(c): return [a.value for a in c.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
def keyword(c, k):
    for kw in c.keywords:
        if kw.arg == k and isinstance(kw.value, ast.Constant):
            return kw.value.value
variants = {strings(c)[0] for c in calls if name(c) == "variant"}
deps = {}
for c in calls:
    if name(c) == "depends_on":
        spec = strings(c)[0]
        deps[re.split(r"[@+~ ]", spec)[0]] = keyword(c, "when")
defines = [strings(c) for c in calls if name(c) in ("define", "define_from_variant")]
cmake = ""
for dirpath, _, files in os.walk(root):
    if any(p in dirpath for p in ("/build", "/node_modules", "/.git")):
        continue
    for f in files:
        if f == "CMakeLists.txt":
            cmake += open(os.path.join(dirpath, f)).read()
options = set(re.findall(r"option\((\w+)", cmake))
bad = []
for d in defines:
    if d[0] not in options:
        bad.append(f"the recipe sets {d[0]}, which the build does not define")
    if len(d) > 1 and d[1] not in variants:
        bad.append(f"{d[0]} follows variant {d[1]}, which the recipe does not declare")
switched = {d[1] for d in defines if len(d) > 1}
for v in sorted(variants - switched):
    bad.append(f"variant {v} switches nothing")
# What the build requires (find_package / pkg_check_modules REQUIRED) and the Spack packages
# that provide it; and the optional parts, each under its variant.
required = {"fmt": "fmt", "nlohmann_json": "nlohmann-json", "CLI11": "cli11", "pugixml": "pugixml",
            "ZLIB": "zlib-api", "PNG": "libpng", "libzstd": "zstd"}
found = set(re.findall(r"find_package\((\w+)[^)]*REQUIRED", cmake)) | set(re.findall(r"pkg_check_modules\(\w+ REQUIRED IMPORTED_TARGET (\w+)", cmake))
for lib in sorted(found - {"Threads", "GTest", "benchmark", "PkgConfig"}):
    spack = required.get(lib)
    if spack is None:
        bad.append(f"the build requires {lib}: add it to this check's table and a depends_on to the recipe")
    elif spack not in deps or deps[spack]:
        bad.append(f"the build requires {lib}: the recipe must depend on {spack} unconditionally")
for lib, spack in (("httplib", "cpp-httplib"), ("xxhash", "xxhash")):  # found by find_path/find_library
    if lib not in cmake or spack not in deps:
        bad.append(f"{lib} is required by the build: depends_on('{spack}')")
optional = {"mpi": ("mpi", "PARALLAX_WITH_MPI"), "otf2": ("otf2", "PARALLAX_WITH_OTF2"),
            "papi": ("papi", "PARALLAX_WITH_PAPI"), "elfutils": ("libdw", "PARALLAX_WITH_LIBDW"),
            "python": ("python", "PARALLAX_WITH_PYTHON")}
for spack, (variant, option) in optional.items():
    if deps.get(spack) != "+" + variant:
        bad.append(f"depends_on('{spack}') must be when='+{variant}'")
    if option not in cmake.split("option(", 1)[-1] and option not in options:
        bad.append(f"{option} is not an option of the build")
for b in bad:
    print("FAIL", b)
print("ok the recipe parses; %d variants, %d dependencies, %d CMake settings checked against the build"
      % (len(variants), len(deps), len(defines)) if not bad else "")
sys.exit(1 if bad else 0)
PY

# The recipe under a stand-in for spack.package.
T=$(mktemp -d /tmp/parallax_spack.XXXXXX)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/stub/spack"
: > "$T/stub/spack/__init__.py"
cat > "$T/stub/spack/package.py" <<'PY'
"""The part of Spack's package API the recipe uses: directives are recorded, define() and
define_from_variant() give what Spack gives (-DNAME:BOOL=ON)."""
__all__ = ["CMakePackage", "variant", "version", "depends_on", "generator"]
recorded = []
def variant(name, default=None, description=""): recorded.append(("variant", name, default))
def version(*a, **k): recorded.append(("version", a))
def depends_on(*a, **k): recorded.append(("depends_on", a, k))
def generator(*a): recorded.append(("generator", a))
class Spec:
    def __init__(self, variants): self.variants = variants
    def satisfies(self, s): return self.variants.get(s.lstrip("+~"), False) == s.startswith("+")
    def __contains__(self, s): return self.satisfies(s)
class CMakePackage:
    def __init__(self, variants): self.spec = Spec(variants)
    def define(self, name, value):
        if isinstance(value, bool): return f"-D{name}:BOOL={'ON' if value else 'OFF'}"
        return f"-D{name}:STRING={value}"
    def define_from_variant(self, name, variant):
        return self.define(name, bool(self.spec.variants[variant]))
PY
for mode in off on; do
  python3 - "$ROOT" "$T/stub" "$mode" > "$T/args.$mode" <<'PY'
import importlib.util, sys
root, stub, mode = sys.argv[1:4]
sys.path.insert(0, stub)
import spack.package as sp
spec = importlib.util.spec_from_file_location("recipe", f"{root}/packaging/spack/parallax/package.py")
recipe = importlib.util.module_from_spec(spec)
spec.loader.exec_module(recipe)
variants = {r[1]: mode == "on" for r in sp.recorded if r[0] == "variant"}
print("\n".join(recipe.Parallax(variants).cmake_args()))
PY
  mapfile -t args < "$T/args.$mode"
  if cmake -S "$ROOT" -B "$T/b-$mode" -G Ninja -DCMAKE_INSTALL_PREFIX="$T/p-$mode" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
       -DBUILD_TESTING:BOOL=OFF -DCMAKE_INTERPROCEDURAL_OPTIMIZATION:BOOL=OFF -DCMAKE_INSTALL_RPATH_USE_LINK_PATH:BOOL=ON \
       "${args[@]}" > "$T/configure.$mode" 2>&1; then
    echo "ok the recipe's cmake_args with every variant $mode (${#args[@]} settings) configure the tree"
  else
    echo "FAIL the recipe's cmake_args with every variant $mode do not configure:"; tail -20 "$T/configure.$mode"; exit 1
  fi
done
missing=0
for line in "OTF2 support: off" "Python module: not built" "parallax-mpi is not built"; do
  grep -q "$line" "$T/configure.off" || { echo "FAIL with every variant off, the configuration does not say '$line'"; missing=1; }
done
grep -q "Python module: not built" "$T/configure.on" && { echo "FAIL with +python the module is not built"; missing=1; }
if command -v mpicc > /dev/null; then
  grep -q "parallax-mpi is not built" "$T/configure.on" && { echo "FAIL with +mpi parallax-mpi is not built"; missing=1; }
fi
grep -q "PARALLAX_BUILD_TESTS" "$T/b-off/CMakeCache.txt" && grep -q "^PARALLAX_BUILD_TESTS:BOOL=OFF" "$T/b-off/CMakeCache.txt" ||
  { echo "FAIL the recipe does not turn the tests off"; missing=1; }
[ $missing = 0 ] && echo "ok with every variant off the configuration says what is left out; with every variant on nothing is"
exit $missing
