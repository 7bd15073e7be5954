"""A stored step replayed in the workbench: the same tool, arguments and budget, as an operation
with its live budget bar, its run linked to the step (:mod:`inspector.runs.replaying`).

The server: the configured one at the step's address (with its headers and sign-in), else that
address as it is; a step that names none Run Inspector can reach (an imported trace, a command
server not configured here, a played scenario's demo server started for its run alone) asks which
configured server to use.
"""

from __future__ import annotations

import dataclasses
import json
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QTabWidget

from inspector.i18n import _
from inspector.i18n.formatting import format_seconds
from inspector.i18n.messages import translate
from inspector.mcp import InvalidServerError, ServerEndpoint, bounded_budget
from inspector.mcp.server import STDIO_KEY_PREFIX
from inspector.runs.replaying import ReplayPlan
from inspector.store import ServerRecord

from ..dialogs.replay_server_dialog import ReplayServerDialog
from .operation_task import OperationTask

if TYPE_CHECKING:
    from .room import Workbench


def replay_step(room: Workbench, plan: ReplayPlan) -> OperationTask | None:
    """Start the replay, or ask which server first (then ``None``: the replay starts once chosen)."""
    if plan.budget_s is None or bounded_budget(plan.budget_s) is not None:
        return _replay_step(room, plan)
    # An imported trace's 1e308 s: no operation can run by it (its countdown overflowed). Said before a server
    # is asked for, and again once the replay runs (its start says the operations running).
    note = _("The step's budget, {stored} s, is more than a week: the replay gets the server's budget or the "
             "default.").format(stored=format_seconds(plan.budget_s))
    room.admin.say(note)
    task = _replay_step(room, dataclasses.replace(plan, budget_s=None))
    if task is not None:
        room.admin.say(note)
    return task


def _replay_step(room: Workbench, plan: ReplayPlan) -> OperationTask | None:
    # A command server listed by its health only (`call --stdio` started it) has nothing to start: not one to use.
    servers = [server for server in room.admin.registry.all() if server.transport != "stdio" or server.command]
    record = next((server for server in servers if plan.server and server.url == plan.server), None)
    if record is not None:
        return replay_on(room, plan, record)
    if plan.server and not plan.server.startswith(STDIO_KEY_PREFIX) and not plan.played:
        try:
            endpoint = ServerEndpoint(plan.server)
        except InvalidServerError as exc:
            room.admin.say(translate(exc))  # in the reader's language
            return None
        return room.engine.call_tool(endpoint, plan.tool, plan.arguments, plan.budget_s, replay_of=plan.link)
    if not servers:
        room.admin.say(_("No server is configured to replay this step on: add one, then press Replay again."))
        return None
    if plan.server is None:
        why = _("Step {step} came from an imported trace: which server should it be replayed on?")
    elif plan.played:
        why = _("Step {step} was played on a demo server started for its run alone, which stopped with it: "
                "which server should it be replayed on?")
    else:
        why = _("Step {step} was made by a command server that is not configured here: which server should it "
                "be replayed on?")
    why = why.format(step=plan.link.sequence)
    arguments = json.dumps(plan.arguments, ensure_ascii=False, separators=(", ", ": "))
    dialog = ReplayServerDialog(why, servers, room, call=_("tools/call {tool} with {arguments}").format(
        tool=plan.tool, arguments=arguments))
    dialog.accepted.connect(lambda: _chosen(room, plan, dialog.chosen()))
    room.replay_dialog = dialog
    dialog.open()
    return None


def _chosen(room: Workbench, plan: ReplayPlan, record: ServerRecord | None) -> None:
    if record is None or replay_on(room, plan, record) is None:
        return
    tabs = room.parentWidget()  # the replay runs where operations are shown: that tab comes to the front
    while tabs is not None and not isinstance(tabs, QTabWidget):
        tabs = tabs.parentWidget()
    if tabs is not None:
        tabs.setCurrentWidget(room)


def replay_on(room: Workbench, plan: ReplayPlan, record: ServerRecord) -> OperationTask | None:
    """The replay on the configured server ``record`` (its headers, sign-in, and budget when the
    step recorded none)."""
    endpoint = room.admin.endpoint_or_say(record)
    if endpoint is None:
        return None
    budget = plan.budget_s if plan.budget_s is not None else room.admin.budget_for(record)
    return room.engine.call_tool(endpoint, plan.tool, plan.arguments, budget, replay_of=plan.link)
