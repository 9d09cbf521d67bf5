"""Tolerant reading of model replies: JSON objects out of chatty text, source files out of code blocks."""

from __future__ import annotations

import pytest

from engine.agents.replies import ReplyError, extract_code, parse_json_object


@pytest.mark.parametrize("text", [
    '{"space": "pure_cuda", "n": [1, 2]}',
    'Sure! Here is my choice:\n```json\n{"space": "pure_cuda", "n": [1, 2]}\n```\nHope it helps.',
    'I pick this. {"space": "pure_cuda", "n": [1, 2]} That is final.',
    '```\n{"space": "pure_cuda", "n": [1, 2,],}\n```',  # trailing commas
    "{'space': 'pure_cuda', 'n': [1, 2]}",  # single quotes
    "{space_is: 1} then {'space': 'pure_cuda', 'n': [1, 2],}",  # an unreadable object before the real one
])
def test_json_object_is_found_and_repaired(text: str) -> None:
    assert parse_json_object(text) == {"space": "pure_cuda", "n": [1, 2]}


def test_json_literals_and_comments_are_repaired_but_strings_kept() -> None:
    text = "{'ok': true, 'none': null, // a comment\n 'note': 'true // not a comment, {braces}'}"
    assert parse_json_object(text) == {"ok": True, "none": None, "note": "true // not a comment, {braces}"}


@pytest.mark.parametrize(("text", "reason"), [
    ("", "empty"),
    ("I would choose pure CUDA here.", "no JSON object"),
    ('{"space": pure cuda and more', "could not be read"),
])
def test_unreadable_json_says_why(text: str, reason: str) -> None:
    with pytest.raises(ReplyError, match=reason):
        parse_json_object(text)


CPP = '#include "hiera_contract.h"\nextern "C" int hiera_forward(void* stream) { return 0; }\n'


def test_code_block_in_preferred_language_wins() -> None:
    text = f"Plan:\n```text\nsteps with hiera_forward\n```\nCode:\n```cpp\n{CPP}```\nDone."
    assert extract_code(text, ("cpp",), "hiera_forward") == CPP


def test_reply_without_code_block_is_rejected() -> None:
    with pytest.raises(ReplyError, match="no code block"):
        extract_code("I would fuse the operations and vectorize the loads.", ("cpp",), "hiera_forward")


def test_bare_source_file_is_accepted() -> None:
    assert extract_code(CPP, ("cpp",), "hiera_forward") == CPP


def test_code_without_the_entry_point_is_rejected() -> None:
    with pytest.raises(ReplyError, match="does not define hiera_forward"):
        extract_code("```cpp\nint main() { return 0; }\n```", ("cpp",), "hiera_forward")


def test_reply_cut_off_inside_the_block_is_rejected() -> None:
    with pytest.raises(ReplyError, match="cut off"):
        extract_code(f"```cpp\n{CPP}for (int i = 0; i <", ("cpp",), "hiera_forward")
