"""The numbers said without Babel's locale data (a command-line call's start) are exactly Babel's."""

from __future__ import annotations

import random

import pytest
from babel import Locale
from babel import numbers as babel_numbers

from inspector.i18n.formatting import PLAIN_SIGNS, plain_decimal, plain_shape

PATTERNS = ("#,##0.###", "#,##0", "0.###", "0.##", "0.0", "0", "#,##0.00", "#,##0.0", "0.#########")

EDGES = [0, 0.0, 0.0005, 0.0015, 0.0025, 0.001, 0.012, 0.1 + 0.2, 0.5, 1.5, 2.5, 999.9995, 1000, 1234.5678,
         12_345.0004, 999_999.9999, 1e15, 123_456_789_012.3456, 5e-324, 7, 10**18, 4143.0, 6010.1, 55.04]


@pytest.mark.parametrize("language", sorted(PLAIN_SIGNS))
def test_the_signs_are_babels(language: str) -> None:
    symbols = Locale.parse(language).number_symbols["latn"]
    assert PLAIN_SIGNS[language] == (symbols["decimal"], symbols["group"])


@pytest.mark.parametrize("language", sorted(PLAIN_SIGNS))
@pytest.mark.parametrize("pattern", PATTERNS)
def test_every_number_reads_as_babel_writes_it(language: str, pattern: str) -> None:
    locale = Locale.parse(language)
    parsed = babel_numbers.parse_pattern(pattern)
    chance = random.Random(20261202)
    values = EDGES + [chance.uniform(0, 10 ** chance.randint(0, 9)) for _ in range(3000)] + [
        chance.randint(0, 10 ** 12) for _ in range(500)] + [round(chance.uniform(0, 100), chance.randint(0, 5))
                                                            for _ in range(1000)]
    shape = plain_shape(pattern)
    assert shape is not None
    for value in values:
        assert plain_decimal(value, shape, *PLAIN_SIGNS[language]) == parsed.apply(value, locale), (value, language)


def test_other_patterns_are_left_to_babel() -> None:
    assert [plain_shape(p) for p in ("#,##0.###", "0.0", "#,##0.00")] == [(True, 0, 3), (False, 1, 1), (True, 2, 2)]
    assert [plain_shape(p) for p in ("#,##0.##%", "¤#,##0.00", "0.#0", "#0", "0E0", "")] == [None] * 6


def test_a_call_formats_its_numbers_without_reading_babels_locale_data() -> None:
    import subprocess
    import sys

    probe = ("import babel.localedata as data\n"
             "loaded = []\nreal = data.load\n"
             "data.load = lambda name, *a, **k: (loaded.append(name), real(name, *a, **k))[1]\n"
             "from inspector.i18n import set_language\n"
             "from inspector.i18n.formatting import format_duration, format_number\n"
             "for language in ('en', 'de'):\n"
             "    set_language(language)\n"
             "    print(format_duration(0.012), format_duration(8.0), format_number(12345.5))\n"
             "print(loaded)\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.stdout.splitlines() == ["0.012 s 8.0 s 12,345.5", "0,012 s 8,0 s 12.345,5", "[]"], done.stderr
