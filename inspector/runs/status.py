"""What a whole run can be, and where it came from (the words the store and the views share)."""

#: A run's status: ``running`` until it ends; ``interrupted`` when its process died mid-run.
RUN_STATUSES = ("running", "ok", "failed", "cancelled", "interrupted")
#: Where a run came from.
RUN_SOURCES = ("live", "scenario", "imported")
#: What a proxied run's title says after its operation ("tools/call get_weather · proxy"), so that it reads apart from
#: calls made here; a title cut short in the run list drops it first.
PROXY_TITLE_MARK = "· proxy"
