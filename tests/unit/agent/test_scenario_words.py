"""The shipped scenarios' descriptions are in the catalogue: German readers read them in German."""

from __future__ import annotations

from inspector.agent import load_scenario, shipped_scenarios
from inspector.i18n import set_language
from inspector.i18n.scenarios import SHIPPED_DESCRIPTIONS, described


def test_every_shipped_description_is_known_and_said_in_german() -> None:
    descriptions = {load_scenario(name).description for name in shipped_scenarios()}
    assert descriptions == set(SHIPPED_DESCRIPTIONS)
    set_language("de")
    try:
        german = {described(text) for text in descriptions}
    finally:
        set_language("en")
    assert german.isdisjoint(descriptions) and len(german) == len(descriptions)
    assert described("A scenario file's own words.") == "A scenario file's own words."
