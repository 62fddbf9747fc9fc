#!/usr/bin/env bash
# The test suite against both builds. With a compiled build installed: every test
# against it, then the suites whose result can depend on the build (the scanner, the text
# helpers the compiled modules hold, and what is computed from their answers) against the
# pure-Python modules (MFLS_PURE=1); tests/cli/test_cli_builds.py compares the two builds
# on the same corpora. Without one: every test, once, pure. Arguments go to each pytest
# run; the exit status is the first failing run's. The first run also holds
# tests/pyodide, which runs the handler tests again under Pyodide in Node.
#
# Each run goes in two steps (tests/conftest.py says which test goes where): the tests on
# two workers (pytest-xdist; the real-editor tests one group, one editor at a time), then
# the tests marked `alone`, which time code, one at a time on a machine left to them.
set -uo pipefail
cd "$(dirname "$0")/.."
build=$(python3 -m mfls --version) || exit
echo "$build"
# What the compiled modules (mfls/syntax, mfls/text/line_index.py, mfls/text/places.py)
# compute, and the suites built on their answers.
build_dependent=(
  tests/syntax tests/conformance tests/commonmark tests/features tests/workspace tests/hosts
  tests/robustness/test_robust_scanner_properties.py tests/robustness/test_robust_incremental.py
  tests/text tests/lsp/test_lsp_from_proto.py
  tests/lsp/test_lsp_to_proto.py
)
status=0
# Runs pytest twice with these arguments: on two workers without the tests marked
# `alone`, then those alone. Pytest's status 5 (nothing collected) in one step is no
# failure (a selection may hold only tests marked `alone`, or none); in both it is.
both_steps() {
  local first second
  python3 -m pytest --durations=25 -n 2 --dist loadgroup -m "not alone" "$@"
  first=$?
  echo "The tests that time code, one at a time:"
  python3 -m pytest --durations=25 -m alone "$@"
  second=$?
  for code in "$first" "$second"; do
    [ "$code" -eq 0 ] || [ "$code" -eq 5 ] || [ "$status" -ne 0 ] || status=$code
  done
  if [ "$first" -eq 5 ] && [ "$second" -eq 5 ] && [ "$status" -eq 0 ]; then status=5; fi
}
if [[ $build == *"compiled (mypyc)"* ]]; then
  MFLS_EXPECT_BUILD=compiled both_steps "$@"
  echo "The suites whose result can depend on the build, against the pure-Python modules:"
  MFLS_PURE=1 MFLS_EXPECT_BUILD=pure both_steps "${build_dependent[@]}" "$@"
else
  echo "No compiled build: one run, pure Python."
  MFLS_EXPECT_BUILD=pure both_steps "$@"
fi
exit "$status"
