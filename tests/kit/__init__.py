"""The test kit every folder of the suite shares.

One course-text format (`//- path` headers, `$0` cursors, `%% ^^^ code` annotations), one
in-memory client, one `wait_until`, one CLI runner: tests import them as `tests.kit.<module>`
(pytest puts the checkout on `sys.path`, see `pythonpath` in pyproject.toml).
"""
