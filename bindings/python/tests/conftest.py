import os
import sys

# Use the package from this source tree (tests run from the build tree, before any install).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
