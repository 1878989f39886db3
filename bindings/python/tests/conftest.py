import os
import sys

# Use the package from this source tree (tests run from the build tree, before any install),
# unless the installed package is under test (check_wheel.sh sets SCATTER_TEST_INSTALLED=1).
if os.environ.get("SCATTER_TEST_INSTALLED") != "1":
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
