"""Errors for a library this Python lacks, with the fix that fits the interpreter running: Debian's
own python3 gets the apt-get line, any other (a venv, pyenv, conda) the pip line."""

import os
import sys


def _debian_system_python():
    return sys.prefix == sys.base_prefix == "/usr" and os.path.realpath(sys.executable).startswith("/usr/bin/")


def missing(what, module, debian_package=None):
    """An ImportError saying that `what` needs `module`, which this interpreter cannot import."""
    version = f"{sys.version_info[0]}.{sys.version_info[1]}"
    if debian_package and _debian_system_python():
        fix = f"apt-get install {debian_package}"
    else:
        fix = f"pip install {module}"
        if debian_package and sys.prefix != sys.base_prefix and os.path.exists("/usr/bin/python3"):
            fix += " (or make the venv from Debian's python3 with --system-site-packages, " \
                   f"after apt-get install {debian_package})"
    return ImportError(f"{what} needs {module}, which {sys.executable} (Python {version}) cannot import: {fix}")
