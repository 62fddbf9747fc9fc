#!/usr/bin/env bash
# The test suite against both builds. With a compiled build installed: every test
# against it, then every test but the real-editor ones against the pure-Python modules
# (MFLS_PURE=1). Without one: every test, once, pure. Arguments go to each pytest run;
# the exit status is the first failing run's.
set -uo pipefail
cd "$(dirname "$0")/.."
build=$(python3 -m mfls --version) || exit
echo "$build"
status=0
if [[ $build == *"compiled (mypyc)"* ]]; then
  MFLS_EXPECT_BUILD=compiled python3 -m pytest "$@" || status=$?
  echo "The same tests, the real-editor ones aside, against the pure-Python modules:"
  MFLS_PURE=1 MFLS_EXPECT_BUILD=pure python3 -m pytest --ignore=tests/editors "$@" ||
    { [ "$status" -ne 0 ] || status=$?; }
else
  echo "No compiled build: one run, pure Python."
  MFLS_EXPECT_BUILD=pure python3 -m pytest "$@" || status=$?
fi
exit "$status"
