"""The look-alike table keeps only its map: the package's full data (~6 MB) is not held."""

import subprocess
import sys


def test_the_confusables_data_is_not_kept_after_the_table_is_built() -> None:
    # A fresh interpreter: another test may already have imported the package's module.
    code = (
        "import gc, sys, tracemalloc\n"
        "import confusable_homoglyphs.utils\n"  # its import is not the table
        "from yanniv.server.rooms import pseudos\n"
        "tracemalloc.start()\n"
        "pseudos.prepare()\n"
        "gc.collect()\n"
        "kept = tracemalloc.get_traced_memory()[0]\n"
        "assert pseudos.confusable('Alice', '\\u0410lice')\n"
        "assert 'confusable_homoglyphs.confusables' not in sys.modules\n"
        "print(kept)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert int(out.stdout) < 1_500_000  # the map: ~1 MB; with the package's table: ~6.4 MB
