"""Header names of the common trace collectors, as their documentation names them, for the tests of the
rule that decides which headers hold credentials (a server's, a team push's)."""

#: The headers collectors take their credentials in: Honeycomb, Uptrace, Instana, SigNoz (ingestion key and
#: access token), Datadog, New Relic, Lightstep, Splunk, and Dynatrace and Grafana Cloud (Authorization:
#: Api-Token / Basic).
COLLECTOR_SECRET_HEADERS = ("x-honeycomb-team", "uptrace-dsn", "x-instana-key", "signoz-ingestion-key",
                            "signoz-access-token", "dd-api-key", "api-key", "lightstep-access-token", "X-SF-Token",
                            "Authorization")
#: Their headers that are no credentials: a dataset, a host, a tenant.
COLLECTOR_PLAIN_HEADERS = ("x-honeycomb-dataset", "x-instana-host", "Dash0-Dataset", "X-Scope-OrgID")
