"""What an operator watches a running server by, below the web layer: its logs
(:mod:`meeple.observe.logs`), the request and table each log line names
(:mod:`meeple.observe.request_ids`) and the settings of both
(:mod:`meeple.observe.settings`). The figures for Prometheus are ``meeple.web.metrics``."""
