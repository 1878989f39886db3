"""The platform part of the build (everything else is in pyproject.toml).

A libscatter shared library copied into scatter/ (build_wheel.py does it) makes the wheel
platform-specific: tagged py3-none-<this platform>, since any Python 3 loads it through ctypes
but only on the platform it was built for. Without one the package stays pure and finds the
library through SCATTER_LIBRARY or the system path.
"""
import glob
import os

from setuptools import setup
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))
BUNDLED = any(glob.glob(os.path.join(HERE, "scatter", pattern))
              for pattern in ("libscatter.so*", "libscatter*.dylib", "scatter.dll"))


class LibraryDistribution(Distribution):
    def has_ext_modules(self):
        return BUNDLED


cmdclass = {}
try:
    from wheel.bdist_wheel import bdist_wheel
except ImportError:  # no wheel package: `pip install .` still works
    bdist_wheel = None
if bdist_wheel is not None:
    class PlatformWheel(bdist_wheel):
        def finalize_options(self):
            super().finalize_options()
            self.root_is_pure = not BUNDLED

        def get_tag(self):
            python, abi, platform = super().get_tag()
            return ("py3", "none", platform) if BUNDLED else (python, abi, platform)

    cmdclass["bdist_wheel"] = PlatformWheel

setup(distclass=LibraryDistribution, cmdclass=cmdclass)
