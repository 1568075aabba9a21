"""Build the optional compiled cores (the Summy move generator, the Slide play-outs).

Everything else is in ``pyproject.toml``. The extensions are optional: where no C
compiler is found (or it fails), ``pip install`` goes on without them and the
pure-Python code, which is the reference, serves. Set
``MEEPLE_NO_COMPILE=1`` to skip them on purpose.
"""

import os

from setuptools import Extension, setup

extensions = []
if os.environ.get("MEEPLE_NO_COMPILE", "") in ("", "0"):
    extensions.append(
        Extension(
            "meeple.games.summy.movegen._movegen_c",
            ["src/meeple/games/summy/movegen/_movegen_c.c"],
            extra_compile_args=["-O2"],
            optional=True,
        )
    )
    extensions.append(
        Extension(
            "meeple.games.slide.bots._playout_c",
            ["src/meeple/games/slide/bots/_playout_c.c"],
            extra_compile_args=["-O2"],
            optional=True,
        )
    )

setup(ext_modules=extensions)
