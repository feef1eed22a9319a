"""Can Picamera2 be imported here, and if not, why and what to do (for doctor and the camera).

Picamera2 comes with Raspberry Pi OS (``apt install python3-picamera2``), compiled against the
OS's numpy; the venv sees it through ``--system-site-packages``. Its import can fail for more
than a missing module: a numpy in the venv that is not the one the OS's camera stack was built
for fails with ``ValueError: numpy.dtype size changed`` or "A module that was compiled using
NumPy 1.x cannot be run in NumPy 2.x" (picamera2 issues 1088 and 1211). Any exception of the
import is caught and turned into one sentence with its fix; the import is tried once per
process (it does not get better by trying again).

>>> picamera2_problem(importer=lambda: None) is None
True
>>> gone = ModuleNotFoundError("No module named 'picamera2'", name="picamera2")
>>> picamera2_problem(importer=_raise(gone)).split(":")[0]
'Picamera2 is not installed'
>>> broken = ValueError("numpy.dtype size changed, may indicate binary incompatibility")
>>> "constraints/bookworm.txt" in picamera2_problem(importer=_raise(broken))
True
"""

from __future__ import annotations

import functools
from collections.abc import Callable

NUMPY_SIGNS = ("numpy.dtype size changed", "compiled using NumPy", "_ARRAY_API",
               "numpy.core.multiarray failed to import", "numpy._core")


def _import_picamera2() -> None:
    import picamera2  # noqa: F401 - only present on a Pi


def _raise(error: BaseException) -> Callable[[], None]:
    def importer() -> None:
        raise error
    return importer


def picamera2_problem(importer: Callable[[], None] = _import_picamera2) -> str | None:
    """None if Picamera2 imports; else what went wrong and how to fix it, in one sentence."""
    try:
        importer()
    except ModuleNotFoundError as error:
        if error.name not in (None, "picamera2") and not str(error).endswith("'picamera2'"):
            return (f"Picamera2 cannot be imported: {error} (a part of the OS's camera stack "
                    "is missing: 'sudo apt install --reinstall python3-picamera2')")
        return ("Picamera2 is not installed: it comes with Raspberry Pi OS ('sudo apt install "
                "python3-picamera2'), and the venv must be made with --system-site-packages")
    except Exception as error:  # noqa: BLE001 - whatever the import raises is the reason
        reason = f"{type(error).__name__}: {error}".strip()
        if any(sign in str(error) for sign in NUMPY_SIGNS):
            return (f"Picamera2 cannot be imported ({reason}): the venv's numpy "
                    f"({_numpy_version()}) is not the one the OS's camera stack was built "
                    "for; reinstall with the OS's constraints: pip install -e '.[pi]' -c "
                    "constraints/bookworm.txt on Bookworm, -c constraints/trixie.txt on the "
                    "current Raspberry Pi OS (README, 'On a Raspberry Pi')")
        return (f"Picamera2 cannot be imported ({reason}); check 'python3 -c \"import "
                "picamera2\"' outside the venv, then 'sudo apt install --reinstall "
                "python3-picamera2'")
    return None


@functools.cache
def picamera2_problem_once() -> str | None:
    """``picamera2_problem`` of this process, tried once."""
    return picamera2_problem()


def _numpy_version() -> str:
    try:
        import numpy
    except Exception:  # noqa: BLE001 - a numpy that does not import: say so
        return "not importable"
    return f"numpy {numpy.__version__} from {numpy.__file__.rsplit('/numpy/', 1)[0]}"
