#!/usr/bin/env bash
# The Spack recipe (packaging/spack/parallax/package.py) checked against the build without
# Spack: it parses as Python; every CMake option it sets exists in the build with a default;
# every variant switches one PARALLAX_WITH_* option; every library the build requires has a
# dependency, and every optional one a dependency under its variant.
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
