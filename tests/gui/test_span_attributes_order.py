"""The Attributes tab of a call joined from its client and server spans shows what the call did first: the
span's attributes and the server side's (its ``error.type``), then the resource and scope rows that every
span of a service shares. The mcp SDK's failed ``fail`` call had the server's ``error.type tool_error``
below the client's ten resource rows, out of sight in a 900 px high window."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from inspector.gui.runs.span_facts import attribute_rows
from tests.gui.test_runs_span_detail import imported_agent_run, open_run, step_row


def test_the_server_error_type_is_in_sight_without_scrolling(qtbot, make_window) -> None:
    run_id = imported_agent_run("mcp_sdk.jsonl")
    window, tab = open_run(qtbot, make_window, run_id)
    window.resize(1400, 900)
    tab.select_step(step_row(tab, "fail: "))
    detail = tab.detail
    panel = detail.span.attributes
    detail.tabs.setCurrentWidget(panel)
    QApplication.processEvents()
    model = panel.model
    rows = [(model.row_at(row).origin, model.row_at(row).key) for row in range(model.rowCount())]
    error_row = rows.index(("server span", "error.type"))
    assert error_row < rows.index(("resource", "service.name")), rows
    view = panel.view
    index = model.index(error_row, 0)
    assert view.visualRect(index).bottom() <= view.viewport().height(), (error_row, view.viewport().height())


def test_span_rows_of_both_sides_come_before_resource_and_scope() -> None:
    otlp = {"attributes": {"a": 1}, "resource": {"attributes": {"service.name": "client"}},
            "scope": {"name": "sc"},
            "server": {"attributes": {"error.type": "tool_error"}, "resource": {"attributes": {"service.name": "srv"}},
                       "scope": {"name": "srv-sc"}}}
    assert [(row.origin, row.key) for row in attribute_rows(otlp)] == [
        ("span", "a"), ("server span", "error.type"), ("resource", "service.name"), ("scope", "otel.scope.name"),
        ("server resource", "service.name"), ("server scope", "otel.scope.name")]
    assert [row.origin for row in attribute_rows({"attributes": {"a": 1}, "resource": {"attributes": {"b": 2}}})] \
        == ["span", "resource"]
