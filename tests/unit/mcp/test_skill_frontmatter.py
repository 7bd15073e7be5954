"""A SKILL.md's frontmatter read as hostile YAML, compared as JSON values (SEP-2640)."""

from __future__ import annotations

import hashlib

import pytest

from inspector.mcp.frontmatter import FrontmatterProblem, differences, parse_frontmatter, same_value
from inspector.mcp.skill_entries import SkillFile, read_entry
from inspector.mcp.skill_files import FileMismatch, verify_file


def test_the_frontmatter_is_read_as_json_would_carry_it() -> None:
    text = ("\ufeff---\r\nname: pdf\r\ndescription: d\r\nreleased: 2024-01-01\r\nlisted: yes\r\nshown: true\r\n"
            "count: 3\r\nmetadata:\r\n  tags: [a, b]\r\n---\r\nBody")
    assert parse_frontmatter(text) == {"name": "pdf", "description": "d", "released": "2024-01-01", "listed": "yes",
                                       "shown": True, "count": 3, "metadata": {"tags": ["a", "b"]}}


@pytest.mark.parametrize(("text", "words"), [
    ("no frontmatter", "does not begin with a frontmatter block"),
    ("---\nname: a\n", "does not begin with a frontmatter block"),
    ("---\na: &x [1, 2]\nb: *x\n---\n", "anchors or aliases"),
    ("---\na: " + "[" * 30 + "]" * 30 + "\n---\n", "nests deeper than 20 levels"),
    ("---\na: [" + ", ".join(["1"] * 6000) + "]\n---\n", "more than 5000 values"),
    ("---\n- a\n- b\n---\n", "not a mapping of fields"),
    ("---\n1: a\n---\n", "a key that is not text"),
    ("---\na: !!binary aGVsbG8=\n---\n", "a value of a kind JSON cannot carry"),
    ("---\na: .inf\n---\n", "a number JSON cannot carry"),
    ("---\na: !!python/name:os.system\n---\n", "not valid YAML"),
    ("---\na: [unclosed\n---\n", "not valid YAML"),
    ("---\n" + "a: " + "x" * 70_000 + "\n---\n", "longer than 65536 characters"),
])
def test_hostile_or_broken_frontmatter_is_refused_in_words(text: str, words: str) -> None:
    with pytest.raises(FrontmatterProblem) as caught:
        parse_frontmatter(text)
    assert words in str(caught.value.reason)


def test_values_compare_as_json_values_and_differences_name_the_field() -> None:
    assert same_value(1, 1.0) and not same_value(True, 1) and not same_value("1", 1) and same_value(None, None)
    assert same_value({"a": [1, {"b": None}]}, {"a": [1.0, {"b": None}]}) and not same_value([1, 2], [2, 1])
    assert differences({"name": "a", "description": "x"}, {"name": "a", "description": "y", "license": None}) == [
        ("description", "x", "y")]
    assert differences({"name": "a", "extra": 1}, {"name": "a"}) == [("extra", 1, None)]


def test_a_file_is_checked_for_its_size_before_its_digest() -> None:
    text = "hello\n"
    listed = SkillFile("skill://s/FORMS.md", "sha256:" + hashlib.sha256(text.encode()).hexdigest(), 6, "FORMS.md")
    read = verify_file(listed, {"contents": [{"uri": listed.uri, "text": text}]})
    assert (read.size, read.verified, read.text) == (6, True, text)
    with pytest.raises(FileMismatch) as caught:
        verify_file(listed, {"contents": [{"uri": listed.uri, "text": "hello!\n"}]})
    assert str(caught.value.problem) == "FORMS.md: 7 bytes, the listing says 6"
    with pytest.raises(FileMismatch) as caught:
        verify_file(listed, {"contents": [{"uri": listed.uri, "text": "HELLO\n"}]})
    assert str(caught.value.problem).startswith("FORMS.md: its SHA-256 digest is sha256:")
    with pytest.raises(FileMismatch) as caught:
        verify_file(listed, {"contents": [{"uri": listed.uri, "blob": "not base64!"}]})
    assert "not valid base64" in str(caught.value.problem)
    with pytest.raises(FileMismatch) as caught:
        verify_file(listed, {"contents": []})
    assert "holds no content" in str(caught.value.problem)


def test_an_entry_over_the_limits_is_not_loadable_and_a_nested_path_is_its_files_own() -> None:
    many = [{"uri": f"skill://a/b/s/f{index}.md", "digest": "sha256:" + "0" * 64, "size": 1} for index in range(600)]
    entry = read_entry({"uri": "skill://a/b/s/SKILL.md", "frontmatter": {"name": "s", "description": "d"},
                        "resources": [{"uri": "skill://a/b/s/SKILL.md", "digest": "sha256:" + "0" * 64,
                                       "size": 17 * 1024 * 1024}, *many]})
    assert str(entry.problem) == "it lists 601 files, more than the 512 a host must accept"
    assert entry.files[1].path == "f0.md" and entry.name == "s"
