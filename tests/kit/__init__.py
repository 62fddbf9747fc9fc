"""The test kit every folder of the suite shares.

One course-text format (`course`: `//- path` headers, `$0` cursors, `%% ^^^ code`
annotations), one in-memory client (`memory_client`), one client of a real `python -m
mfls` process (`lsp_client`: pytest-lsp's `session`, the byte-level `RawServer`), one
`wait_until` (`waiting`), one CLI runner (`cli.mfls`), AI-Shifu exports built in the
platform's shape (`exports`, `cold_course`), and small helpers (`files`, `faults`,
`map_page`, `sockets`). Tests import them as `tests.kit.<module>` (pytest puts the
checkout on `sys.path`, see `pythonpath` in pyproject.toml). The real-editor drivers'
check runners are beside them: `tests/editors/kit` (JavaScript and Lua).
"""
