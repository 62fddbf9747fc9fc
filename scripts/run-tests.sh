#!/usr/bin/env bash
# The test suite against both builds. With a compiled build installed: every test
# against it, then the suites whose result can depend on the build (the scanner, the text
# helpers the compiled modules hold, and what is computed from their answers) against the
# pure-Python modules (MFLS_PURE=1); tests/cli/test_cli_builds.py compares the two builds
# on the same corpora. Without one: every test, once, pure. Arguments go to each pytest
# run; the exit status is the first failing run's. The first run also holds
# tests/pyodide, which runs the handler tests again under Pyodide in Node.
set -uo pipefail
cd "$(dirname "$0")/.."
build=$(python3 -m mfls --version) || exit
echo "$build"
# What the compiled modules (mfls/syntax, mfls/text/line_index.py, mfls/text/places.py)
# compute, and the suites built on their answers.
build_dependent=(
  tests/syntax tests/conformance tests/commonmark tests/features tests/workspace tests/hosts
  tests/robustness/test_robust_scanner_properties.py tests/robustness/test_robust_incremental.py
  tests/cli/test_places.py tests/lsp/test_lsp_line_index_spans.py tests/lsp/test_lsp_from_proto.py
  tests/lsp/test_lsp_to_proto.py
)
status=0
if [[ $build == *"compiled (mypyc)"* ]]; then
  MFLS_EXPECT_BUILD=compiled python3 -m pytest --durations=25 "$@" || status=$?
  echo "The suites whose result can depend on the build, against the pure-Python modules:"
  MFLS_PURE=1 MFLS_EXPECT_BUILD=pure python3 -m pytest --durations=25 "${build_dependent[@]}" "$@" ||
    { [ "$status" -ne 0 ] || status=$?; }
else
  echo "No compiled build: one run, pure Python."
  MFLS_EXPECT_BUILD=pure python3 -m pytest --durations=25 "$@" || status=$?
fi
exit "$status"
