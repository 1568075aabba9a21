"""Build the optional compiled core of the Summy move generator.

Everything else is in ``pyproject.toml``. The extension is optional: where no C
compiler is found (or it fails), ``pip install`` goes on without it and the
move generator uses its pure-Python search, which is the reference. Set
``MEEPLE_NO_COMPILE=1`` to skip it on purpose.
"""

import os

from setuptools import Extension, setup

extensions = []
if os.environ.get("MEEPLE_NO_COMPILE", "") in ("", "0"):
    extensions.append(
        Extension(
            "meeple.games.summy._movegen_c",
            ["src/meeple/games/summy/_movegen_c.c"],
            extra_compile_args=["-O2"],
            optional=True,
        )
    )

setup(ext_modules=extensions)
