from mfls.workspace.config import DEFAULT_LESSONS, CourseConfig, parse_course_config
from mfls.workspace.hosts import host_profile


def test_empty_file_gives_defaults() -> None:
    config, problems = parse_course_config("")
    assert config == CourseConfig()
    assert config.lessons == DEFAULT_LESSONS
    assert problems == []


def test_every_field() -> None:
    text = """
name = "Python basics"
host = "ai-shifu"
lessons = ["intro.md", "lessons/*.md"]
references = ["refs/**"]
system-keys = ["tenant"]

[diagnostics]
near-miss = "off"
unbound-reference = "error"
"""
    config, problems = parse_course_config(text)
    assert problems == []
    assert config.name == "Python basics"
    assert config.host == "ai-shifu"
    assert config.lessons == ("intro.md", "lessons/*.md")
    assert config.references == ("refs/**",)
    assert config.system_keys == ("tenant",)
    assert dict(config.severities) == {"near-miss": "off", "unbound-reference": "error"}


def test_unknown_field_is_located_and_not_fatal() -> None:
    text = 'name = "x"\ncolour = "blue"\n'
    config, problems = parse_course_config(text)
    assert config.name == "x"
    [problem] = problems
    assert not problem.fatal
    assert "colour" in problem.message
    assert (problem.line, problem.column) == (1, 0)
    assert text[problem.start : problem.end] == "colour"


def test_wrong_types_fall_back_per_field() -> None:
    text = 'name = 3\nhost = "nowhere"\nlessons = "a.md"\nsystem-keys = [1]\n'
    config, problems = parse_course_config(text)
    assert config == CourseConfig()
    assert [p.line for p in problems] == [0, 1, 2, 3]
    assert all(not p.fatal for p in problems)


def test_bad_severity_and_unknown_code_in_diagnostics_table() -> None:
    text = '[diagnostics]\nnear-miss = "loud"\nno-such-code = "off"\nlegacy-binding = "off"\n'
    config, problems = parse_course_config(text)
    assert dict(config.severities) == {"legacy-binding": "off"}
    assert [p.line for p in problems] == [1, 2]
    assert "near-miss" in problems[0].message and "no-such-code" in problems[1].message


def test_diagnostics_must_be_a_table() -> None:
    config, problems = parse_course_config('diagnostics = "off"\n')
    assert dict(config.severities) == {}
    assert problems[0].line == 0


def test_malformed_file_falls_back_to_defaults_with_a_located_problem() -> None:
    text = 'name = "ok"\nhost = \n'
    config, problems = parse_course_config(text)
    assert config == CourseConfig()
    [problem] = problems
    assert problem.fatal
    assert problem.line == 1
    assert "not valid TOML" in problem.message


def test_byte_order_mark_is_accepted() -> None:
    config, problems = parse_course_config('\ufeffname = "x"\n')
    assert (config.name, problems) == ("x", [])


def test_host_profiles() -> None:
    generic = host_profile("generic")
    assert generic.provided_keys == frozenset() and generic.reserved_prefixes == ()
    shifu = host_profile("ai-shifu")
    assert shifu.provides("sys_user_nickname") and shifu.provides("sys_user_language")
    assert shifu.reserved_prefix_of("sys_anything") == "sys_"
    assert shifu.reserved_prefix_of("system") is None
    playground = host_profile("playground", ("tenant",))
    assert playground.provides("browser_language") and playground.provides("tenant")
    assert not host_profile("playground").provides("tenant")
