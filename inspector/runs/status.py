"""What a whole run can be, and where it came from (the words the store and the views share)."""

#: A run's status: ``running`` until it ends; ``interrupted`` when its process died mid-run.
RUN_STATUSES = ("running", "ok", "failed", "cancelled", "interrupted")
#: Where a run came from.
RUN_SOURCES = ("live", "scenario", "imported")
