"""Runs that travel beyond this machine's database: pushed to a team's OpenTelemetry collector
(an outbox in the database, retried with backoff) and pulled by trace id from Jaeger or Tempo.

No Qt: the window drives these from a worker thread, the command line directly."""
